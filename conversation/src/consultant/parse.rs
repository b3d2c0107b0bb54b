//! Reading what people type on WhatsApp: amounts in reais the Brazilian way ("R$ 1.500,00",
//! "1500", "1,5 mil", "10k"), percentages ("30%"), whole counts ("3 pessoas"), lists ("Instagram,
//! iFood e indicação") and a few yes/no and choice words.

/// An amount in reais, or None when there is no number in the text. "mil" / "k" / "milhões" scale
/// only the number they follow ("R$ 18.000 por mês (2 mil pra cada irmã)" is 18.000); an average
/// said as such wins over the other numbers ("mão R$ 35, pé R$ 40, média R$ 55" is 55).
pub fn amount(text: &str) -> Option<f64> {
    let lower = text.to_lowercase().replace("r$", " ").replace("reais", " ").replace("real", " ");
    let average = ["em média", "em media", "média", "media", "average"]
        .iter()
        .filter_map(|w| lower.find(w).map(|at| at + w.len()))
        .min()
        .filter(|at| lower[*at..].chars().any(|c| c.is_ascii_digit()));
    number_at(&lower[average.unwrap_or(0)..])
}

/// The first number in `lower` (already lower-case, without "r$"), scaled by the word right after it.
fn number_at(lower: &str) -> Option<f64> {
    let start = lower.find(|c: char| c.is_ascii_digit())?;
    let number: String =
        lower[start..].chars().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',').collect();
    let after = lower[start + number.len()..].trim_start();
    let multiplier = if after.starts_with("milh") || after.starts_with("mi ") || after == "mi" {
        1_000_000.0
    } else if after.starts_with("mil") || after.starts_with('k') {
        1_000.0
    } else {
        1.0
    };
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

/// A cost per sale said as reais plus a share of the price ("R$ 6 de material, mais 3% da
/// maquininha"): (reais, percent), either absent.
pub fn cost_per_sale(text: &str) -> (Option<f64>, Option<f64>) {
    let lower = text.to_lowercase();
    let percent_at = lower.find('%').or_else(|| lower.find("por cento"));
    let Some(percent_at) = percent_at else { return (amount(&lower), None) };
    // The percentage is the number just before its sign; an amount is another number.
    let before = &lower[..percent_at];
    let digits_start = before
        .rfind(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.' || c == ' '))
        .map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8));
    let percent = amount(&before[digits_start..]).filter(|p| (0.0..=100.0).contains(p));
    let rest = format!("{} {}", &lower[..digits_start], &lower[percent_at + 1..]);
    let reais = rest.contains(|c: char| c.is_ascii_digit()).then(|| amount(&rest)).flatten();
    (reais, percent)
}

/// How often a count is said: "6 clientes por dia" is per day, "30 por semana" per week.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Per {
    Day,
    Week,
    Month,
}

/// A count with how often it happens ("6 por dia", "30 por semana", "800 por mês"; a plain number
/// is a month's).
pub fn rate(text: &str) -> Option<(f64, Per)> {
    let lower = text.to_lowercase();
    let value = amount(&lower)?;
    let per = if ["por dia", "ao dia", "/dia", "diári", "diari", "a day", "per day", "daily"]
        .iter()
        .any(|w| lower.contains(w))
    {
        Per::Day
    } else if ["por semana", "na semana", "/semana", "semanal", "a week", "per week", "weekly"]
        .iter()
        .any(|w| lower.contains(w))
    {
        Per::Week
    } else {
        Per::Month
    };
    Some((value, per))
}

/// Days worked a week, when the text says: "de terça a sábado" is 5, "5 dias por semana" is 5,
/// "todo dia" is 7.
pub fn days_a_week(text: &str) -> Option<f64> {
    let lower = text.to_lowercase();
    const DAYS: [(&str, i32); 14] = [
        ("segunda", 1),
        ("terça", 2),
        ("terca", 2),
        ("quarta", 3),
        ("quinta", 4),
        ("sexta", 5),
        ("sábado", 6),
        ("sabado", 6),
        ("domingo", 7),
        ("monday", 1),
        ("tuesday", 2),
        ("friday", 5),
        ("saturday", 6),
        ("sunday", 7),
    ];
    let mut named: Vec<(usize, i32)> =
        DAYS.iter().filter_map(|(w, d)| lower.find(w).map(|at| (at, *d))).collect();
    named.sort();
    named.dedup_by_key(|(_, d)| *d);
    if let [(_, from), (_, to)] = named.as_slice()
        && (lower.contains(" a ") || lower.contains(" to ") || lower.contains('-'))
    {
        return Some(f64::from((to - from).rem_euclid(7) + 1));
    }
    if ["todo dia", "todos os dias", "every day"].iter().any(|w| lower.contains(w)) {
        return Some(7.0);
    }
    let at = lower
        .find("dias por semana")
        .or_else(|| lower.find("dias na semana"))
        .or_else(|| lower.find("days a week"))?;
    amount(lower[..at].rsplit(|c: char| !c.is_ascii_digit()).find(|w| !w.is_empty())?)
        .filter(|d| (1.0..=7.0).contains(d))
}

/// Weeks in a month, on average (52 ÷ 12).
pub const WEEKS_A_MONTH: f64 = 52.0 / 12.0;

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

/// Words by which the owner counts themself.
const OWNER: &[&str] = &["eu", "sozinho", "sozinha", "comigo", "i", "me", "myself"];

/// People an owner works with, one each (folded: no accents); a plural counts two unless counted.
const SINGULAR: &[&str] = &[
    "filha",
    "filho",
    "esposa",
    "marido",
    "mulher",
    "mae",
    "pai",
    "irma",
    "irmao",
    "sobrinha",
    "sobrinho",
    "prima",
    "primo",
    "amiga",
    "amigo",
    "socia",
    "socio",
    "ajudante",
    "funcionaria",
    "funcionario",
    "atendente",
    "cozinheira",
    "cozinheiro",
    "vendedora",
    "vendedor",
    "entregadora",
    "entregador",
    "auxiliar",
    "assistente",
    "confeiteira",
    "confeiteiro",
    "padeira",
    "padeiro",
    "costureira",
    "manicure",
    "cabeleireira",
    "cabeleireiro",
    "garcom",
    "garconete",
    "estagiaria",
    "estagiario",
    "pessoa",
    "colaborador",
    "colaboradora",
    "daughter",
    "son",
    "wife",
    "husband",
    "partner",
    "employee",
    "helper",
    "assistant",
    "person",
    "friend",
    "mother",
    "father",
    "sister",
    "brother",
];

/// A count said before a noun: "duas", "3" (up to 999).
fn quantity(word: &str) -> Option<i32> {
    match word {
        "um" | "uma" | "an" | "one" => Some(1),
        "dois" | "duas" | "two" => Some(2),
        "tres" | "three" => Some(3),
        "quatro" | "four" => Some(4),
        "cinco" | "five" => Some(5),
        "seis" | "six" => Some(6),
        digits => digits.parse::<i32>().ok().filter(|n| (1..1000).contains(n)),
    }
}

/// How many people an answer names, counting the owner ("sou eu e minha filha; quero contratar uma
/// ajudante" → 3, "eu e 2 funcionários" → 3, "duas pessoas" → 2); None when it names nobody.
pub fn people(text: &str) -> Option<i32> {
    let folded = crate::identity::search::fold(text);
    let tokens: Vec<&str> = folded.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).collect();
    let mut owner = 0;
    let mut others = 0;
    let mut named = false;
    for (i, token) in tokens.iter().enumerate() {
        if OWNER.contains(token) {
            (owner, named) = (1, true);
            continue;
        }
        let plural_of = |suffix: &str| token.strip_suffix(suffix).filter(|t| SINGULAR.contains(t));
        let (noun, plural) = match plural_of("es").or_else(|| plural_of("s")) {
            Some(noun) => (noun, true),
            None if SINGULAR.contains(token) => (*token, false),
            None => continue,
        };
        named = true;
        // The quantity just before the noun ("dois funcionários", "mais 2 ajudantes").
        let counted = i.checked_sub(1).and_then(|j| quantity(tokens[j]));
        if matches!(noun, "pessoa" | "person") && counted.is_some() {
            // "3 pessoas (contando comigo)": a total.
            return counted;
        }
        others += counted.unwrap_or(if plural { 2 } else { 1 });
    }
    named.then_some(owner + others)
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
    fn a_team_counts_the_people_named_the_owner_included() {
        assert_eq!(people("sou eu e minha filha; quero contratar uma ajudante"), Some(3));
        assert_eq!(people("eu e mais 2 funcionários"), Some(3));
        assert_eq!(people("Só eu"), Some(1));
        assert_eq!(people("duas pessoas"), Some(2));
        assert_eq!(people("3 pessoas, contando comigo"), Some(3));
        assert_eq!(people("eu, meu marido e meus filhos"), Some(4));
        assert_eq!(people("me and my wife"), Some(2));
        assert_eq!(people("4"), None, "a bare number is left to count()");
    }

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

    /// Sentences a Brazilian accountant typed playing two owners (issue 30).
    #[test]
    fn mil_scales_only_its_own_number_and_an_average_wins() {
        assert_eq!(amount("R$ 18.000 por mês… (2 mil pra cada irmã)"), Some(18_000.0));
        assert_eq!(amount("uns 2 mil, mais ou menos"), Some(2_000.0));
        assert_eq!(amount("Mão R$ 35, pé R$ 40, média R$ 55"), Some(55.0));
        assert_eq!(amount("em média 55 reais"), Some(55.0));
        assert_eq!(amount("1,2 milhão"), Some(1_200_000.0));
    }

    #[test]
    fn a_cost_per_sale_can_be_reais_plus_a_share_of_the_price() {
        assert_eq!(cost_per_sale("R$ 6 de material, mais 3% da maquininha"), (Some(6.0), Some(3.0)));
        assert_eq!(cost_per_sale("3% da maquininha e R$ 6 de material"), (Some(6.0), Some(3.0)));
        assert_eq!(cost_per_sale("uns 35%"), (None, Some(35.0)));
        assert_eq!(cost_per_sale("R$ 12,50"), (Some(12.5), None));
    }

    #[test]
    fn a_rate_per_day_or_week_is_told_apart_from_a_month_s_and_days_worked_are_read() {
        assert_eq!(rate("6 clientes por dia, de terça a sábado"), Some((6.0, Per::Day)));
        assert_eq!(rate("uns 30 por semana"), Some((30.0, Per::Week)));
        assert_eq!(rate("800"), Some((800.0, Per::Month)));
        assert_eq!(days_a_week("6 clientes por dia, de terça a sábado"), Some(5.0));
        assert_eq!(days_a_week("de segunda a sexta"), Some(5.0));
        assert_eq!(days_a_week("trabalho 6 dias por semana"), Some(6.0));
        assert_eq!(days_a_week("todos os dias"), Some(7.0));
        assert_eq!(days_a_week("6 clientes por dia"), None);
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
