//! The dated tables the maths and the calendar read (`taxes`, `calendar`), each beside the fact whose
//! words it matches: the MEI's DAS by period, the Simples' annexes and Fator R, the MEI's ceiling,
//! the CNAE table, Lucro Presumido's rates; the deadlines and holidays of the fiscal calendar.

use serde::Deserialize;

use super::Validity;

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
    /// The Simples' first-bracket rates the excess pays, by activity (the ceiling and its tolerance
    /// are the calendar's `ceiling`).
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
    /// The Simples Nacional company's monthly DAS (PGDAS-D).
    pub simples_das: MonthlyDeadline,
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

impl Ceiling {
    /// The top of the tolerance in reais, to the centavo (81.000 × 1,2 = 97.200,00 belongs to it).
    pub fn tolerated(&self) -> f64 {
        (self.yearly * (1.0 + self.tolerance) * 100.0).round() / 100.0
    }
}

/// The national holidays: `MM-DD` every year, and Good Friday's dates (`YYYY-MM-DD`).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Holidays {
    pub fact: String,
    pub every_year: Vec<String>,
    pub good_friday: Vec<String>,
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
