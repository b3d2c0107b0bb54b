//! Dated, sourced facts about Brazilian small business (MEI, Simples Nacional, legal forms,
//! licences, where to get help, payments, the tax reform), read from one data file in the
//! repository (`server/data/business-facts.json`, embedded at build time): the model looks them up
//! with its `lookup_business_facts` tool, the offline guide's tips quote them, and each carries the
//! date its source shows and the source itself, so every figure can be quoted "as of" a date. A
//! change in the law is a change in that file.

use std::sync::LazyLock;

use serde::Deserialize;
use serde_json::{Value as Json, json};

use crate::locale::Language;

const DATA: &str = include_str!("../data/business-facts.json");

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
}

#[derive(Debug, Deserialize)]
struct Facts {
    topics: Vec<String>,
    facts: Vec<Fact>,
    calendar: Calendar,
    taxes: Taxes,
}

/// The tax tables of the plan's numbers (`plan::taxes`), beside the facts whose words they match.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Taxes {
    pub mei_das: MeiDas,
    pub simples: Simples,
    pub mei_ceiling: MeiCeiling,
    pub cnaes: Cnaes,
    pub lucro_presumido: LucroPresumido,
}

/// What a MEI past its yearly ceiling pays (LC 123/2006 art. 18-A).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeiCeiling {
    pub source: String,
    pub as_of: String,
    pub yearly: f64,
    /// Over by at most this share: the excess is taxed, the MEI ends next January.
    pub tolerance: f64,
    /// The Simples' first-bracket rates the excess pays, by activity.
    pub excess_rates: ActivityRates,
    pub note: String,
}

#[derive(Clone, Copy, Debug, Deserialize)]
pub struct ActivityRates {
    pub commerce: f64,
    pub industry: f64,
    pub services: f64,
}

/// CNAE subclasses (seven digits) and the Simples annex each is taxed in.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cnaes {
    pub source: String,
    pub as_of: String,
    pub table: std::collections::BTreeMap<String, CnaeEntry>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct CnaeEntry {
    pub name: String,
    /// I, II, III, IV, V, or fator_r (III with a Fator R of 28 % or more, else V).
    pub annex: String,
    /// The legal provision that places it.
    pub basis: String,
}

/// Lucro Presumido's federal rates and presumptions.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LucroPresumido {
    pub source: String,
    pub as_of: String,
    pub pis: f64,
    pub cofins: f64,
    pub irpj: f64,
    pub irpj_additional: f64,
    /// The IRPJ's additional falls on the presumed profit above this, a month.
    pub additional_above_monthly: f64,
    pub csll: f64,
    pub presumption: Presumptions,
    pub default_iss: f64,
    pub iss_range: (f64, f64),
    pub lc224: Lc224,
}

#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Presumptions {
    pub commerce: Presumption,
    pub industry: Presumption,
    pub services: Presumption,
}

#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Presumption {
    pub irpj: f64,
    pub csll: f64,
}

/// LC 224/2025: from `from` (YYYY-MM-DD), the presumptions are `factor` times higher on the
/// revenue above `above_yearly` a year.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lc224 {
    pub from: String,
    pub above_yearly: f64,
    pub factor: f64,
}

/// The MEI's monthly DAS by activity, valid through `valid_until` (`YYYY-MM-DD`).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeiDas {
    pub fact: String,
    pub valid_until: String,
    pub commerce: f64,
    pub industry: f64,
    pub services: f64,
    pub commerce_and_services: f64,
}

/// The Simples Nacional's annexes: per annex, brackets of (RBT12 up to, nominal rate, deduction).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Simples {
    pub fact: String,
    pub source: String,
    pub as_of: String,
    pub fator_r: FatorR,
    pub annex_iv_cpp: AnnexIvCpp,
    pub annexes: std::collections::BTreeMap<String, Vec<(f64, f64, f64)>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FatorR {
    pub fact: String,
    pub threshold: f64,
    /// FGTS on wages, the 13th and the vacation third, which the Fator R's payroll counts.
    pub fgts: f64,
    pub payroll_source: String,
}

/// Annex IV's CPP, paid outside the DAS on wages and pró-labore.
#[derive(Clone, Debug, Deserialize)]
pub struct AnnexIvCpp {
    pub rate: f64,
    pub source: String,
}

/// The dates and figures the reminders and the ceiling projection use, each beside the fact whose
/// words it matches (`plan::calendar` reads them; none is written in code).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Calendar {
    /// The MEI's monthly DAS.
    pub das: MonthlyDeadline,
    /// The MEI's yearly declaration (DASN-SIMEI).
    pub dasn: YearlyDeadline,
    /// The Simples Nacional company's yearly declaration (DEFIS).
    pub defis: YearlyDeadline,
    pub ceiling: Ceiling,
    pub holidays: Holidays,
}

/// Due on `due_day` of every month; reminded on `remind_day` (or the next business day).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MonthlyDeadline {
    pub fact: String,
    pub due_day: i64,
    pub remind_day: i64,
}

/// Due on `due_day` of `due_month` every year; reminded on `remind_day` of that month.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct YearlyDeadline {
    pub fact: String,
    pub due_month: i64,
    pub due_day: i64,
    pub remind_day: i64,
}

/// The MEI's yearly revenue ceiling, in reais, and the tolerance above it.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ceiling {
    pub fact: String,
    pub yearly: f64,
    /// In the year the MEI opens, per month of activity (the opening month counts whole).
    pub per_month_in_opening_year: f64,
    pub tolerance_fact: String,
    /// 0.2: up to 20 % over, the MEI stays until 31 December.
    pub tolerance: f64,
}

/// The national holidays: `MM-DD` every year, and Good Friday's dates (`YYYY-MM-DD`).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Holidays {
    pub fact: String,
    pub every_year: Vec<String>,
    pub good_friday: Vec<String>,
}

static FACTS: LazyLock<Facts> =
    LazyLock::new(|| serde_json::from_str(DATA).expect("server/data/business-facts.json is valid (tested)"));

/// The topics the facts are filed under (the tool's choices).
pub fn topics() -> &'static [String] {
    &FACTS.topics
}

pub fn all() -> &'static [Fact] {
    &FACTS.facts
}

/// The tax tables.
pub fn taxes() -> &'static Taxes {
    &FACTS.taxes
}

/// The reminders' dates and figures.
pub fn calendar() -> &'static Calendar {
    &FACTS.calendar
}

/// The fact with this id. The guide names facts by id; a test checks that they all exist.
pub fn get(id: &str) -> &'static Fact {
    all().iter().find(|f| f.id == id).unwrap_or_else(|| panic!("no business fact {id:?} (tested)"))
}

impl Fact {
    pub fn text(&self, lang: Language) -> &str {
        lang.choose(&self.pt, &self.en)
    }

    /// The date as people read it: "17/03/2026", "março de 2026", "2025".
    pub fn date(&self, lang: Language) -> String {
        let parts: Vec<&str> = self.as_of.split('-').collect();
        let month = |m: &str| m.parse::<i64>().ok().and_then(|m| crate::clock::month_name(m, lang));
        match parts.as_slice() {
            [year, m, day] => match lang {
                Language::PtBr => format!("{day}/{m}/{year}"),
                Language::En => format!("{} {} {year}", day.trim_start_matches('0'), month(m).unwrap_or("")),
            },
            [year, m] => match (lang, month(m)) {
                (Language::PtBr, Some(name)) => format!("{name} de {year}"),
                (Language::En, Some(name)) => format!("{name} {year}"),
                (_, None) => (*year).to_owned(),
            },
            _ => self.as_of.clone(),
        }
    }

    /// "(valores de março de 2026; fonte: …)": how a tip or an answer cites it.
    pub fn citation(&self, lang: Language) -> String {
        let when = self.date(lang);
        // A source that already names its date ("Congresso em Foco, 17/03/2026") is not dated twice.
        if !self.checked && self.source.contains(&when) {
            return lang.choose(format!("(fonte: {})", self.source), format!("(source: {})", self.source));
        }
        match (lang, self.checked) {
            (Language::PtBr, false) => format!("(fonte: {}, {when})", self.source),
            (Language::PtBr, true) => format!("(fonte: {}, conferido em {when})", self.source),
            (Language::En, false) => format!("(source: {}, {when})", self.source),
            (Language::En, true) => format!("(source: {}, checked {when})", self.source),
        }
    }
}

/// The `lookup_business_facts` tool's answer: the topic's facts with their dates and sources, and
/// how to quote them.
pub fn lookup(topic: &str, lang: Language) -> Json {
    let found: Vec<Json> = all()
        .iter()
        .filter(|f| f.topic == topic)
        .map(|f| json!({"id": f.id, "fact": f.text(lang), "asOf": f.as_of, "source": f.source}))
        .collect();
    if found.is_empty() {
        return json!({"error": format!("unknown topic {topic:?}; one of: {}", topics().join(", "))});
    }
    json!({
        "topic": topic,
        "facts": found,
        "howToQuote": "Quote every tax, legal or monetary figure with its date (\"em 2026\", \"valores de março de 2026\"); say that values change and that this is educational guidance — for decisions, an accountant or Sebrae."
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_fact_has_a_date_a_source_and_words_in_both_languages() {
        assert!(all().len() >= 20);
        for fact in all() {
            let date_ok = matches!(fact.as_of.len(), 4 | 7 | 10)
                && fact.as_of.split('-').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
                && fact.as_of.as_str() >= "2000";
            assert!(date_ok, "{}: a date, not {:?}", fact.id, fact.as_of);
            assert!(fact.source.trim().len() > 5, "{}: a source", fact.id);
            assert!(
                !fact.pt.trim().is_empty() && !fact.en.trim().is_empty(),
                "{}: words in both languages",
                fact.id
            );
            assert!(topics().contains(&fact.topic), "{}: a known topic", fact.id);
        }
    }

    #[test]
    fn the_calendar_names_facts_that_exist_and_dates_that_are_dates() {
        let c = calendar();
        for id in [
            &c.das.fact,
            &c.dasn.fact,
            &c.defis.fact,
            &c.ceiling.fact,
            &c.ceiling.tolerance_fact,
            &c.holidays.fact,
        ] {
            assert!(all().iter().any(|f| &f.id == id), "{id} is a fact");
        }
        assert!(get(&c.ceiling.fact).pt.contains("81.000") && c.ceiling.yearly == 81_000.0);
        assert!(get(&c.ceiling.tolerance_fact).pt.contains("20%") && c.ceiling.tolerance == 0.2);
        assert!(get(&c.das.fact).pt.contains("dia 20") && c.das.due_day == 20);
        assert!(get(&c.dasn.fact).pt.contains("31 de maio") && (c.dasn.due_month, c.dasn.due_day) == (5, 31));
        assert!(
            get(&c.defis.fact).pt.contains("31 de março") && (c.defis.due_month, c.defis.due_day) == (3, 31)
        );
        assert_eq!(c.ceiling.per_month_in_opening_year * 12.0, c.ceiling.yearly);
        for day in &c.holidays.every_year {
            let (m, d) = day.split_once('-').unwrap();
            assert!(
                (1..=12).contains(&m.parse::<i32>().unwrap())
                    && (1..=31).contains(&d.parse::<i32>().unwrap())
            );
        }
        for date in &c.holidays.good_friday {
            assert_eq!(date.len(), 10, "{date}");
        }
    }

    #[test]
    fn the_tax_tables_name_facts_that_exist_and_their_brackets_climb() {
        let t = taxes();
        for id in [&t.mei_das.fact, &t.simples.fact, &t.simples.fator_r.fact] {
            assert!(all().iter().any(|f| &f.id == id), "{id} is a fact");
        }
        assert!(get(&t.mei_das.fact).pt.contains("R$ 82,05") && t.mei_das.commerce == 82.05);
        assert!(get(&t.mei_das.fact).pt.contains("R$ 86,05") && t.mei_das.services == 86.05);
        assert!(get(&t.simples.fator_r.fact).pt.contains("28%") && t.simples.fator_r.threshold == 0.28);
        for annex in ["I", "II", "III", "V"] {
            let brackets = &t.simples.annexes[annex];
            assert_eq!(brackets.len(), 6, "{annex}");
            assert!(brackets.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1), "{annex} climbs");
            assert_eq!(brackets[0].2, 0.0, "{annex}: nothing to deduct in the first bracket");
            assert_eq!(brackets[5].0, 4_800_000.0, "{annex}: the Simples' ceiling");
        }
    }

    /// A table valid for a year fails here once São Paulo's date passes it: the January update
    /// (the new minimum wage, so the new DAS) cannot be forgotten.
    #[test]
    fn the_mei_das_is_still_valid_today() {
        let today = crate::clock::Clock::system().today().iso();
        assert!(
            today.as_str() <= taxes().mei_das.valid_until.as_str(),
            "the MEI's DAS table ran out on {}: update taxes.meiDas and the fact {} with this year's values",
            taxes().mei_das.valid_until,
            taxes().mei_das.fact
        );
    }

    #[test]
    fn a_citation_never_prints_its_date_twice() {
        let limit = get("mei.revenue_limit");
        assert!(limit.source.contains("17/03/2026"));
        let cited = limit.citation(Language::PtBr);
        assert_eq!(cited.matches("17/03/2026").count(), 1, "{cited}");
        assert!(get("legal.ltda").citation(Language::PtBr).contains("Lei 13.874/2019"));
    }

    #[test]
    fn ids_are_unique_and_every_topic_has_facts() {
        let ids: HashSet<&str> = all().iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids.len(), all().len());
        for topic in topics() {
            assert!(all().iter().any(|f| &f.topic == topic), "{topic} has facts");
        }
    }

    #[test]
    fn the_mei_limit_and_das_are_the_ones_in_force_with_their_dates() {
        let limit = get("mei.revenue_limit");
        assert!(limit.pt.contains("R$ 81.000"));
        assert_eq!(limit.date(Language::PtBr), "17/03/2026");
        assert_eq!(get("mei.das_2026").date(Language::En), "5 January 2026");
        assert!(get("mei.register").citation(Language::PtBr).contains("conferido em março de 2026"));
    }

    #[test]
    fn a_lookup_answers_the_topic_s_facts_with_dates_or_names_the_topics() {
        let answer = lookup("mei", Language::PtBr);
        let facts = answer["facts"].as_array().unwrap();
        assert!(facts.iter().all(|f| f["asOf"].is_string() && f["source"].is_string()));
        assert!(facts.iter().any(|f| f["fact"].as_str().unwrap().contains("R$ 82,05")));
        assert!(lookup("astrologia", Language::PtBr)["error"].as_str().unwrap().contains("legal_forms"));
    }
}
