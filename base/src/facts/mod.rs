//! Dated, sourced facts about Brazilian small business (MEI, Simples Nacional, legal forms,
//! licences, where to get help, payments, the tax reform), read from one data file in the
//! repository (`base/data/business-facts.json`, embedded at build time): the model looks them up
//! with its `lookup_business_facts` tool, the offline guide's tips quote them, and each carries the
//! date its source shows and the source itself, so every figure can be quoted "as of" a date. A
//! change in the law is a change in that file — or, without a build, in a file of the same format
//! named by `SOCIO_FACTS_FILE`, installed at start ([`install`]) after the same checks the built-in
//! file passes ([`validate`]). Values valid for a period (the MEI's DAS of a year, the ceiling, the
//! Simples' annexes, Lucro Presumido's rates) carry `validFrom`/`validUntil` and are chosen by the date computed for; past the last one, the last
//! value is still used and said to be stale ([`Validity`]), never silently.

use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{Value as Json, json};

use crate::locale::Language;

const DATA: &str = include_str!("../../data/business-facts.json");

#[derive(Clone, Debug, Deserialize)]
pub struct Fact {
    pub id: String,
    pub topic: String,
    pub pt: String,
    pub en: String,
    /// The date the source shows (YYYY, YYYY-MM or YYYY-MM-DD), or when we last checked it.
    #[serde(rename = "asOf")]
    pub as_of: String,
    /// True when the source shows no date and `as_of` is when we checked it.
    #[serde(default)]
    pub checked: bool,
    pub source: String,
    /// The period the value holds (YYYY-MM-DD), when it holds for one.
    #[serde(rename = "validFrom", default)]
    pub valid_from: Option<String>,
    #[serde(rename = "validUntil", default)]
    pub valid_until: Option<String>,
    /// What to say once the period ended and no newer value was published.
    #[serde(default)]
    pub stale: Option<Words>,
    /// The fact that speaks for this one once its period ends (`mei.das` → `mei.das_2027`).
    #[serde(rename = "supersededBy", default)]
    pub superseded_by: Option<String>,
}

/// Words in both languages.
#[derive(Clone, Debug, Deserialize)]
pub struct Words {
    pub pt: String,
    pub en: String,
}

/// Whether a dated value holds on a day.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Validity {
    Current,
    /// Its period ended on `until` and nothing newer is published: still used, said so.
    Expired {
        until: String,
    },
    /// Its period starts later.
    Upcoming,
}

impl Validity {
    pub fn of(valid_from: Option<&str>, valid_until: Option<&str>, day: &str) -> Self {
        match (valid_from, valid_until) {
            (Some(from), _) if day < from => Validity::Upcoming,
            (_, Some(until)) if day > until => Validity::Expired { until: until.to_owned() },
            _ => Validity::Current,
        }
    }

    pub fn key(&self) -> &'static str {
        match self {
            Validity::Current => "current",
            Validity::Expired { .. } => "expired",
            Validity::Upcoming => "upcoming",
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct Facts {
    topics: Vec<String>,
    facts: Vec<Fact>,
    calendar: Calendar,
    taxes: Taxes,
}

mod tables;
#[cfg(test)]
mod tests;
mod validate;

pub use tables::*;
pub use validate::validate;

/// The facts in use: a file installed at start, else the built-in one.
static FACTS: OnceLock<Facts> = OnceLock::new();

fn facts() -> &'static Facts {
    FACTS.get_or_init(|| serde_json::from_str(DATA).expect("base/data/business-facts.json is valid (tested)"))
}

/// Reads, checks and installs the facts file `path` in place of the built-in one, before anything
/// reads a fact (`socio serve` does it first, from `SOCIO_FACTS_FILE`). The error names the file and
/// what is wrong with it.
pub fn install(path: &std::path::Path) -> Result<(), String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("SOCIO_FACTS_FILE {shown}: cannot be read: {e}"))?;
    let parsed: Facts = serde_json::from_str(&text)
        .map_err(|e| format!("SOCIO_FACTS_FILE {shown}: not a facts file: {e}"))?;
    validate(&parsed).map_err(|problem| format!("SOCIO_FACTS_FILE {shown}: {problem}"))?;
    FACTS
        .set(parsed)
        .map_err(|_| format!("SOCIO_FACTS_FILE {shown}: the facts were already in use; set it before start"))
}

/// Every dated fact and table that does not hold on `day` (YYYY-MM-DD): what the admin's list, the
/// metrics and the daily warning show.
pub fn expired_on(day: &str) -> Vec<String> {
    let facts = all().iter().filter(|f| f.status(day) == "expired");
    let mut names: Vec<String> = facts.map(|f| f.id.clone()).collect();
    let tables = tables(day).into_iter().filter(|t| matches!(t.validity, Validity::Expired { .. }));
    names.extend(tables.map(|t| t.id.to_owned()));
    names
}

/// Every dated table as it stands on `day` (YYYY-MM-DD).
pub fn tables(day: &str) -> Vec<TableStatus> {
    tables_on(taxes(), calendar(), day)
}

/// The topics the facts are filed under (the tool's choices).
pub fn topics() -> &'static [String] {
    &facts().topics
}

pub fn all() -> &'static [Fact] {
    &facts().facts
}

/// The tax tables.
pub fn taxes() -> &'static Taxes {
    &facts().taxes
}

/// The reminders' dates and figures.
pub fn calendar() -> &'static Calendar {
    &facts().calendar
}

/// The fact that speaks for `id` on `day`: itself, or once its period ended, the newer fact that
/// supersedes it (when that one has started).
pub fn on(id: &str, day: &str) -> &'static Fact {
    let mut fact = get(id);
    while let (Validity::Expired { .. }, Some(next)) = (fact.validity(day), fact.superseded_by.as_deref()) {
        let newer = get(next);
        if newer.validity(day) == Validity::Upcoming {
            break;
        }
        fact = newer;
    }
    fact
}

/// The fact with this id. The guide names facts by id; a test checks that they all exist.
pub fn get(id: &str) -> &'static Fact {
    all().iter().find(|f| f.id == id).unwrap_or_else(|| panic!("no business fact {id:?} (tested)"))
}

impl Fact {
    pub fn text(&self, lang: Language) -> &str {
        crate::words::of_data(lang, &self.pt, &self.en)
    }

    /// Whether it holds on `day` (YYYY-MM-DD).
    pub fn validity(&self, day: &str) -> Validity {
        Validity::of(self.valid_from.as_deref(), self.valid_until.as_deref(), day)
    }

    /// current, expired or upcoming on `day`; superseded once its period ended and the fact that
    /// supersedes it has started (not stale: the newer one speaks).
    pub fn status(&self, day: &str) -> &'static str {
        match (self.validity(day), self.superseded_by.as_deref()) {
            (Validity::Expired { .. }, Some(next)) if get(next).validity(day) != Validity::Upcoming => {
                "superseded"
            }
            (validity, _) => validity.key(),
        }
    }

    /// Its words on `day`: past its period, with what it says once stale.
    pub fn text_on(&self, day: &str, lang: Language) -> String {
        match (self.validity(day), &self.stale) {
            (Validity::Expired { .. }, Some(stale)) => {
                format!("{} ⚠️ {}", self.text(lang), crate::words::of_data(lang, &stale.pt, &stale.en))
            }
            (Validity::Expired { until }, None) => {
                format!("{} ⚠️ {}", self.text(lang), say!(lang, "facts-valid-until-no-newer-value", until))
            }
            _ => self.text(lang).to_owned(),
        }
    }

    /// The date as people read it: "17/03/2026" (2026-03-17 in English), "março de 2026", "2025".
    pub fn date(&self, lang: Language) -> String {
        let parts: Vec<&str> = self.as_of.split('-').collect();
        match parts.as_slice() {
            [_, _, _] => crate::clock::CivilDate::parse_iso(&self.as_of)
                .map_or_else(|| self.as_of.clone(), |day| day.written_in(lang)),
            [year, m] => match m.parse::<i64>().ok().and_then(|m| crate::clock::month_name(m, lang)) {
                Some(month) => say!(lang, "facts-month-of-year", month, year),
                None => (*year).to_owned(),
            },
            _ => self.as_of.clone(),
        }
    }

    /// "(fonte: …, março de 2026)": how a tip or an answer cites it.
    pub fn citation(&self, lang: Language) -> String {
        let when = self.date(lang);
        // A source that already names its date ("Congresso em Foco, 17/03/2026") is not dated twice.
        if !self.checked && self.source.contains(&when) {
            return say!(lang, "facts-source", source = self.source);
        }
        say!(lang, "facts-source-of", source = self.source, when, checked = self.checked)
    }
}

/// The `lookup_business_facts` tool's answer: the topic's facts with their dates and sources, and
/// how to quote them.
pub fn lookup(topic: &str, lang: Language, day: &str) -> Json {
    let found: Vec<Json> = all()
        .iter()
        .filter(|f| f.topic == topic)
        .map(|f| {
            json!({"id": f.id, "fact": f.text_on(day, lang), "asOf": f.as_of, "source": f.source,
                   "status": f.status(day)})
        })
        .collect();
    if found.is_empty() {
        return json!({"error": format!("unknown topic {topic:?}; one of: {}", topics().join(", "))});
    }
    json!({
        "topic": topic,
        "facts": found,
        "howToQuote": "Quote every tax, legal or monetary figure with its date (\"em 2026\", \"valores de março de 2026\"); a fact whose status is expired is the latest published value: say its year and that the newer one is not published yet. Say that values change and that this is educational guidance — for decisions, an accountant or Sebrae."
    })
}
