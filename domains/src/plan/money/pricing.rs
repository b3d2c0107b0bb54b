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
    lang.choose(text.replace('.', ","), text)
}

fn percent_words(share: f64, lang: Language) -> String {
    number(share * 100.0, lang)
}

/// The price of one unit, with its parts, from the owner's figures and their plan's (None: no plan
/// with finance figures — the price then leaves tax and fixed costs out, and says so).
pub fn price(req: &Request, plan: Option<&PlanFigures>, lang: Language) -> Result<Price, AppError> {
    let brl = |v: f64| format_brl(v, lang);
    let mut warnings = Vec::new();
    let tax_share = match plan.map(|p| (p, p.tax_share())) {
        Some((_, Some(share))) => share,
        Some((p, None)) => {
            warnings.push(lang.choose(
                format!("Impostos fora do preço: {}", p.tax.explain(lang)),
                format!("Taxes left out of the price: {}", p.tax.explain(lang)),
            ));
            0.0
        }
        None => 0.0,
    };
    let (unit_cost, hourly_cost) = match req.hourly {
        Some(h) => {
            let fixed = plan.map_or(0.0, |p| p.monthly_fixed_costs);
            let per_hour = (fixed + h.desired_pro_labore) / h.billable_hours_per_month;
            (req.unit_cost + h.hours_per_unit * per_hour, Some(per_hour))
        }
        None => (req.unit_cost, None),
    };
    // By the hour the fixed costs are in the hour's cost already.
    let fixed_cost_share = match plan {
        Some(p) if req.include_fixed_costs && hourly_cost.is_none() && p.monthly_revenue > 0.0 => {
            p.monthly_fixed_costs / p.monthly_revenue
        }
        _ => 0.0,
    };
    if plan.is_none() {
        warnings.push(lang.choose(
            "Sem o plano financeiro (ticket médio, vendas e custos fixos), o preço não inclui impostos nem custos fixos: preencha a etapa Finanças e o regime para vê-los.".to_owned(),
            "Without the financial plan (average ticket, sales and fixed costs), the price leaves out taxes and fixed costs: fill in the Finance step and the regime to see them.".to_owned(),
        ));
    }
    let shares = [
        ("tax", lang.choose("Impostos", "Taxes"), tax_share),
        ("card_fee", lang.choose("Taxas de cartão", "Card fees"), req.card_fee),
        ("commission", lang.choose("Comissão", "Commission"), req.commission),
        (
            "other_variable",
            lang.choose("Outros custos variáveis", "Other variable costs"),
            req.other_variable,
        ),
        ("fixed_costs", lang.choose("Custos fixos", "Fixed costs"), fixed_cost_share),
        ("margin", lang.choose("Margem", "Margin"), req.target_margin),
    ];
    let taken: f64 = shares.iter().map(|(_, _, s)| s).sum();
    let divisor = 1.0 - taken;
    if divisor < MIN_COST_SHARE - 1e-9 {
        // The shares leave (almost) nothing for the cost: say so on the margin, the owner's own
        // choice — a divisor of 0,000001 would price a R$ 10 cost at R$ 10 milhões.
        let field = if req.target_margin > 0.0 { "targetMarginPercent" } else { "cardFeePercent" };
        return Err(AppError::invalid(
            field,
            Problem::Format {
                pt_br: "uma margem que deixe ao menos 5 % do preço para o custo: impostos, taxas, custos fixos e margem somam mais de 95 %",
                en: "a margin that leaves at least 5 % of the price for the cost: taxes, fees, fixed costs and margin add up to more than 95 %",
            },
        ));
    }
    let price = cents(unit_cost / divisor);
    if !price.is_finite() || price > MAX_PRICE {
        return Err(AppError::invalid(
            "unitCost",
            Problem::Format {
                pt_br: "um custo que dê um preço de até R$ 1 bilhão: confira o custo e as horas",
                en: "a cost that gives a price of at most R$ 1 billion: check the cost and the hours",
            },
        ));
    }
    let mut parts = vec![Part {
        code: "cost",
        name: lang.choose("Custo", "Cost").to_owned(),
        share: unit_cost / price,
        amount: cents(unit_cost),
    }];
    parts.extend(shares.iter().filter(|(_, _, s)| *s > 0.0).map(|(code, name, s)| Part {
        code,
        name: (*name).to_owned(),
        share: *s,
        amount: cents(price * s),
    }));
    if let Some(p) = plan {
        if req.target_margin + 1e-9 < p.margin {
            warnings.push(lang.choose(
                format!(
                    "A margem de {} % é menor que a do seu plano ({} %).",
                    percent_words(req.target_margin, lang),
                    percent_words(p.margin, lang)
                ),
                format!(
                    "A {} % margin is below your plan's ({} %).",
                    percent_words(req.target_margin, lang),
                    percent_words(p.margin, lang)
                ),
            ));
        }
        if p.average_ticket > 0.0 && (price - p.average_ticket).abs() > p.average_ticket * 0.5 {
            warnings.push(lang.choose(
                format!(
                    "{} está longe do ticket médio do seu plano ({}): confira o custo ou ajuste o plano.",
                    brl(price),
                    brl(p.average_ticket)
                ),
                format!(
                    "{} is far from your plan's average ticket ({}): check the cost or update the plan.",
                    brl(price),
                    brl(p.average_ticket)
                ),
            ));
        }
    }
    let cost_words = match (req.hourly, hourly_cost) {
        (Some(h), Some(per_hour)) => lang.choose(
            format!(
                "custo de {} ({} de material + {} h × {} a hora, que são custos fixos e pró-labore ÷ {} horas faturáveis)",
                brl(unit_cost),
                brl(req.unit_cost),
                number(h.hours_per_unit, lang),
                brl(per_hour),
                number(h.billable_hours_per_month, lang)
            ),
            format!(
                "a cost of {} ({} of materials + {} h × {} an hour, the fixed costs and pró-labore ÷ {} billable hours)",
                brl(unit_cost),
                brl(req.unit_cost),
                number(h.hours_per_unit, lang),
                brl(per_hour),
                number(h.billable_hours_per_month, lang)
            ),
        ),
        _ => lang.choose(format!("custo de {}", brl(unit_cost)), format!("a cost of {}", brl(unit_cost))),
    };
    let listed: Vec<String> = shares
        .iter()
        .filter(|(_, _, s)| *s > 0.0)
        .map(|(_, name, s)| format!("{} {} %", name.to_lowercase(), percent_words(*s, lang)))
        .collect();
    let divisor_words = lang.choose(format!("{:.4}", divisor).replace('.', ","), format!("{divisor:.4}"));
    let explanation = lang.choose(
        format!(
            "Preço = custo ÷ (1 − partes do preço) = {} ÷ {divisor_words} = {} ({cost_words}; {}). Impostos, maquininha, comissão, custos fixos e margem saem do preço de cada venda, por isso dividem o custo em vez de somar ao custo: somar a porcentagem ao custo deixaria faltar dinheiro (método do markup divisor, Sebrae).",
            brl(unit_cost),
            brl(price),
            listed.join(", ")
        ),
        format!(
            "Price = cost ÷ (1 − the price's shares) = {} ÷ {divisor_words} = {} ({cost_words}; {}). Taxes, card fees, commission, fixed costs and margin come out of each sale's price, so they divide the cost instead of being added to it: adding the percentage to the cost would leave money short (the markup divisor, Sebrae).",
            brl(unit_cost),
            brl(price),
            listed.join(", ")
        ),
    );
    let taxes_on_top: Vec<Part> = plan
        .map(|p| p.tax.on_top_of(price))
        .unwrap_or_default()
        .into_iter()
        .map(|(code, name, share, amount)| Part { code, name: name.to_owned(), share, amount: cents(amount) })
        .collect();
    let invoice_total = cents(price + taxes_on_top.iter().map(|t| t.amount).sum::<f64>());
    let mut explanation = explanation;
    if !taxes_on_top.is_empty() {
        let named: Vec<String> = taxes_on_top
            .iter()
            .map(|t| format!("{} {} % = {}", t.name, percent_words(t.share, lang), brl(t.amount)))
            .collect();
        let premise = plan.and_then(|p| p.tax.premise()).map(|why| format!(" ⚠️ {}.", why.text(lang)));
        explanation.push(' ');
        explanation.push_str(&lang.choose(
            format!(
                "Na nota: {} + CBS/IBS = {} ({}): a CBS e o IBS são cobrados por fora do preço, sobre ele sem o ISS/ICMS, e o cliente empresa toma o crédito.{}",
                brl(price), brl(invoice_total), named.join(", "), premise.clone().unwrap_or_default()
            ),
            format!(
                "On the invoice: {} + CBS/IBS = {} ({}): the CBS and IBS are charged on top of the price, on it without ISS/ICMS, and a business customer takes the credit.{}",
                brl(price), brl(invoice_total), named.join(", "), premise.unwrap_or_default()
            ),
        ));
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

#[cfg(test)]
mod tests;
