//! What to charge: Sebrae's markup divisor. Tax, card fees, commission, other variable costs, the
//! share of fixed costs and the margin are all shares of the *price*, so
//! `price = unit cost ÷ (1 − tax − card − commission − other − fixed − margin)` — not cost plus a
//! percentage (R$ 30 × 1,29 = R$ 38,70 leaves the 29 % short, because 29 % of R$ 38,70 is more than
//! R$ 8,70). The tax share is the owner's own, from the plan's one tax computation at its expected
//! revenue (a MEI's DAS over that revenue, the Simples' effective rate, Lucro Presumido's rates);
//! the fixed-costs share is the plan's fixed costs over that revenue. A service priced by the hour
//! adds `hours × (fixed costs + desired pró-labore) ÷ billable hours` to the unit cost instead (the
//! fixed costs are then inside the cost, not a share). One computation for the API, the model's
//! `price_product` tool, the guide and the builder (Sebrae, "Como calcular o preço de venda",
//! markup divisor).

use super::{cents, finance, format_brl, taxes::Basis};
use crate::plan::{price_request::Request, sections::Step, store::Plan};
use crate::{
    error::{AppError, Problem},
    locale::Language,
    proto::{json as proto_json, socio::v1 as pb},
};

/// The least share of the price left for the unit's cost: taxes, fees, fixed costs and margin
/// together take at most 95 %.
pub const MIN_COST_SHARE: f64 = 0.05;
/// The highest price worked out (R$ 1 bilhão): past it the figures are a typo.
const MAX_PRICE: f64 = 1.0e9;

/// One part of the price: its name, its share of the price (0 to 1) and its amount.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub code: &'static str,
    pub name: String,
    pub share: f64,
    pub amount: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Price {
    pub price: f64,
    pub divisor: f64,
    pub tax_share: f64,
    pub fixed_cost_share: f64,
    /// The cost of a unit, the hourly part included.
    pub unit_cost: f64,
    pub parts: Vec<Part>,
    /// Taxes charged on top of the price, on the invoice (the CBS and IBS of a company outside the
    /// Simples from 2027); empty when none.
    pub taxes_on_top: Vec<Part>,
    /// What the invoice says: the price plus the taxes on top.
    pub invoice_total: f64,
    pub warnings: Vec<String>,
    pub explanation: String,
}

/// What the plan says that pricing uses.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanFigures {
    pub monthly_revenue: f64,
    pub monthly_fixed_costs: f64,
    pub average_ticket: f64,
    /// The plan's result over its revenue.
    pub margin: f64,
    pub tax: Basis,
}

impl PlanFigures {
    /// From a saved plan's finance step, with its taxes; None without a ticket and sales.
    pub fn of(plan: &Plan) -> Option<Self> {
        let data: pb::FinanceData = proto_json::from_json(plan.section(Step::Finance).data.clone()).ok()?;
        let inputs = finance::plan_inputs(plan, &data)?;
        let month = finance::analyse(&inputs).month;
        Some(Self {
            monthly_revenue: month.revenue,
            monthly_fixed_costs: inputs.monthly_fixed_costs,
            average_ticket: inputs.average_ticket,
            margin: if month.revenue > 0.0 { month.result / month.revenue } else { 0.0 },
            tax: inputs.tax,
        })
    }

    /// The share of the price that its taxes take at the plan's revenue — those charged on top
    /// (the CBS and IBS) are not inside the price: None when the plan's taxes are not computed (no
    /// regime, something missing, Lucro Real).
    fn tax_share(&self) -> Option<f64> {
        (self.tax.modelled() && self.monthly_revenue > 0.0)
            .then(|| self.tax.inside_price(self.monthly_revenue) / self.monthly_revenue)
    }
}

/// A number as people read it, up to two decimals: "3", "1,5" ("1.5" in English).
fn number(value: f64, lang: Language) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.').to_owned();
    lang.decimal(&text)
}

fn percent_words(share: f64, lang: Language) -> String {
    number(share * 100.0, lang)
}

/// One share of the price: its code, its name and the share.
type Share = (&'static str, String, f64);

/// The price of one unit, with its parts, from the owner's figures and their plan's (None: no plan
/// with finance figures — the price then leaves tax and fixed costs out, and says so).
pub fn price(req: &Request, plan: Option<&PlanFigures>, lang: Language) -> Result<Price, AppError> {
    let mut warnings = Vec::new();
    let tax_share = match plan.map(|p| (p, p.tax_share())) {
        Some((_, Some(share))) => share,
        Some((p, None)) => {
            warnings.push(say!(lang, "money-pricing-taxes-left-out-of-the", tax = p.tax.explain(lang)));
            0.0
        }
        None => {
            warnings.push(say!(lang, "money-pricing-without-the-financial-plan-average"));
            0.0
        }
    };
    let (unit_cost, hourly_cost) = unit_cost(req, plan);
    // By the hour the fixed costs are in the hour's cost already.
    let fixed_cost_share = match plan {
        Some(p) if req.include_fixed_costs && hourly_cost.is_none() && p.monthly_revenue > 0.0 => {
            p.monthly_fixed_costs / p.monthly_revenue
        }
        _ => 0.0,
    };
    let shares = shares(req, tax_share, fixed_cost_share, lang);
    let divisor = 1.0 - shares.iter().map(|(_, _, s)| s).sum::<f64>();
    let price = checked_price(req, unit_cost, divisor)?;
    let mut parts = vec![Part {
        code: "cost",
        name: say!(lang, "money-pricing-cost"),
        share: unit_cost / price,
        amount: cents(unit_cost),
    }];
    parts.extend(shares.iter().filter(|(_, _, s)| *s > 0.0).map(|(code, name, s)| Part {
        code,
        name: name.clone(),
        share: *s,
        amount: cents(price * s),
    }));
    if let Some(p) = plan {
        warnings.extend(against_the_plan(req, p, price, lang));
    }
    let taxes_on_top: Vec<Part> = plan
        .map(|p| p.tax.on_top_of(price))
        .unwrap_or_default()
        .into_iter()
        .map(|(code, name, share, amount)| Part { code, name: name.to_owned(), share, amount: cents(amount) })
        .collect();
    let invoice_total = cents(price + taxes_on_top.iter().map(|t| t.amount).sum::<f64>());
    let mut explanation = explain(req, &shares, (unit_cost, hourly_cost), divisor, price, lang);
    if !taxes_on_top.is_empty() {
        explanation.push(' ');
        explanation.push_str(&explain_the_invoice(&taxes_on_top, plan, price, invoice_total, lang));
    }
    Ok(Price {
        price,
        divisor,
        tax_share,
        fixed_cost_share,
        unit_cost,
        parts,
        taxes_on_top,
        invoice_total,
        warnings,
        explanation,
    })
}

/// The unit's cost, and what an hour costs when it is priced by the hour: the plan's fixed costs
/// and the owner's pay over the hours they can bill in a month.
fn unit_cost(req: &Request, plan: Option<&PlanFigures>) -> (f64, Option<f64>) {
    match req.hourly {
        Some(h) => {
            let fixed = plan.map_or(0.0, |p| p.monthly_fixed_costs);
            let per_hour = (fixed + h.desired_pro_labore) / h.billable_hours_per_month;
            (req.unit_cost + h.hours_per_unit * per_hour, Some(per_hour))
        }
        None => (req.unit_cost, None),
    }
}

/// The shares of the price that go to something other than the cost, in the order they are told.
fn shares(req: &Request, tax_share: f64, fixed_cost_share: f64, lang: Language) -> [Share; 6] {
    [
        ("tax", say!(lang, "money-pricing-taxes"), tax_share),
        ("card_fee", say!(lang, "money-pricing-card-fees"), req.card_fee),
        ("commission", say!(lang, "money-pricing-commission"), req.commission),
        ("other_variable", say!(lang, "money-pricing-other-variable-costs"), req.other_variable),
        ("fixed_costs", say!(lang, "money-pricing-fixed-costs"), fixed_cost_share),
        ("margin", say!(lang, "money-pricing-margin"), req.target_margin),
    ]
}

/// The cost over what the shares leave of the price, refused when they leave (almost) nothing or
/// the price would be past any real one.
fn checked_price(req: &Request, unit_cost: f64, divisor: f64) -> Result<f64, AppError> {
    if divisor < MIN_COST_SHARE - 1e-9 {
        // The shares leave (almost) nothing for the cost: say so on the margin, the owner's own
        // choice — a divisor of 0,000001 would price a R$ 10 cost at R$ 10 milhões.
        let field = if req.target_margin > 0.0 { "targetMarginPercent" } else { "cardFeePercent" };
        return Err(AppError::invalid(
            field,
            Problem::Format(said!("money-pricing-format-a-margin-that-leaves-at")),
        ));
    }
    let price = cents(unit_cost / divisor);
    if !price.is_finite() || price > MAX_PRICE {
        return Err(AppError::invalid(
            "unitCost",
            Problem::Format(said!("money-pricing-format-a-cost-that-gives-a")),
        ));
    }
    Ok(price)
}

/// What the plan says of the price: a margin below the plan's, a price far from its ticket.
fn against_the_plan(req: &Request, plan: &PlanFigures, price: f64, lang: Language) -> Vec<String> {
    let brl = |v: f64| format_brl(v, lang);
    let mut warnings = Vec::new();
    if req.target_margin + 1e-9 < plan.margin {
        warnings.push(say!(
            lang,
            "money-pricing-a-margin-is-below-your",
            target_margin = percent_words(req.target_margin, lang),
            margin = percent_words(plan.margin, lang)
        ));
    }
    if plan.average_ticket > 0.0 && (price - plan.average_ticket).abs() > plan.average_ticket * 0.5 {
        warnings.push(say!(
            lang,
            "money-pricing-is-far-from-your-plan",
            price = brl(price),
            average_ticket = brl(plan.average_ticket)
        ));
    }
    warnings
}

/// The working, as the owner can redo it: the cost (by the hour, with its parts), the divisor the
/// shares leave, and the shares.
fn explain(
    req: &Request,
    shares: &[Share],
    (unit_cost, hourly_cost): (f64, Option<f64>),
    divisor: f64,
    price: f64,
    lang: Language,
) -> String {
    let brl = |v: f64| format_brl(v, lang);
    let cost_words = match (req.hourly, hourly_cost) {
        (Some(h), Some(per_hour)) => say!(
            lang,
            "money-pricing-a-cost-of-of-materials",
            unit_cost = brl(unit_cost),
            unit_cost2 = brl(req.unit_cost),
            hours_per_unit = number(h.hours_per_unit, lang),
            per_hour = brl(per_hour),
            billable_hours_per_month = number(h.billable_hours_per_month, lang)
        ),
        _ => say!(lang, "money-pricing-a-cost-of", unit_cost = brl(unit_cost)),
    };
    let listed: Vec<String> = shares
        .iter()
        .filter(|(_, _, s)| *s > 0.0)
        .map(|(_, name, s)| format!("{} {} %", name.to_lowercase(), percent_words(*s, lang)))
        .collect();
    let divisor_words = lang.decimal(&format!("{divisor:.4}"));
    say!(
        lang,
        "money-pricing-price-cost-1-the-price",
        unit_cost = brl(unit_cost),
        divisor_words,
        price = brl(price),
        cost_words,
        listed = listed.join(", ")
    )
}

/// The invoice's total with the taxes charged on top of the price (the CBS and IBS), and the
/// premise their rates rest on while they are one.
fn explain_the_invoice(
    taxes_on_top: &[Part],
    plan: Option<&PlanFigures>,
    price: f64,
    invoice_total: f64,
    lang: Language,
) -> String {
    let brl = |v: f64| format_brl(v, lang);
    let named: Vec<String> = taxes_on_top
        .iter()
        .map(|t| format!("{} {} % = {}", t.name, percent_words(t.share, lang), brl(t.amount)))
        .collect();
    let premise = plan.and_then(|p| p.tax.premise()).map(|why| format!(" ⚠️ {}.", why.text(lang)));
    say!(
        lang,
        "money-pricing-on-the-invoice-cbs-ibs",
        price = brl(price),
        invoice_total = brl(invoice_total),
        named = named.join(", "),
        premise = premise.unwrap_or_default()
    )
}

#[cfg(test)]
mod tests;
