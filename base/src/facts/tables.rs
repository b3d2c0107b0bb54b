//! The dated tables the maths and the calendar read (`taxes`, `calendar`), each beside the fact whose
//! words it matches: the MEI's DAS by period, the Simples' annexes and Fator R, the MEI's ceiling,
//! the CNAE table, Lucro Presumido's rates; the deadlines and holidays of the fiscal calendar. A
//! value that holds for a period is a [`Dated`] list: each period with `validFrom` and (but for an
//! open-ended last one) `validUntil`, the one in force on a day chosen by [`Dated::on`].

use serde::Deserialize;

use super::Validity;

/// One period of a dated value: from `valid_from` through `valid_until` (YYYY-MM-DD; none: until
/// a newer period is published).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Period<T> {
    pub valid_from: String,
    #[serde(default)]
    pub valid_until: Option<String>,
    /// Set when the period's figures are not yet the law's published ones (an estimate, a premise):
    /// used, and said to be so wherever they show.
    #[serde(default)]
    pub provisional: Option<Provisional>,
    #[serde(flatten)]
    pub value: T,
}

/// Why a period's figures are not yet the published ones, and what to say of them.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Provisional {
    pub kind: ProvisionalKind,
    /// Where the figure comes from (the budget bill, a government estimate).
    pub source: String,
    /// In both languages: what it is and what replaces it.
    pub pt: String,
    pub en: String,
}

/// What kind of stand-in a provisional period is.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ProvisionalKind {
    /// Worked out from a published figure that is not yet the law's (the 2027 DAS from the budget
    /// bill's minimum wage, before the decree).
    Estimate,
    /// Assumed until the authority fixes it (the CBS reference rate before the Senate's resolution).
    Premise,
}

impl ProvisionalKind {
    pub fn key(self) -> &'static str {
        match self {
            ProvisionalKind::Estimate => "estimate",
            ProvisionalKind::Premise => "premise",
        }
    }
}

impl Provisional {
    pub fn text(&self, lang: crate::locale::Language) -> &str {
        crate::words::of_data(lang, &self.pt, &self.en)
    }
}

/// A value's periods, oldest first, without overlaps (validated).
#[derive(Clone, Debug, Deserialize)]
#[serde(transparent)]
pub struct Dated<T>(pub(super) Vec<Period<T>>);

impl<T> Dated<T> {
    /// The period in force on `day` (YYYY-MM-DD), and whether it holds: the period holding the
    /// day; past the last, the last (expired: said so); in a gap, the one before (expired); before
    /// the first, the first (upcoming).
    pub fn period_on(&self, day: &str) -> (&Period<T>, Validity) {
        let holds = |p: &Period<T>| {
            p.valid_from.as_str() <= day && p.valid_until.as_deref().is_none_or(|until| day <= until)
        };
        if let Some(period) = self.0.iter().find(|p| holds(p)) {
            return (period, Validity::Current);
        }
        match self.0.iter().rev().find(|p| p.valid_until.as_deref().is_some_and(|until| until < day)) {
            Some(p) => (p, Validity::Expired { until: p.valid_until.clone().unwrap_or_default() }),
            None => (&self.0[0], Validity::Upcoming),
        }
    }

    /// The value in force on `day` ([`Dated::period_on`]).
    pub fn on(&self, day: &str) -> (&T, Validity) {
        let (period, validity) = self.period_on(day);
        (&period.value, validity)
    }

    /// [`Dated::on`] without its validity, for what only needs the figure (the validity is shown
    /// where the figure is explained, and listed for the admin).
    pub fn value_on(&self, day: &str) -> &T {
        self.on(day).0
    }

    pub fn periods(&self) -> &[Period<T>] {
        &self.0
    }
}

/// The tax tables of the plan's numbers (`plan::money::taxes`), beside the facts whose words they match.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Taxes {
    /// Each year's DAS, oldest first (it follows the minimum wage: every period ends).
    pub mei_das: Dated<MeiDas>,
    pub simples: Dated<Simples>,
    pub mei_ceiling: Dated<MeiCeiling>,
    pub cnaes: Cnaes,
    pub lucro_presumido: Dated<LucroPresumido>,
    /// The tax reform's CBS and IBS charged outside the Simples (and by a Simples company that
    /// chooses to pay them outside the DAS), by period.
    pub cbs_ibs: Dated<CbsIbs>,
}

/// The CBS and IBS rates of a period of the reform's transition (LC 214/2025 arts. 344 and 347),
/// on a base without the ISS and ICMS, charged on top of the price and creditable by business
/// customers.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CbsIbs {
    pub fact: String,
    pub source: String,
    pub as_of: String,
    /// The CBS's reference rate (art. 349: the Senate's, else the TCU's figure).
    pub cbs_reference: f64,
    /// Points taken off the reference rate in the period (art. 347: 0,1 p.p. in 2027–2028).
    pub cbs_reduction: f64,
    pub ibs_state: f64,
    pub ibs_municipal: f64,
    /// The reduction of both for regulated intellectual professions (art. 127: 30 %).
    pub regulated_reduction: f64,
}

impl CbsIbs {
    /// The CBS rate charged: the reference rate less the period's reduction.
    pub fn cbs(&self) -> f64 {
        (self.cbs_reference - self.cbs_reduction).max(0.0)
    }

    /// The IBS rate charged: the state's and the municipality's together.
    pub fn ibs(&self) -> f64 {
        self.ibs_state + self.ibs_municipal
    }
}

/// What a MEI past its yearly ceiling pays (LC 123/2006 art. 18-A).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MeiCeiling {
    pub source: String,
    pub as_of: String,
    /// The Simples' first-bracket rates the excess pays, by activity (the ceiling and its tolerance
    /// are the calendar's `ceiling`).
    pub excess_rates: ActivityRates,
    pub note: String,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
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
#[derive(Clone, Debug, Deserialize, PartialEq)]
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

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
pub struct Presumptions {
    pub commerce: Presumption,
    pub industry: Presumption,
    pub services: Presumption,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
pub struct Presumption {
    pub irpj: f64,
    pub csll: f64,
}

/// LC 224/2025: from `from` (YYYY-MM-DD; the CSLL's from `csll_from`, after its ninety days), the
/// presumptions are `factor` times higher on the revenue above `above_yearly` a year.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Lc224 {
    pub from: String,
    pub csll_from: String,
    pub above_yearly: f64,
    pub factor: f64,
}

/// The MEI's monthly DAS by activity, for one period of [`Taxes::mei_das`].
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MeiDas {
    pub fact: String,
    pub commerce: f64,
    pub industry: f64,
    pub services: f64,
    pub commerce_and_services: f64,
}

/// The Simples Nacional's annexes: per annex, brackets of (RBT12 up to, nominal rate, deduction).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Simples {
    pub fact: String,
    pub source: String,
    pub as_of: String,
    pub fator_r: FatorR,
    pub shares: Shares,
    pub annex_iv_cpp: AnnexIvCpp,
    pub annexes: std::collections::BTreeMap<String, Vec<(f64, f64, f64)>>,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FatorR {
    pub fact: String,
    pub threshold: f64,
    /// FGTS on wages, the 13th and the vacation third, which the Fator R's payroll counts.
    pub fgts: f64,
    pub payroll_source: String,
    /// The partner's INSS on pró-labore (11 %, up to the INSS ceiling), what raising it costs.
    pub pro_labore_inss: f64,
    pub pro_labore_inss_source: String,
}

/// How each annex's DAS is shared among its taxes, per bracket: (PIS + Cofins, ICMS or ISS), shares
/// of the DAS from 0 to 1 — what leaves the DAS when a company pays the CBS and IBS outside it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Shares {
    pub source: String,
    /// The ISS's effective rate is at most this (art. 18 §1º-B I); what passes it goes to the
    /// bracket's federal taxes, PIS + Cofins taking `iss_cap_to_pis_cofins` of it (Annexes III and
    /// IV, 5th bracket: the only ones the cap can reach).
    #[serde(rename = "issCap")]
    pub iss_cap: f64,
    #[serde(rename = "issCapToPisCofins")]
    pub iss_cap_to_pis_cofins: std::collections::BTreeMap<String, f64>,
    pub annexes: std::collections::BTreeMap<String, Vec<(f64, f64)>>,
}

/// Annex IV's CPP, paid outside the DAS on wages and pró-labore.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct AnnexIvCpp {
    pub rate: f64,
    pub source: String,
}

/// The dates and figures the reminders and the ceiling projection use, each beside the fact whose
/// words it matches (`plan::tracking::calendar` reads them; none is written in code).
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
    /// What a MEI whose last year passed the ceiling must do in the new year.
    pub year_over: YearOver,
    /// A Simples company's half-yearly choice of IBS/CBS inside or outside the DAS.
    pub simples_choice: ChoiceWindow,
    /// A company outside the Simples opting into it for the next year.
    pub simples_option: ChoiceWindow,
    pub ceiling: Dated<Ceiling>,
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

/// A MEI's year over the ceiling: the excess is paid with the DAS of month `excess_with_month` of
/// the next year (LC 123/2006 art. 18-A §10: January's, due like every DAS on the next month's due
/// day); what to do is shown from January through month `show_through_month`.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct YearOver {
    pub fact: String,
    pub excess_with_month: i64,
    pub show_through_month: i64,
}

/// A choice made within whole months (`months`, 1-12) of every year from `valid_from`
/// (YYYY-MM-DD), by the last business day of the month.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChoiceWindow {
    pub fact: String,
    pub valid_from: String,
    pub months: Vec<i64>,
}

/// The MEI's yearly revenue ceiling, in reais, and the tolerance above it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
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

/// The national holidays: `MM-DD` every year, and Good Friday's dates (`YYYY-MM-DD`); the days
/// banks close besides.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Holidays {
    pub fact: String,
    pub every_year: Vec<String>,
    pub good_friday: Vec<String>,
    /// Days without bank business that are not national holidays (Carnival's Monday and Tuesday):
    /// a payment due then moves to the next business day (Res. CGSN 140/2018 art. 40 §3º).
    #[serde(default)]
    pub banks_closed: Vec<String>,
}

/// How a dated table stands on a day, for the admin's list, the metrics and the daily warning.
pub struct TableStatus {
    /// Where it sits in the facts file (`taxes.meiDas`).
    pub id: &'static str,
    pub topic: &'static str,
    /// The fact whose words it matches (its source).
    pub fact: String,
    pub valid_from: String,
    pub valid_until: Option<String>,
    pub validity: Validity,
    /// Set when the period in force is an estimate or a premise.
    pub provisional: Option<Provisional>,
    /// Its figures, in a line.
    pub summary: String,
}

impl TableStatus {
    /// current, expired or upcoming; a current period that is not yet the law's figure says what
    /// it is instead: estimate or premise.
    pub fn status(&self) -> &'static str {
        match (&self.validity, &self.provisional) {
            (Validity::Current, Some(p)) => p.kind.key(),
            (validity, _) => validity.key(),
        }
    }
}

fn status<T>(
    id: &'static str,
    topic: &'static str,
    table: &Dated<T>,
    day: &str,
    fact: impl Fn(&T) -> String,
    summary: impl Fn(&T) -> String,
) -> TableStatus {
    let (period, validity) = table.period_on(day);
    TableStatus {
        id,
        topic,
        fact: fact(&period.value),
        valid_from: period.valid_from.clone(),
        valid_until: period.valid_until.clone(),
        validity,
        provisional: period.provisional.clone(),
        summary: summary(&period.value),
    }
}

/// Every dated table as it stands on `day`.
pub fn tables_on(taxes: &Taxes, calendar: &Calendar, day: &str) -> Vec<TableStatus> {
    vec![
        status(
            "taxes.meiDas",
            "mei",
            &taxes.mei_das,
            day,
            |d| d.fact.clone(),
            |d| {
                format!(
                    "{:.2} / {:.2} / {:.2} / {:.2}",
                    d.commerce, d.industry, d.services, d.commerce_and_services
                )
            },
        ),
        status(
            "calendar.ceiling",
            "mei",
            &calendar.ceiling,
            day,
            |c| c.fact.clone(),
            |c| format!("{:.2} (+{:.0} %)", c.yearly, c.tolerance * 100.0),
        ),
        status(
            "taxes.meiCeiling",
            "mei",
            &taxes.mei_ceiling,
            day,
            |_| "mei.excess".into(),
            |c| {
                let r = &c.excess_rates;
                format!("{} / {} / {}", r.commerce, r.industry, r.services)
            },
        ),
        status(
            "taxes.simples",
            "simples",
            &taxes.simples,
            day,
            |s| s.fact.clone(),
            |s| format!("{} — Fator R {}", s.source, s.fator_r.threshold),
        ),
        status(
            "taxes.lucroPresumido",
            "simples",
            &taxes.lucro_presumido,
            day,
            |_| "simples.other_regimes".into(),
            |p| p.source.clone(),
        ),
        status(
            "taxes.cbsIbs",
            "tax_reform",
            &taxes.cbs_ibs,
            day,
            |r| r.fact.clone(),
            |r| format!("CBS {:.4} + IBS {:.4} — {}", r.cbs(), r.ibs(), r.source),
        ),
    ]
}
