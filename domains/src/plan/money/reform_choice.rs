//! A Simples Nacional company's half-yearly choice from 2027: the IBS and CBS inside the DAS, or
//! outside it in the regular regime (LC 214/2025 arts. 41 §§3º–4º and 517; LC 123/2006 as amended),
//! worked out from the owner's own plan. Inside, the DAS stays as it is (its PIS/Cofins share is the
//! CBS's place) and a business customer takes as credit only what the DAS carried. Outside, the DAS
//! loses its PIS + Cofins share (the annex's own repartition, `taxes.simples.shares`), the company
//! pays the CBS and IBS at the full rates of the half-year (`taxes.cbsIbs`, a premise while the
//! Senate has not fixed the reference rate) on its sales without the ICMS/ISS, less the credits of
//! its purchases from suppliers who charge them, and a business customer takes the full CBS and
//! IBS as credit. The choice holds for the whole half-year; the next window is the next April (for
//! July–December) or September (for the next January–June), by its last business day.

use super::{finance, format_brl, taxes::Basis};
use crate::{
    clock::CivilDate,
    error::{AppError, Precondition},
    facts,
    locale::Language,
    plan::{sections::Step, store::Plan},
    proto::{json as proto_json, socio::v1 as pb},
};

/// What the owner may tell beyond the plan, parsed at the edge.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Request {
    /// The share of sales to companies, 0 to 1 (unsaid: half, said so).
    pub b2b_share: Option<f64>,
    /// Purchases a month that carry the CBS and IBS, in reais (unsaid: the plan's variable costs).
    pub monthly_purchases: Option<f64>,
}

/// The next window for the choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// The last day to choose: the last business day of April or September.
    pub by: CivilDate,
    /// The half-year it decides: 1 (January–June) or 2 (July–December), of `year`.
    pub half: u8,
    pub year: i64,
}

/// The two ways, a month, in reais.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub inside: f64,
    pub outside: f64,
    /// Outside − inside: more (positive) or less a month outside.
    pub difference: f64,
    pub b2b_share: f64,
    pub purchase_credits: f64,
    /// The credit the business customers take each month beyond what the DAS gives them.
    pub customers_gain: f64,
    pub window: Window,
    pub explanation: String,
}

impl Request {
    /// From the contract's message: a share of 0 to 100 %, purchases of 0 or more.
    pub fn parse(msg: &pb::ReformChoiceRequest) -> Result<Self, AppError> {
        use crate::error::Problem;
        let share = match msg.b2b_share_percent {
            Some(p) if p.is_finite() && (0.0..=100.0).contains(&p) => Some(p / 100.0),
            Some(_) => {
                return Err(AppError::invalid("b2bSharePercent", Problem::OutOfRange { min: 0, max: 100 }));
            }
            None => None,
        };
        let purchases = match msg.monthly_purchases {
            Some(v) if v.is_finite() && (0.0..=1e9).contains(&v) => Some(v),
            Some(_) => {
                return Err(AppError::invalid(
                    "monthlyPurchases",
                    Problem::OutOfRange { min: 0, max: 1_000_000_000 },
                ));
            }
            None => None,
        };
        Ok(Self { b2b_share: share, monthly_purchases: purchases })
    }
}

/// Both ways for the plan's Simples company, read on `today`, for the half-year `window` decides
/// (the calendar's next window).
pub fn compare(
    plan: &Plan,
    req: &Request,
    today: CivilDate,
    window: Window,
    lang: Language,
) -> Result<Choice, AppError> {
    let needs = || AppError::FailedPrecondition(Precondition::ReformChoiceNeedsSimples);
    let data: pb::FinanceData =
        proto_json::from_json(plan.section(Step::Finance).data.clone()).map_err(|_| needs())?;
    let inputs = finance::plan_inputs(plan, &data).ok_or_else(needs)?;
    let Basis::Simples { annex, rbt12, effective, from_mei: None, .. } = inputs.tax else {
        return Err(needs());
    };
    let month = finance::analyse(&inputs).month;
    let revenue = month.revenue;
    let start = format!("{:04}-{}-01", window.year, if window.half == 1 { "01" } else { "07" });
    let (pis_cofins_share, local_share) =
        super::taxes::simples_shares(annex, rbt12, &today.iso()).ok_or_else(needs)?;
    let (period, _) = facts::taxes().cbs_ibs.period_on(&start);
    let reform = &period.value;
    let rate = reform.cbs() + reform.ibs();
    let inside = revenue * effective;
    let pis_cofins = inside * pis_cofins_share;
    let local = inside * local_share;
    let on_sales = (revenue - local).max(0.0) * rate;
    let (purchases, estimated) = match req.monthly_purchases {
        Some(p) => (p, false),
        None => (month.variable_costs, true),
    };
    let purchase_credits = purchases * rate;
    let outside = (inside - pis_cofins) + (on_sales - purchase_credits).max(0.0);
    let (b2b_share, assumed) = match req.b2b_share {
        Some(share) => (share, false),
        None => (0.5, true),
    };
    let customers_gain = b2b_share * (on_sales - pis_cofins).max(0.0);
    let c = super::cents;
    let mut choice = Choice {
        inside: c(inside),
        outside: c(outside),
        difference: c(outside) - c(inside),
        b2b_share,
        purchase_credits: c(purchase_credits),
        customers_gain: c(customers_gain),
        window,
        explanation: String::new(),
    };
    let premise = period.provisional.as_ref();
    let words =
        Words { annex: annex.key(), effective, revenue, pis_cofins, rate, estimated, assumed, premise };
    choice.explanation = words.explain(&choice, lang);
    Ok(choice)
}

/// What the explanation needs besides the figures.
struct Words<'a> {
    annex: &'a str,
    effective: f64,
    revenue: f64,
    pis_cofins: f64,
    rate: f64,
    estimated: bool,
    assumed: bool,
    premise: Option<&'a facts::Provisional>,
}

fn percent(share: f64, lang: Language) -> String {
    let text = format!("{:.2}", share * 100.0);
    lang.decimal(&text)
}

impl Words<'_> {
    fn explain(&self, c: &Choice, lang: Language) -> String {
        let brl = |v: f64| format_brl(v, lang);
        let w = c.window;
        let by = w.by.written_in(lang);
        let half = say!(lang, "money-reform-choice-half-of-year", half = w.half, year = w.year);
        let purchases = if self.estimated {
            say!(lang, "money-reform-choice-purchases-estimated")
        } else {
            String::new()
        };
        let share = percent(c.b2b_share, lang);
        let assumed =
            if self.assumed { say!(lang, "money-reform-choice-share-assumed") } else { String::new() };
        let verdict = if c.difference <= 0.0 {
            say!(lang, "money-reform-choice-outside-costs-you-less")
        } else if c.customers_gain > c.difference {
            say!(lang, "money-reform-choice-outside-costs-more-a-month", difference = brl(c.difference))
        } else {
            say!(lang, "money-reform-choice-inside-the-das-you-pay", difference = brl(c.difference))
        };
        let premise =
            self.premise.map(|p| format!(" ⚠️ {} ({}).", p.text(lang), p.source)).unwrap_or_default();
        let source = facts::get("tax_reform.simples_choice_rules").citation(lang);
        say!(
            lang,
            "money-reform-choice-inside-the-das-a-month",
            inside = brl(c.inside),
            annex = self.annex,
            effective = percent(self.effective, lang),
            revenue = brl(self.revenue),
            pis_cofins = brl(self.pis_cofins),
            brl = brl(c.inside - self.pis_cofins),
            rate = percent(self.rate, lang),
            purchase_credits = brl(c.purchase_credits),
            purchases,
            outside = brl(c.outside),
            difference = brl(c.difference),
            share,
            assumed,
            customers_gain = brl(c.customers_gain),
            verdict,
            by,
            half,
            premise,
            source
        )
    }
}

#[cfg(test)]
mod tests;
