//! The model's reply checked before anyone reads it. Every money amount, percentage and date it
//! writes must be one the conversation holds — the owner wrote it, the plan or the months recorded
//! hold it (given to the model as data), a tool returned it this turn — or the facts in force give
//! it, within rounding and in any Brazilian or English spelling ("R$ 1.741,00", "R$1,741", "1741",
//! "R$ 18 mil"; "4,5 %", a share of 0,045; "31/12/2026", "2026-12-31"). A reply that repeats
//! itself, or is not in the person's language, fails too. The engine asks once again with the
//! figures named, then answers with the offline guide.

use std::sync::LazyLock;

use regex::Regex;

use crate::locale::Language;

/// What the check found in a reply.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every figure has a source; in the person's language; no loop.
    Sound,
    /// These figures (as the reply wrote them) come from nowhere the conversation shows.
    Unfounded(Vec<String>),
    /// The same words again and again.
    Loops,
    /// Written in another language than the person's.
    OtherLanguage,
}

/// A figure as a reply writes it: what kind, its value, and its spelling.
#[derive(Clone, Debug, PartialEq)]
struct Figure {
    kind: Kind,
    value: f64,
    written: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Money,
    Percent,
    /// A day, as days since 1970.
    Date,
}

static MONEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"R\$\s?(\d[\d.,]*\d|\d)(\s?(mil|milhão|milhões|milhao|milhoes|thousand|million)\b)?").unwrap()
});
static PERCENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(\d[\d.,]*\d|\d)\s?%").unwrap());
static DAY_MONTH_YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b").unwrap());
static ISO_DAY: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b(\d{4})-(\d{2})-(\d{2})\b").unwrap());
static NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d[\d.,]*\d|\d").unwrap());

/// Checks `reply` against what the conversation holds (`sources`: every text the model was given
/// or a tool returned, the facts in force included), for a person who speaks `lang`.
pub fn check(reply: &str, sources: &[&str], lang: Language) -> Verdict {
    if loops(reply) {
        return Verdict::Loops;
    }
    if Language::guess_from_text(reply).is_some_and(|written| written != lang) {
        return Verdict::OtherLanguage;
    }
    let known = Known::from(sources);
    let unfounded: Vec<String> =
        figures(reply).into_iter().filter(|f| !known.holds(f)).map(|f| f.written).collect();
    if unfounded.is_empty() { Verdict::Sound } else { Verdict::Unfounded(unfounded) }
}

/// What the model is told when its reply wrote figures from nowhere (it reads English; the person
/// never sees it).
pub fn correction(written: &[String]) -> String {
    format!(
        "Your last reply wrote {}, which no message, plan data, tool result or fact of this conversation \
         gives. Write the reply again using only figures from those (call a tool to compute one), or \
         without the figure.",
        written.join(", ")
    )
}

/// A number as Brazilians or the English write it: "1.234,56", "1,234.56", "18.000", "82,05",
/// "4.5". A lone separator followed by three digits groups thousands; otherwise it is the decimal.
fn read_number(text: &str) -> Option<f64> {
    let decimal = match (text.rfind(','), text.rfind('.')) {
        (Some(comma), Some(dot)) => Some(comma.max(dot)),
        (Some(at), None) | (None, Some(at)) => {
            let several = text.matches(&text[at..=at]).count() > 1;
            // "18.000", "1.234.567", "1,234": groups of three; "82,05", "4.5": the decimal.
            (!several && text.len() - at - 1 != 3).then_some(at)
        }
        (None, None) => None,
    };
    let digits: String = text
        .char_indices()
        .filter_map(|(i, c)| match c {
            '0'..='9' => Some(c),
            _ if Some(i) == decimal => Some('.'),
            _ => None,
        })
        .collect();
    digits.parse().ok()
}

/// The money amounts, percentages and dates a text writes.
fn figures(text: &str) -> Vec<Figure> {
    let mut found = Vec::new();
    for caps in MONEY.captures_iter(text) {
        let Some(mut value) = read_number(&caps[1]) else { continue };
        value *= match caps.get(3).map(|m| m.as_str()) {
            Some("mil" | "thousand") => 1_000.0,
            Some(_) => 1_000_000.0,
            None => 1.0,
        };
        found.push(Figure { kind: Kind::Money, value, written: caps[0].to_owned() });
    }
    for caps in PERCENT.captures_iter(text) {
        if let Some(value) = read_number(&caps[1]) {
            found.push(Figure { kind: Kind::Percent, value, written: caps[0].to_owned() });
        }
    }
    found.extend(days(text).into_iter().map(|(value, written)| Figure { kind: Kind::Date, value, written }));
    found
}

/// The dates a text writes, as days since 1970, with their spelling.
fn days(text: &str) -> Vec<(f64, String)> {
    let day = |y: &str, m: &str, d: &str| -> Option<f64> {
        let (year, month, day) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
        ((1..=12).contains(&month) && (1..=31).contains(&day))
            .then(|| crate::clock::CivilDate { year, month, day }.days() as f64)
    };
    let mut found = Vec::new();
    for caps in DAY_MONTH_YEAR.captures_iter(text) {
        if let Some(v) = day(&caps[3], &caps[2], &caps[1]) {
            found.push((v, caps[0].to_owned()));
        }
    }
    for caps in ISO_DAY.captures_iter(text) {
        if let Some(v) = day(&caps[1], &caps[2], &caps[3]) {
            found.push((v, caps[0].to_owned()));
        }
    }
    found
}

/// What the conversation holds: every number it writes (in any spelling) and every date.
struct Known {
    numbers: Vec<f64>,
    days: Vec<f64>,
}

impl Known {
    fn from(sources: &[&str]) -> Self {
        let mut numbers = Vec::new();
        let mut days_found = Vec::new();
        for text in sources {
            for m in NUMBER.find_iter(text) {
                let Some(n) = read_number(m.as_str()) else { continue };
                numbers.push(n);
                // "18 mil" in the owner's words is 18.000; "R$ 4,8 milhões" in a fact, 4.800.000.
                let after = text[m.end()..].trim_start();
                if after.starts_with("milh") || after.starts_with("million") {
                    numbers.push(n * 1_000_000.0);
                } else if after.starts_with("mil") || after.starts_with("thousand") {
                    numbers.push(n * 1_000.0);
                }
            }
            days_found.extend(days(text).into_iter().map(|(v, _)| v));
        }
        Self { numbers, days: days_found }
    }

    /// Whether a figure is one the conversation holds, within rounding; a percentage also as the
    /// share it is (0,045 for 4,5 %).
    fn holds(&self, figure: &Figure) -> bool {
        match figure.kind {
            Kind::Date => self.days.contains(&figure.value),
            Kind::Money => self.numbers.iter().any(|n| rounds_to(figure.value, *n)),
            Kind::Percent => {
                self.numbers.iter().any(|n| rounds_to(figure.value, *n) || rounds_to(figure.value, n * 100.0))
            }
        }
    }
}

/// Whether `written` is `value` as a person rounds it: to the centavo, to one decimal or to a
/// whole number — never nearer than that ("R$ 10.550" is not R$ 10.500).
fn rounds_to(written: f64, value: f64) -> bool {
    let to = |places: i32| (value * 10f64.powi(places)).round() / 10f64.powi(places);
    (written - value).abs() < 0.005 + 1e-9 || [to(2), to(1), to(0)].iter().any(|r| (written - r).abs() < 1e-9)
}

/// The same sentence three times or more, or the same eight words three times or more.
fn loops(reply: &str) -> bool {
    let folded = reply.to_lowercase();
    let sentences =
        folded.split(['.', '!', '?', '\n']).map(str::trim).filter(|s| s.split_whitespace().count() >= 3);
    let words: Vec<&str> = folded.split_whitespace().collect();
    let windows = words.windows(8).map(|w| w.join(" "));
    thrice(sentences.map(str::to_owned)) || thrice(windows)
}

/// Whether any item comes three times or more.
fn thrice(items: impl Iterator<Item = String>) -> bool {
    let mut counts = std::collections::HashMap::new();
    items.into_iter().any(|item| {
        let n = counts.entry(item).or_insert(0);
        *n += 1;
        *n >= 3
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a MEI baker's conversation gives the model: her plan's figures as data, the facts'
    /// DAS for commerce in 2026 (R$ 82,05: 5 % of the R$ 1.621 minimum wage + R$ 1 of ICMS), a
    /// tool's result with a share and a date.
    const PLAN: &str =
        r#"{"averageTicket": 35, "monthlyRevenue": 10500.0, "cardFeePercent": 4.5, "fatorR": 0.26666}"#;
    const FACT: &str = "O DAS do MEI de comércio é R$ 82,05 por mês em 2026.";
    const TOOL: &str = r#"{"reportBy": "2026-12-31", "monthlyFixedCosts": "18 mil"}"#;

    fn checked(reply: &str) -> Verdict {
        check(reply, &[PLAN, FACT, TOOL], Language::PtBr)
    }

    #[test]
    fn numbers_are_read_in_brazilian_and_english_spellings() {
        for (written, value) in [
            ("1.234,56", 1234.56),
            ("1,234.56", 1234.56),
            ("18.000", 18000.0),
            ("1.234.567", 1_234_567.0),
            ("82,05", 82.05),
            ("4.5", 4.5),
            ("35", 35.0),
        ] {
            assert_eq!(read_number(written), Some(value), "{written}");
        }
    }

    #[test]
    fn a_reply_whose_figures_the_conversation_gives_is_sound_in_any_spelling_and_rounding() {
        assert_eq!(
            checked(
                "Com ticket de R$ 35 e R$ 10.500,00 por mês, o seu DAS é de R$ 82,05 e a maquininha leva 4,5 %."
            ),
            Verdict::Sound
        );
        assert_eq!(checked("Faturando R$10,500.00 por mês, a maquininha leva 4.5%."), Verdict::Sound);
        assert_eq!(
            checked("O seu Fator R é de 26,67 % (quase 27 %), e os custos fixos, R$ 18.000."),
            Verdict::Sound
        );
        assert_eq!(checked("Comunique até 31/12/2026; os custos fixos são R$ 18 mil."), Verdict::Sound);
        assert_eq!(checked("Sem números, só uma ideia: venda encomendas para festas."), Verdict::Sound);
        let simples = "O Simples Nacional vale até R$ 4,8 milhões de faturamento por ano.";
        assert_eq!(
            check("Você pode faturar até R$ 4,8 milhões por ano no Simples.", &[simples], Language::PtBr),
            Verdict::Sound
        );
    }

    #[test]
    fn a_figure_from_nowhere_is_named_as_the_reply_wrote_it() {
        assert_eq!(
            checked("O seu DAS é R$ 99,90 por mês e a sua margem deve ser 7 %."),
            Verdict::Unfounded(vec!["R$ 99,90".into(), "7 %".into()])
        );
        assert_eq!(checked("Comunique até 30/11/2026."), Verdict::Unfounded(vec!["30/11/2026".into()]));
        // A sum the model worked out itself is not one a tool returned.
        assert_eq!(
            checked("R$ 35 vezes 300 dá R$ 10.550,00."),
            Verdict::Unfounded(vec!["R$ 10.550,00".into()])
        );
    }

    #[test]
    fn a_reply_that_repeats_itself_or_is_in_another_language_fails() {
        assert_eq!(checked("Qual é a sua margem? Qual é a sua margem? Qual é a sua margem?"), Verdict::Loops);
        assert_eq!(
            checked("Hello! Your business plan is great and you can start with your first customers now."),
            Verdict::OtherLanguage
        );
        assert_eq!(
            check("Your plan is great and you can start now.", &[], Language::En),
            Verdict::Sound,
            "English is right for an English speaker"
        );
    }
}
