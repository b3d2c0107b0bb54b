//! Reais as each language writes them: `R$ 12.345,67` (with a non-breaking space) in Portuguese,
//! `R$12,345.67` in English. Always BRL.

use crate::locale::Language;

pub fn format_brl(amount: f64, lang: Language) -> String {
    let negative = amount < 0.0;
    let cents = (amount.abs() * 100.0).round() as u64;
    let (whole, frac) = (cents / 100, cents % 100);
    let digits = whole.to_string();
    let (group, decimal) = lang.choose(('.', ','), (',', '.'));
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(group);
        }
        grouped.push(c);
    }
    let sign = if negative { "-" } else { "" };
    lang.choose(
        format!("{sign}R$\u{a0}{grouped}{decimal}{frac:02}"),
        format!("{sign}R${grouped}{decimal}{frac:02}"),
    )
}

/// An amount rounded to centavos, as data holds reais (R$ 21.000 − R$ 23.668,45 is −2.668,45, not
/// −2668.4500000000007).
pub fn cents(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// A plain number with the language's separators and `digits` decimals.
pub fn format_number(value: f64, digits: usize, lang: Language) -> String {
    let text = format!("{value:.digits$}");
    match lang {
        Language::PtBr => text.replace('.', ","),
        Language::En => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reais_are_written_the_way_each_language_writes_them() {
        assert_eq!(format_brl(12_345.678, Language::PtBr), "R$\u{a0}12.345,68");
        assert_eq!(format_brl(12_345.678, Language::En), "R$12,345.68");
        assert_eq!(format_brl(100.0, Language::PtBr), "R$\u{a0}100,00");
        assert_eq!(format_brl(-53_000.0, Language::PtBr), "-R$\u{a0}53.000,00");
        assert_eq!(format_brl(0.5, Language::En), "R$0.50");
    }
}
