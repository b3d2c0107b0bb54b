//! Figures worth a second look, said instead of silently accepted: a cost per sale at or above the
//! price, a contribution margin under 10 %, a MEI whose expected year passes the ceiling or with
//! more than one employee, fixed costs with no sales, an investment with no funding source, a tax
//! that cannot be computed yet (a service business's CNAE, the split of commerce and services). The
//! builder shows them beside the numbers, the model's `analyze_finance` returns them (and is asked
//! to raise them), the PDF lists them.

use super::{
    finance::{Analysis, Inputs},
    format_brl,
    taxes::{Basis, MeiRules},
};
use crate::plan::{sections::Step, store::Plan};
use crate::{facts, locale::Language};

/// A contribution margin under this share of the price is thin.
pub const THIN_MARGIN: f64 = 0.10;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub code: &'static str,
    pub message: String,
}

/// The warnings of a plan's figures (`plan` gives the team and the funding source when known).
pub fn warnings(plan: Option<&Plan>, inputs: &Inputs, a: &Analysis, lang: Language) -> Vec<Warning> {
    let mut found = Vec::new();
    found.extend(margin(inputs, a, lang));
    found.extend(fixed_costs_without_sales(inputs, lang));
    // A MEI, or one past its ceiling's tolerance computed as the company it becomes.
    match &inputs.tax {
        Basis::Mei { rules, .. } | Basis::Simples { from_mei: Some(rules), .. } => {
            found.extend(mei_limits(plan, a, *rules, lang))
        }
        _ => {}
    }
    if let Basis::Needs { .. } = inputs.tax {
        found.push(Warning { code: "tax_incomplete", message: inputs.tax.explain(lang) });
    }
    found.extend(investment_without_funding(plan, inputs, lang));
    found
}

/// A price that does not cover each sale's cost, or leaves a thin margin.
fn margin(inputs: &Inputs, a: &Analysis, lang: Language) -> Option<Warning> {
    let brl = |v: f64| format_brl(v, lang);
    let mut found = None;
    let mut warn = |code: &'static str, message: String| found = Some(Warning { code, message });
    let ticket = inputs.average_ticket;
    if ticket > 0.0 && a.variable_cost_per_sale >= ticket {
        warn(
            "cost_above_price",
            say!(
                lang,
                "money-checks-each-sale-costs-for-a",
                variable_cost_per_sale = brl(a.variable_cost_per_sale),
                ticket = brl(ticket)
            ),
        );
    } else if a.contribution_ratio.is_some_and(|r| r < THIN_MARGIN) {
        let ratio = lang.decimal(&format!("{:.1}", a.contribution_ratio.unwrap_or_default() * 100.0));
        warn(
            "thin_margin",
            say!(
                lang,
                "money-checks-little-is-left-of-each",
                contribution_margin = brl(a.contribution_margin),
                ratio
            ),
        );
    }
    found
}

fn fixed_costs_without_sales(inputs: &Inputs, lang: Language) -> Option<Warning> {
    let brl = |v: f64| format_brl(v, lang);
    let mut found = None;
    let mut warn = |code: &'static str, message: String| found = Some(Warning { code, message });
    if inputs.monthly_fixed_costs > 0.0 && inputs.expected_sales_per_month <= 0.0 {
        warn(
            "fixed_costs_without_sales",
            say!(
                lang,
                "money-checks-there-are-of-fixed-costs",
                monthly_fixed_costs = brl(inputs.monthly_fixed_costs)
            ),
        );
    }
    found
}

/// What an MEI cannot be: over the yearly ceiling at the expected pace (the `rules` in force on the
/// day the taxes were computed for), or more than its one employee.
fn mei_limits(plan: Option<&Plan>, a: &Analysis, rules: MeiRules, lang: Language) -> Vec<Warning> {
    let brl = |v: f64| format_brl(v, lang);
    let mut found = Vec::new();
    let mut warn = |code: &'static str, message: String| found.push(Warning { code, message });
    let year = a.month.revenue * 12.0;
    let ceiling = rules.ceiling;
    if year > ceiling.yearly {
        let tolerated = year <= ceiling.tolerated();
        let computed = say!(lang, "money-checks-ceiling-computed", tolerated);
        warn(
            "mei_ceiling",
            say!(
                lang,
                "money-checks-at-the-expected-pace-the",
                year = brl(year),
                yearly = brl(ceiling.yearly),
                get = facts::get(&ceiling.tolerance_fact).text(lang),
                computed
            ),
        );
    }
    let team = plan.and_then(|p| p.section(Step::Hr).data["teamSize"].as_i64());
    if team.is_some_and(|t| t > 2) {
        warn(
            "mei_employees",
            say!(
                lang,
                "money-checks-a-team-of-people-does",
                team = team.unwrap_or_default(),
                get = facts::get("mei.employees").text(lang)
            ),
        );
    }

    found
}

/// A startup investment with no source of money named in the plan.
fn investment_without_funding(plan: Option<&Plan>, inputs: &Inputs, lang: Language) -> Option<Warning> {
    let brl = |v: f64| format_brl(v, lang);
    let mut found = None;
    let mut warn = |code: &'static str, message: String| found = Some(Warning { code, message });
    let funding = plan.and_then(|p| {
        p.section(Step::Finance).data["fundingSource"].as_str().map(str::trim).map(str::to_owned)
    });
    if inputs.startup_costs > 0.0 && plan.is_some() && funding.as_deref().is_none_or(str::is_empty) {
        warn(
            "investment_without_funding",
            say!(
                lang,
                "money-checks-the-startup-investment-of-has",
                startup_costs = brl(inputs.startup_costs)
            ),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::money::finance::{analyse, tests::bakery};

    fn codes(inputs: &Inputs) -> Vec<&'static str> {
        warnings(None, inputs, &analyse(inputs), Language::PtBr).iter().map(|w| w.code).collect()
    }

    #[test]
    fn a_cost_per_sale_above_the_price_is_said_not_accepted() {
        let wrong = Inputs { average_ticket: 35.0, variable_cost_per_sale: Some(900.0), ..bakery() };
        let found = warnings(None, &wrong, &analyse(&wrong), Language::PtBr);
        assert_eq!(found[0].code, "cost_above_price");
        assert!(
            found[0].message.contains("900,00") && found[0].message.contains("35,00"),
            "{}",
            found[0].message
        );
        assert!(codes(&bakery()).is_empty(), "Sebrae's bakery is fine");
    }

    #[test]
    fn a_thin_margin_fixed_costs_without_sales_and_a_mei_past_its_ceiling_are_warned() {
        assert_eq!(codes(&Inputs { variable_cost_per_sale: Some(23.0), ..bakery() }), ["thin_margin"]);
        assert_eq!(
            codes(&Inputs { expected_sales_per_month: 0.0, ..bakery() }),
            ["fixed_costs_without_sales"]
        );
        let mei = Inputs {
            tax: Basis::Mei {
                activity: None,
                das: 87.05,
                excess: None,
                expired: None,
                fact: "mei.das",
                estimate: None,
                rules: crate::plan::money::taxes::MeiRules::on("2026-06-01"),
            },
            ..bakery()
        };
        assert_eq!(codes(&mei), ["mei_ceiling"], "R$ 25.000 a month is R$ 300.000 a year");
    }
}
