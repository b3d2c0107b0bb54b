//! Taxes in the plan's numbers, in every regime, from the dated tables of `business-facts.json`
//! (`facts::taxes`; no rate is written here), one computation for the DRE, the indicators, the
//! scenarios, the PDF, the dashboard and the model's finance tool:
//! - a **MEI** pays the month's DAS for its activity; past the yearly ceiling by up to 20 % it also
//!   pays the excess at the Simples' first-bracket rate, beyond that it is computed as the Simples
//!   company it becomes (excluded back to January: LC 123/2006 art. 18-A);
//! - a **Simples Nacional** company pays the effective rate of its annex on revenue,
//!   `(RBT12 × nominal − deduction) ÷ RBT12` — the annex from the CNAE (`cnae`: natively I to V, or
//!   III/V by the Fator R, whose payroll adds the 13th, the vacation third and FGTS), and in Annex IV
//!   the CPP on payroll outside the DAS;
//! - **Lucro Presumido** pays PIS, Cofins, IRPJ (with its additional) and CSLL on the presumed profit
//!   of its activity, and ISS or ICMS at the rate the owner gives (`presumido`);
//! - **Lucro Real** is the accountant's: nothing is invented.
//!
//! What a computation needs and does not have (a service business's CNAE, the split of commerce and
//! services) leaves taxes out and says what to give: never an annex assumed in silence.

mod explain;
mod mei;
mod payroll;
mod presumido;
mod simples;
#[cfg(test)]
mod tests;

use serde_json::Value as Json;

pub use explain::{lever_words, shown as shown_cnae};
pub use mei::{MeiExit, MeiHistory};
pub use payroll::Payroll;
pub use presumido::{OnTop, Presumido};
pub use simples::{Annex, FatorRLever, Treatment, cnae_entry, fator_r_lever, simples_rate, simples_shares};

use crate::plan::{
    sections::{Step, normalise_cnae},
    store::{Plan, Recorded},
};
use crate::{facts, locale::Language, proto::socio::v1 as pb};

/// What the business does, as the tax tables need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    Commerce,
    Industry,
    Services,
    CommerceAndServices,
}

impl Activity {
    pub fn parse(key: &str) -> Option<Self> {
        Some(match key {
            "commerce" => Activity::Commerce,
            "industry" => Activity::Industry,
            "services" => Activity::Services,
            "commerce_and_services" => Activity::CommerceAndServices,
            _ => return None,
        })
    }

    fn name(self, lang: Language) -> String {
        match self {
            Activity::Commerce => say!(lang, "money-taxes-commerce"),
            Activity::Industry => say!(lang, "money-taxes-industry"),
            Activity::Services => say!(lang, "money-taxes-services"),
            Activity::CommerceAndServices => say!(lang, "money-taxes-commerce-and-services"),
        }
    }
}

/// What a computation needs and was not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// A service business in the Simples: the CNAE decides the annex (III, IV or V).
    Cnae,
    /// Commerce and services together: which share of the revenue is which (or the main CNAE).
    Split,
}

/// A MEI over its yearly ceiling by at most the tolerance: the excess and the tax it pays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeiExcess {
    pub yearly_revenue: f64,
    pub excess: f64,
    pub rate: f64,
}

/// The MEI's ceiling and what its excess pays, as in force on the day computed for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeiRules {
    pub ceiling: &'static facts::Ceiling,
    pub excess: &'static facts::MeiCeiling,
}

impl MeiRules {
    /// The rules in force on `day` (YYYY-MM-DD).
    pub fn on(day: &str) -> Self {
        Self {
            ceiling: facts::calendar().ceiling.value_on(day),
            excess: facts::taxes().mei_ceiling.value_on(day),
        }
    }
}

impl MeiExcess {
    /// The tax on the excess (paid once, with January's DAS).
    pub fn tax(&self) -> f64 {
        self.excess * self.rate
    }
}

/// How the plan's taxes are worked out.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Basis {
    /// No regime chosen (or undecided): taxes are left out, and the numbers say so.
    #[default]
    NotChosen,
    /// A MEI: the DAS, a fixed amount a month; past the ceiling within the tolerance, the tax on
    /// the excess too.
    /// `expired`: the DAS table's period ended on this day with no newer one published (the
    /// latest value is used, and said to be stale).
    /// `rules`: the ceiling and its excess as in force on the day computed for.
    /// `fact`: the fact whose words the DAS's period matches (`mei.das`, `mei.das_2027`);
    /// `estimate`: set while that period is an estimate (the DAS before the minimum-wage decree).
    Mei {
        activity: Option<Activity>,
        das: f64,
        excess: Option<MeiExcess>,
        expired: Option<String>,
        fact: &'static str,
        estimate: Option<&'static facts::Provisional>,
        rules: MeiRules,
    },
    /// The Simples Nacional: an effective rate on revenue; `recorded_months` is how many recorded
    /// months the RBT12 came from (0: the plan's expected revenue × 12). `cpp`: Annex IV's
    /// employer contribution a month, outside the DAS. `from_mei`: a MEI past the ceiling's
    /// tolerance, computed as the company it becomes (with the MEI's rules then). `table`: the
    /// annexes in force on the day computed for.
    Simples {
        annex: Annex,
        rbt12: f64,
        nominal: f64,
        deduction: f64,
        effective: f64,
        fator_r: Option<f64>,
        recorded_months: u32,
        cnae: Option<String>,
        cpp: f64,
        from_mei: Option<MeiRules>,
        table: &'static facts::Simples,
        /// A MEI whose year before passed the ceiling: the ME it is from 1 January.
        left_mei: Option<MeiExit>,
    },
    /// Lucro Presumido: federal taxes on the presumed profit, and ISS or ICMS.
    Presumido(Presumido),
    /// The regime's computation needs something the plan does not say yet.
    Needs { regime: &'static str, missing: Missing },
    /// Lucro Real (or a Simples revenue above its ceiling): the accountant's, nothing invented.
    NotModelled { regime: &'static str },
}

/// One tax of the month.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// das, das_excess, pis, cofins, irpj, irpj_additional, csll, iss, icms, cpp, cbs, ibs.
    pub code: &'static str,
    pub name: String,
    pub amount: f64,
    /// Charged on top of the price and shown on the invoice (the reform's CBS and IBS), not taken
    /// out of it: a business customer takes it as a credit.
    pub on_top: bool,
}

impl Basis {
    /// The month's taxes at `revenue` (reais a month), line by line.
    pub fn lines(&self, revenue: f64, lang: Language) -> Vec<Line> {
        let revenue = revenue.max(0.0);
        let line = |code, name: &str, amount| Line { code, name: name.to_owned(), amount, on_top: false };
        match self {
            Basis::Mei { das, excess, .. } => {
                let mut lines = vec![line("das", "DAS", *das)];
                if let Some(excess) = excess {
                    let name = say!(lang, "money-taxes-das-on-the-excess-1");
                    lines.push(line("das_excess", &name, excess.tax() / 12.0));
                }
                lines
            }
            Basis::Simples { effective, cpp, .. } => {
                let mut lines = vec![line("das", "DAS", revenue * effective)];
                if *cpp > 0.0 {
                    lines.push(line("cpp", &say!(lang, "money-taxes-cpp-employer-inss"), *cpp));
                }
                lines
            }
            Basis::Presumido(p) => p.lines(revenue, lang),
            Basis::NotChosen | Basis::Needs { .. } | Basis::NotModelled { .. } => Vec::new(),
        }
    }

    /// The month's taxes at `revenue`, in reais.
    pub fn monthly(&self, revenue: f64) -> f64 {
        self.lines(revenue, Language::PtBr).iter().map(|l| l.amount).sum()
    }

    /// The month's taxes at `revenue` that come out of the price: all but the CBS and IBS charged
    /// on top of it (what a price's divisor holds).
    pub fn inside_price(&self, revenue: f64) -> f64 {
        self.lines(revenue, Language::PtBr).iter().filter(|l| !l.on_top).map(|l| l.amount).sum()
    }

    /// The CBS and IBS a price carries on top, when the regime charges them (Lucro Presumido from
    /// 2027): (code, name, rate over the price, amount).
    pub fn on_top_of(&self, price: f64) -> Vec<(&'static str, String, f64, f64)> {
        match self {
            Basis::Presumido(p) => p.on_top_of(price),
            _ => Vec::new(),
        }
    }

    /// The taxes near `revenue` as `rate × revenue + fixed`: exact on the piece of the tax that
    /// holds `revenue` (Lucro Presumido's IRPJ additional starts a new piece), for break-even and a
    /// sale's margin.
    pub fn linear_at(&self, revenue: f64) -> (f64, f64) {
        match self {
            Basis::Presumido(p) => p.linear_at(revenue.max(0.0)),
            _ => (self.rate(), self.monthly(0.0)),
        }
    }

    /// The share of revenue paid in taxes that grows with each sale (0 to 1): the Simples'
    /// effective rate, Lucro Presumido's rates before the IRPJ additional.
    pub fn rate(&self) -> f64 {
        match self {
            Basis::Simples { effective, .. } => *effective,
            Basis::Presumido(p) => p.linear_at(0.0).0,
            _ => 0.0,
        }
    }

    /// A fixed tax a month, in reais (the MEI's DAS and its excess, Annex IV's CPP).
    pub fn fixed(&self) -> f64 {
        match self {
            Basis::Mei { das, excess, .. } => das + excess.map_or(0.0, |e| e.tax() / 12.0),
            Basis::Simples { cpp, .. } => *cpp,
            _ => 0.0,
        }
    }

    /// The month's taxes over its revenue, 0 to 1 (the Simples: its effective rate).
    pub fn effective_at(&self, revenue: f64) -> f64 {
        match self {
            Basis::Simples { effective, .. } => *effective,
            Basis::Presumido(_) if revenue > 0.0 => self.monthly(revenue) / revenue,
            _ => 0.0,
        }
    }

    pub fn regime(&self) -> &'static str {
        match self {
            Basis::NotChosen => "",
            Basis::Mei { .. } => "mei",
            // A MEI past the tolerance is computed as the Simples company it becomes (said so).
            Basis::Simples { .. } => "simples_nacional",
            Basis::Presumido(_) => "lucro_presumido",
            Basis::Needs { regime, .. } | Basis::NotModelled { regime } => regime,
        }
    }

    /// The premise or estimate a figure of the month rests on, while one does (the CBS's
    /// reference rate before the Senate fixes it, the DAS before the minimum-wage decree).
    pub fn premise(&self) -> Option<&'static facts::Provisional> {
        match self {
            Basis::Presumido(p) => p.on_top.and_then(|o| o.provisional),
            Basis::Mei { estimate, .. } => *estimate,
            _ => None,
        }
    }

    pub fn modelled(&self) -> bool {
        matches!(self, Basis::Mei { .. } | Basis::Simples { .. } | Basis::Presumido(_))
    }

    pub fn annex(&self) -> Option<Annex> {
        match self {
            Basis::Simples { annex, .. } => Some(*annex),
            _ => None,
        }
    }

    /// What was assumed, the rate or value, and the source with its date, in the language.
    pub fn explain(&self, lang: Language) -> String {
        explain::explain(self, lang)
    }
}

/// Whether the legal step describes a MEI: the business type `mei` (whose regime is the SIMEI
/// whatever else was typed) or the regime `simei`. The one rule the taxes, the fiscal calendar and
/// the advice share.
pub fn is_mei(legal: &Json) -> bool {
    legal["businessType"].as_str() == Some("mei") || legal["taxRegime"].as_str() == Some("simei")
}

/// Whether the legal step describes a Simples Nacional company that is not a MEI.
pub fn in_simples(legal: &Json) -> bool {
    !is_mei(legal) && legal["taxRegime"].as_str() == Some("simples_nacional")
}

/// The plan's tax basis from its legal step (regime, business type, activity, CNAE, local tax
/// rates), the finance step's expected monthly revenue and payroll, the revenue recorded in the
/// last twelve months, and the day the rules are taken at (`as_of`, Unix ms).
pub fn basis(
    legal: &Json,
    monthly_revenue: f64,
    payroll: &Payroll,
    recorded: Option<Recorded>,
    as_of: i64,
) -> Basis {
    basis_after(legal, monthly_revenue, payroll, recorded, as_of, &MeiHistory::default())
}

/// [`basis`], for a plan with a past: a MEI whose year before passed the ceiling is computed as
/// the ME in the Simples Nacional it became on 1 January (`history`), its RBT12 the recorded
/// months'.
pub fn basis_after(
    legal: &Json,
    monthly_revenue: f64,
    payroll: &Payroll,
    recorded: Option<Recorded>,
    as_of: i64,
    history: &MeiHistory,
) -> Basis {
    let regime = legal["taxRegime"].as_str().unwrap_or_default();
    let activity = legal["activity"].as_str().and_then(Activity::parse);
    let cnae = legal["cnae"].as_str().and_then(normalise_cnae);
    let day = crate::clock::CivilDate::in_sao_paulo(as_of).iso();
    if is_mei(legal)
        && let Some(exit) = history.exit_on(&day)
    {
        let from_results = recorded.and_then(|r| Some((r.rbt12()?, r.months.min(12))));
        let (rbt12, months) = from_results.unwrap_or((monthly_revenue.max(0.0) * 12.0, 0));
        return simples::basis(activity, cnae, rbt12, months, payroll, simples::Origin::LeftMei(exit), &day);
    }
    if is_mei(legal) {
        return mei::basis(activity, cnae, monthly_revenue, payroll, as_of);
    }
    match regime {
        "simples_nacional" => {
            let from_results = recorded.and_then(|r| Some((r.rbt12()?, r.months.min(12))));
            let (rbt12, recorded_months) = from_results.unwrap_or((monthly_revenue.max(0.0) * 12.0, 0));
            simples::basis(activity, cnae, rbt12, recorded_months, payroll, simples::Origin::Company, &day)
        }
        "lucro_presumido" => presumido::basis(legal, activity, cnae.as_deref(), as_of),
        "lucro_real" => Basis::NotModelled { regime: "lucro_real" },
        _ => Basis::NotChosen,
    }
}

/// The basis of a saved plan, with its finance step's payroll, on the day it is read (the rules in
/// force then: the plan's forecast starts today, whenever it last changed).
pub fn of_plan(plan: &Plan, monthly_revenue: f64, finance: &pb::FinanceData) -> Basis {
    let history = MeiHistory::of(plan);
    let (legal, payroll) = (&plan.section(Step::Legal).data, Payroll::of(finance));
    basis_after(legal, monthly_revenue, &payroll, plan.recorded, plan.read_at, &history)
}

/// The tax tables' source for one regime, as the explanations cite it.
fn source(lang: Language, source: &str, as_of: &str) -> String {
    say!(lang, "money-taxes-source", source, as_of)
}

/// The Simples' tables in force on `day` (YYYY-MM-DD), for the submodules.
fn simples_facts(day: &str) -> &'static facts::Simples {
    facts::taxes().simples.value_on(day)
}
