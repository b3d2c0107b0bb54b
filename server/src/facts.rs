//! Dated, sourced facts about Brazilian small business (MEI, Simples Nacional, legal forms,
//! licences, where to get help, payments, the tax reform), read from one data file in the
//! repository (`server/data/business-facts.json`, embedded at build time): the model looks them up
//! with its `lookup_business_facts` tool, the offline guide's tips quote them, and each carries the
//! date its source shows and the source itself, so every figure can be quoted "as of" a date. A
//! change in the law is a change in that file — or, without a build, in a file of the same format
//! named by `SOCIO_FACTS_FILE`, installed at start ([`install`]) after the same checks the built-in
//! file passes ([`validate`]). Values valid for a period (the MEI's DAS of a year) carry
//! `validFrom`/`validUntil` and are chosen by the date computed for; past the last one, the last
//! value is still used and said to be stale ([`Validity`]), never silently.

use std::sync::OnceLock;

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
    /// The period the value holds (YYYY-MM-DD), when it holds for one.
    #[serde(rename = "validFrom", default)]
    pub valid_from: Option<String>,
    #[serde(rename = "validUntil", default)]
    pub valid_until: Option<String>,
    /// What to say once the period ended and no newer value was published.
    #[serde(default)]
    pub stale: Option<Words>,
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

/// The tax tables of the plan's numbers (`plan::taxes`), beside the facts whose words they match.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Taxes {
    /// Each period's DAS, oldest first.
    pub mei_das: Vec<MeiDas>,
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

/// The MEI's monthly DAS by activity, valid from `valid_from` through `valid_until` (`YYYY-MM-DD`).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeiDas {
    pub fact: String,
    pub valid_from: String,
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

/// The facts in use: a file installed at start, else the built-in one.
static FACTS: OnceLock<Facts> = OnceLock::new();

fn facts() -> &'static Facts {
    FACTS.get_or_init(|| {
        serde_json::from_str(DATA).expect("server/data/business-facts.json is valid (tested)")
    })
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

/// The checks every facts file passes, the built-in one included: dates that are dates, a source
/// for each, words in both languages, known topics, unique ids, the calendar's and the tables'
/// facts present, brackets that climb, the DAS's periods in order without gaps or overlaps.
pub fn validate(facts: &Facts) -> Result<(), String> {
    let date = |d: &str| {
        d.len() == 10
            && d.as_bytes()[4] == b'-'
            && d.as_bytes()[7] == b'-'
            && d.split('-').all(|p| p.chars().all(|c| c.is_ascii_digit()))
    };
    let mut ids = std::collections::HashSet::new();
    for fact in &facts.facts {
        let as_of_ok = matches!(fact.as_of.len(), 4 | 7 | 10)
            && fact.as_of.split('-').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
            && fact.as_of.as_str() >= "2000";
        if !as_of_ok {
            return Err(format!(
                "fact {}: asOf must be a date (YYYY, YYYY-MM or YYYY-MM-DD), not {:?}",
                fact.id, fact.as_of
            ));
        }
        if fact.source.trim().len() <= 5 {
            return Err(format!("fact {}: needs its source", fact.id));
        }
        if fact.pt.trim().is_empty() || fact.en.trim().is_empty() {
            return Err(format!("fact {}: needs words in pt and en", fact.id));
        }
        if !facts.topics.contains(&fact.topic) {
            return Err(format!("fact {}: unknown topic {:?}", fact.id, fact.topic));
        }
        for d in [&fact.valid_from, &fact.valid_until].into_iter().flatten() {
            if !date(d) {
                return Err(format!("fact {}: validFrom/validUntil must be YYYY-MM-DD, not {d:?}", fact.id));
            }
        }
        if !ids.insert(fact.id.as_str()) {
            return Err(format!("fact {} appears twice", fact.id));
        }
    }
    let exists = |id: &str| facts.facts.iter().any(|f| f.id == id);
    let c = &facts.calendar;
    let t = &facts.taxes;
    let named = [
        &c.das.fact,
        &c.dasn.fact,
        &c.defis.fact,
        &c.ceiling.fact,
        &c.ceiling.tolerance_fact,
        &c.holidays.fact,
        &t.simples.fact,
        &t.simples.fator_r.fact,
    ];
    for id in named.into_iter().chain(t.mei_das.iter().map(|d| &d.fact)) {
        if !exists(id) {
            return Err(format!("the tables name the fact {id}, which is not in facts"));
        }
    }
    if t.mei_das.is_empty() {
        return Err("taxes.meiDas needs at least one period".into());
    }
    for das in &t.mei_das {
        if !(date(&das.valid_from) && date(&das.valid_until) && das.valid_from <= das.valid_until) {
            return Err(format!(
                "taxes.meiDas: a period runs from validFrom to validUntil (YYYY-MM-DD), not {}…{}",
                das.valid_from, das.valid_until
            ));
        }
        if [das.commerce, das.industry, das.services, das.commerce_and_services]
            .iter()
            .any(|v| !(v.is_finite() && *v > 0.0))
        {
            return Err(format!("taxes.meiDas {}: every value must be a positive amount", das.valid_from));
        }
    }
    if t.mei_das.windows(2).any(|w| w[0].valid_until >= w[1].valid_from) {
        return Err("taxes.meiDas: periods must be in order and must not overlap".into());
    }
    for (annex, brackets) in &t.simples.annexes {
        let climbs = brackets.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1);
        if brackets.len() != 6 || !climbs || brackets[0].2 != 0.0 {
            return Err(format!(
                "taxes.simples.annexes.{annex}: six brackets that climb, the first with nothing to deduct"
            ));
        }
    }
    for topic in &facts.topics {
        if !facts.facts.iter().any(|f| &f.topic == topic) {
            return Err(format!("topic {topic} has no facts"));
        }
    }
    Ok(())
}

/// Every dated fact and table that does not hold on `day` (YYYY-MM-DD): what the admin's list, the
/// metrics and the daily warning show.
pub fn expired_on(day: &str) -> Vec<String> {
    let facts = all().iter().filter(|f| {
        matches!(
            Validity::of(f.valid_from.as_deref(), f.valid_until.as_deref(), day),
            Validity::Expired { .. }
        )
    });
    let mut names: Vec<String> = facts.map(|f| f.id.clone()).collect();
    if let (_, Validity::Expired { .. }) = taxes().mei_das_on(day) {
        names.push("taxes.meiDas".into());
    }
    names
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

impl Taxes {
    /// The MEI's DAS in force on `day` (YYYY-MM-DD): the period holding it; after the last, the
    /// last (expired: said so); before the first, the first.
    pub fn mei_das_on(&self, day: &str) -> (&MeiDas, Validity) {
        if let Some(das) =
            self.mei_das.iter().find(|d| d.valid_from.as_str() <= day && day <= d.valid_until.as_str())
        {
            return (das, Validity::Current);
        }
        let last = self.mei_das.last().expect("at least one period (validated)");
        if day > last.valid_until.as_str() {
            return (last, Validity::Expired { until: last.valid_until.clone() });
        }
        let earlier = self.mei_das.iter().rev().find(|d| d.valid_until.as_str() < day);
        match earlier {
            Some(das) => (das, Validity::Expired { until: das.valid_until.clone() }),
            None => (&self.mei_das[0], Validity::Upcoming),
        }
    }
}

/// The fact with this id. The guide names facts by id; a test checks that they all exist.
pub fn get(id: &str) -> &'static Fact {
    all().iter().find(|f| f.id == id).unwrap_or_else(|| panic!("no business fact {id:?} (tested)"))
}

impl Fact {
    pub fn text(&self, lang: Language) -> &str {
        lang.choose(&self.pt, &self.en)
    }

    /// Whether it holds on `day` (YYYY-MM-DD).
    pub fn validity(&self, day: &str) -> Validity {
        Validity::of(self.valid_from.as_deref(), self.valid_until.as_deref(), day)
    }

    /// Its words on `day`: past its period, with what it says once stale.
    pub fn text_on(&self, day: &str, lang: Language) -> String {
        match (self.validity(day), &self.stale) {
            (Validity::Expired { .. }, Some(stale)) => {
                format!("{} ⚠️ {}", self.text(lang), lang.choose(&stale.pt, &stale.en))
            }
            (Validity::Expired { until }, None) => format!(
                "{} ⚠️ {}",
                self.text(lang),
                lang.choose(
                    format!("(valor válido até {until}; ainda sem valor mais novo)"),
                    format!("(valid until {until}; no newer value yet)")
                )
            ),
            _ => self.text(lang).to_owned(),
        }
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
pub fn lookup(topic: &str, lang: Language, day: &str) -> Json {
    let found: Vec<Json> = all()
        .iter()
        .filter(|f| f.topic == topic)
        .map(|f| {
            json!({"id": f.id, "fact": f.text_on(day, lang), "asOf": f.as_of, "source": f.source,
                   "status": f.validity(day).key()})
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn the_built_in_file_passes_the_checks_any_facts_file_must_pass() {
        let built_in: Facts = serde_json::from_str(DATA).unwrap();
        assert_eq!(validate(&built_in), Ok(()));
        // A broken copy is refused, naming what is wrong.
        let mut broken: Facts = serde_json::from_str(DATA).unwrap();
        broken.taxes.mei_das[0].valid_until = "31/12/2026".into();
        assert!(validate(&broken).unwrap_err().contains("meiDas"));
        let mut unsourced: Facts = serde_json::from_str(DATA).unwrap();
        unsourced.facts[0].source = String::new();
        assert!(validate(&unsourced).unwrap_err().contains("source"));
    }

    #[test]
    fn the_das_in_force_is_chosen_by_the_day_and_said_stale_past_its_period() {
        // Fixed days, never the machine's: 2026's DAS holds in 2026; on 2027-01-05, with no 2027
        // value published, 2026's is still used and said to be stale.
        let (das, validity) = taxes().mei_das_on("2026-06-01");
        assert_eq!((das.commerce, validity), (82.05, Validity::Current));
        let (das, validity) = taxes().mei_das_on("2027-01-05");
        assert_eq!((das.commerce, validity), (82.05, Validity::Expired { until: "2026-12-31".into() }));
        assert_eq!(expired_on("2027-01-05"), ["mei.das", "taxes.meiDas"]);
        assert!(expired_on("2026-11-27").is_empty());
        let said = get("mei.das").text_on("2027-01-05", Language::PtBr);
        assert!(
            said.contains("são os valores de 2026") && said.contains("ainda não foram publicados"),
            "{said}"
        );
        assert!(!get("mei.das").text_on("2026-11-27", Language::PtBr).contains("⚠️"));
    }

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
        let das = &t.mei_das[0];
        for id in [&das.fact, &t.simples.fact, &t.simples.fator_r.fact] {
            assert!(all().iter().any(|f| &f.id == id), "{id} is a fact");
        }
        assert!(get(&das.fact).pt.contains("R$ 82,05") && das.commerce == 82.05);
        assert!(get(&das.fact).pt.contains("R$ 86,05") && das.services == 86.05);
        assert!(get(&t.simples.fator_r.fact).pt.contains("28%") && t.simples.fator_r.threshold == 0.28);
        for annex in ["I", "II", "III", "V"] {
            let brackets = &t.simples.annexes[annex];
            assert_eq!(brackets.len(), 6, "{annex}");
            assert!(brackets.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1), "{annex} climbs");
            assert_eq!(brackets[0].2, 0.0, "{annex}: nothing to deduct in the first bracket");
            assert_eq!(brackets[5].0, 4_800_000.0, "{annex}: the Simples' ceiling");
        }
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
        assert_eq!(get("mei.das").date(Language::En), "5 January 2026");
        assert!(get("mei.register").citation(Language::PtBr).contains("conferido em março de 2026"));
    }

    #[test]
    fn a_lookup_answers_the_topic_s_facts_with_dates_or_names_the_topics() {
        let answer = lookup("mei", Language::PtBr, "2026-11-27");
        let facts = answer["facts"].as_array().unwrap();
        assert!(facts.iter().all(|f| f["asOf"].is_string() && f["source"].is_string()));
        assert!(facts.iter().any(|f| f["fact"].as_str().unwrap().contains("R$ 82,05")));
        assert!(
            lookup("astrologia", Language::PtBr, "2026-11-27")["error"]
                .as_str()
                .unwrap()
                .contains("legal_forms")
        );
    }
}
