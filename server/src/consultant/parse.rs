//! Reading what people type on WhatsApp: amounts in reais the Brazilian way ("R$ 1.500,00",
//! "1500", "1,5 mil", "10k"), percentages ("30%"), whole counts ("3 pessoas"), lists ("Instagram,
//! iFood e indicação") and a few yes/no and choice words.

/// An amount in reais, or None when there is no number in the text.
pub fn amount(text: &str) -> Option<f64> {
    let lower = text.to_lowercase().replace("r$", " ").replace("reais", " ").replace("real", " ");
    let multiplier = if lower.contains("milh") {
        1_000_000.0
    } else if lower.contains("mil") || lower.trim_end().ends_with('k') {
        1_000.0
    } else {
        1.0
    };
    let number: String = lower
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .collect();
    let number = number.trim_end_matches(['.', ',']);
    if number.is_empty() {
        return None;
    }
    let normalised = match (number.rfind(','), number.rfind('.')) {
        (Some(comma), Some(dot)) if comma > dot => number.replace('.', "").replace(',', "."),
        (Some(_), Some(_)) => number.replace(',', ""),
        (Some(_), None) if number.matches(',').count() > 1 => number.replace(',', ""),
        (Some(_), None) => number.replace(',', "."),
        (None, Some(dot)) => {
            let decimals = number.len() - dot - 1;
            if decimals == 3 || number.matches('.').count() > 1 {
                number.replace('.', "")
            } else {
                number.to_owned()
            }
        }
        (None, None) => number.to_owned(),
    };
    let value: f64 = normalised.parse().ok()?;
    // Rounded to centavos; a number too long to hold (the fuzzer typed 300 digits) is no amount.
    let value = (value * multiplier * 100.0).round() / 100.0;
    value.is_finite().then_some(value)
}

/// A percentage when the text says so ("30%", "30 por cento").
pub fn percent(text: &str) -> Option<f64> {
    let lower = text.to_lowercase();
    if !(lower.contains('%') || lower.contains("por cento") || lower.contains("percent")) {
        return None;
    }
    amount(&lower.replace('%', " ")).filter(|v| (0.0..=100.0).contains(v))
}

/// A whole count ("3", "três pessoas").
pub fn count(text: &str) -> Option<i32> {
    let lower = text.to_lowercase();
    const WORDS: [(&str, i32); 11] = [
        ("sozinho", 1),
        ("sozinha", 1),
        ("só eu", 1),
        ("just me", 1),
        ("um ", 1),
        ("uma ", 1),
        ("dois", 2),
        ("duas", 2),
        ("três", 3),
        ("tres", 3),
        ("quatro", 4),
    ];
    if let Some(n) = amount(&lower) {
        return (0.0..1e7).contains(&n).then_some(n.round() as i32);
    }
    WORDS.iter().find(|(w, _)| format!("{lower} ").contains(w)).map(|(_, n)| *n)
}

/// Items of a list typed with commas, semicolons, line breaks or a final "e"/"and".
pub fn list(text: &str) -> Vec<String> {
    text.replace(" e ", ",")
        .replace(" and ", ",")
        .split([',', ';', '\n'])
        .map(|s| s.trim().trim_end_matches('.').to_owned())
        .filter(|s| !s.is_empty())
        .take(20)
        .map(|s| s.chars().take(80).collect())
        .collect()
}

/// True for "sim"/"yes"-like answers, false for "não"/"no", None otherwise.
pub fn yes_no(text: &str) -> Option<bool> {
    let lower = text.trim().to_lowercase();
    let first = lower.split(|c: char| !c.is_alphanumeric() && c != 'ã').next().unwrap_or_default();
    match first {
        "sim" | "s" | "yes" | "y" | "tenho" | "já" | "ja" | "claro" | "yep" => Some(true),
        "não" | "nao" | "n" | "no" | "nope" | "ainda" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_too_long_to_hold_is_no_amount_rather_than_infinity() {
        let digits = "6".repeat(308);
        assert_eq!(amount(&digits), None);
        assert_eq!(amount(&format!("{digits} mil")), None);
        assert_eq!(percent(&format!("{digits}%")), None);
    }

    #[test]
    fn amounts_are_read_the_brazilian_way() {
        assert_eq!(amount("R$ 1.500,00"), Some(1500.0));
        assert_eq!(amount("1500"), Some(1500.0));
        assert_eq!(amount("1,5 mil"), Some(1500.0));
        assert_eq!(amount("uns 50 mil reais"), Some(50_000.0));
        assert_eq!(amount("10k"), Some(10_000.0));
        assert_eq!(amount("R$ 12.345,67"), Some(12_345.67));
        assert_eq!(amount("25,90"), Some(25.9));
        assert_eq!(amount("1.234.567"), Some(1_234_567.0));
        assert_eq!(amount("2 milhões"), Some(2_000_000.0));
        assert_eq!(amount("12.5"), Some(12.5));
        assert_eq!(amount("não sei"), None);
    }

    #[test]
    fn percentages_need_their_sign() {
        assert_eq!(percent("uns 30%"), Some(30.0));
        assert_eq!(percent("40 por cento"), Some(40.0));
        assert_eq!(percent("30"), None);
    }

    #[test]
    fn counts_lists_and_yes_no_are_understood() {
        assert_eq!(count("3 pessoas"), Some(3));
        assert_eq!(count("só eu"), Some(1));
        assert_eq!(count("duas"), Some(2));
        assert_eq!(list("Instagram, iFood e indicação"), ["Instagram", "iFood", "indicação"]);
        assert_eq!(yes_no("Sim, já tenho"), Some(true));
        assert_eq!(yes_no("não"), Some(false));
        assert_eq!(yes_no("talvez"), None);
    }

    #[test]
    fn amount_parsing_never_panics() {
        for text in ["", ",", ".", "R$", "1,,2", "..5", "9999999999999999999999999", "k", "mil", "1.2.3,4,5"]
        {
            let _ = amount(text);
            let _ = percent(text);
            let _ = count(text);
        }
    }
}
