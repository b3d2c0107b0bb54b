//! Money: the plan's finance maths, its taxes, prices and the figures worth a second look, over
//! reais as each language writes them — `R$ 12.345,67` (with a non-breaking space) in Portuguese,
//! `R$12,345.67` in English, always BRL.
//!
//! This room reads the plan itself (its sections and store) and never the tracking of months or the
//! document, which read it.

pub mod checks;
pub mod finance;
pub mod pricing;
pub mod reform_choice;
pub mod taxes;

use crate::locale::Language;

pub fn format_brl(amount: f64, lang: Language) -> String {
    let negative = amount < 0.0;
    let cents = (amount.abs() * 100.0).round() as u64;
    let (whole, frac) = (cents / 100, cents % 100);
    let digits = whole.to_string();
    let (group, decimal) = lang.separators();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(group);
        }
        grouped.push(c);
    }
    let sign = if negative { "-" } else { "" };
    // Brazilians put a (non-breaking) space after the symbol; English writes "R$1,234.56".
    let space = match lang {
        Language::PtBr => "\u{a0}",
        Language::En => "",
    };
    format!("{sign}R${space}{grouped}{decimal}{frac:02}")
}

/// An amount rounded to centavos, as data holds reais (R$ 21.000 − R$ 23.668,45 is −2.668,45, not
/// −2668.4500000000007).
pub fn cents(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// A plain number with the language's separators — thousands grouped — and `digits` decimals:
/// "1.200", "12,5" ("1,200", "12.5" in English).
pub fn format_number(value: f64, digits: usize, lang: Language) -> String {
    let text = format!("{:.digits$}", value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let (group, decimal) = lang.separators();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(group);
        }
        grouped.push(c);
    }
    let sign = if value < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') { "-" } else { "" };
    if fraction.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}{decimal}{fraction}")
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

    #[test]
    fn plain_numbers_group_thousands_the_way_each_language_does() {
        assert_eq!(format_number(1200.0, 0, Language::PtBr), "1.200");
        assert_eq!(format_number(1800.0, 0, Language::En), "1,800");
        assert_eq!(format_number(12.55, 1, Language::PtBr), "12,6");
        assert_eq!(format_number(1234567.891, 2, Language::PtBr), "1.234.567,89");
        assert_eq!(format_number(-1500.0, 0, Language::PtBr), "-1.500");
        assert_eq!(format_number(-0.01, 0, Language::PtBr), "0");
    }
}
