//! The plan's finance maths (Sebrae's formulas), pure: contribution margin, break-even in sales and
//! in reais, the month's simplified income statement (DRE), payback, the viability indicators
//! (lucratividade, rentabilidade, prazo de retorno), a 12-month cash-flow projection and three
//! scenarios (pessimistic, realistic, optimistic: sales 20% below or above what is expected).
//! Amounts are reais; undefined results (no margin, no profit) are None, never infinity. Taxes
//! (`taxes::Basis`) sit between revenue and the variable costs: a rate on revenue (the Simples)
//! lowers every sale's margin, a fixed DAS (the MEI) adds to what break-even must cover.

use super::taxes::Basis;
use crate::{plan::store::Plan, proto::socio::v1 as pb};

/// What the user told us about money.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    pub startup_costs: f64,
    pub working_capital: f64,
    pub monthly_fixed_costs: f64,
    pub average_ticket: f64,
    /// Per sale in reais, plus `variable_cost_percent` of the ticket (either may be absent).
    pub variable_cost_per_sale: Option<f64>,
    pub variable_cost_percent: Option<f64>,
    pub expected_sales_per_month: f64,
    /// How taxes are worked out (none until a regime is chosen).
    pub tax: Basis,
}

/// One month of the simplified income statement (DRE): revenue − taxes − variable costs =
/// contribution − fixed costs = result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Month {
    pub revenue: f64,
    pub taxes: f64,
    pub variable_costs: f64,
    pub contribution: f64,
    pub fixed_costs: f64,
    pub result: f64,
}

/// One month of the cash-flow projection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CashFlowMonth {
    /// 1 to 12.
    pub month: u32,
    pub result: f64,
    /// The cash position: minus the investment, plus every month's result so far.
    pub cumulative: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub variable_cost_per_sale: f64,
    /// Ticket minus variable cost, per sale.
    pub contribution_margin: f64,
    /// Contribution margin over the ticket, 0 to 1.
    pub contribution_ratio: Option<f64>,
    /// Sales per month that cover the fixed costs.
    pub break_even_sales: Option<f64>,
    /// Revenue per month that covers the fixed costs.
    pub break_even_revenue: Option<f64>,
    pub month: Month,
    /// Startup costs plus working capital.
    pub total_investment: f64,
    /// Months for the monthly result to pay the investment back (prazo de retorno).
    pub payback_months: Option<f64>,
    /// Lucratividade: the month's result over its revenue, in percent.
    pub profitability_percent: Option<f64>,
    /// Rentabilidade: the month's result over the total investment, in percent a month.
    pub return_percent_per_month: Option<f64>,
    pub cash_flow: Vec<CashFlowMonth>,
}

/// How far sales fall short of, or beat, what is expected in the scenarios.
pub const SCENARIO_SWING_PERCENT: f64 = 20.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioKind {
    Pessimistic,
    Realistic,
    Optimistic,
}

impl ScenarioKind {
    pub fn key(self) -> &'static str {
        match self {
            ScenarioKind::Pessimistic => "pessimistic",
            ScenarioKind::Realistic => "realistic",
            ScenarioKind::Optimistic => "optimistic",
        }
    }
}

/// One scenario: the sales it assumes and what they come to.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub kind: ScenarioKind,
    pub sales_per_month: f64,
    pub month: Month,
    pub payback_months: Option<f64>,
    pub profitability_percent: Option<f64>,
}

/// The three scenarios Sebrae's plan builds: sales [`SCENARIO_SWING_PERCENT`] below what is
/// expected, as expected, and above.
pub fn scenarios(inputs: &Inputs) -> Vec<Scenario> {
    [
        (ScenarioKind::Pessimistic, 1.0 - SCENARIO_SWING_PERCENT / 100.0),
        (ScenarioKind::Realistic, 1.0),
        (ScenarioKind::Optimistic, 1.0 + SCENARIO_SWING_PERCENT / 100.0),
    ]
    .into_iter()
    .map(|(kind, factor)| {
        let sales = inputs.expected_sales_per_month.max(0.0) * factor;
        let a = analyse(&Inputs { expected_sales_per_month: sales, ..inputs.clone() });
        Scenario {
            kind,
            sales_per_month: sales,
            month: a.month,
            payback_months: a.payback_months,
            profitability_percent: a.profitability_percent,
        }
    })
    .collect()
}

pub fn analyse(inputs: &Inputs) -> Analysis {
    let ticket = inputs.average_ticket.max(0.0);
    // Reais a sale, a share of the price, or both (material plus the card machine's fee).
    let variable = (inputs.variable_cost_per_sale.unwrap_or(0.0)
        + inputs.variable_cost_percent.map_or(0.0, |p| ticket * p / 100.0))
    .max(0.0);
    let fixed = inputs.monthly_fixed_costs.max(0.0);
    let sales = inputs.expected_sales_per_month.max(0.0);
    let revenue = ticket * sales;
    // A sale's margin after the tax it adds at the expected revenue; a fixed tax is covered like a
    // fixed cost.
    let margin = ticket * (1.0 - inputs.tax.linear_at(revenue).0) - variable;
    let ratio = (ticket > 0.0).then(|| margin / ticket);
    let (break_even_sales, break_even_revenue) = break_even(&inputs.tax, ticket, variable, fixed);
    let taxes = inputs.tax.monthly(revenue);
    let variable_costs = variable * sales;
    let contribution = revenue - taxes - variable_costs;
    let month = Month {
        revenue,
        taxes,
        variable_costs,
        contribution,
        fixed_costs: fixed,
        result: contribution - fixed,
    };
    let total_investment = inputs.startup_costs.max(0.0) + inputs.working_capital.max(0.0);
    // Nothing invested is nothing to recover: no "0 months".
    let payback_months =
        (month.result > 0.0 && total_investment > 0.0).then(|| total_investment / month.result);
    let profitability_percent = (revenue > 0.0).then(|| month.result * 100.0 / revenue);
    let return_percent_per_month = (total_investment > 0.0).then(|| month.result * 100.0 / total_investment);
    let cash_flow = (1..=12u32)
        .map(|m| CashFlowMonth {
            month: m,
            result: month.result,
            cumulative: -total_investment + month.result * f64::from(m),
        })
        .collect();
    Analysis {
        variable_cost_per_sale: variable,
        contribution_margin: margin,
        contribution_ratio: ratio,
        break_even_sales,
        break_even_revenue,
        month,
        total_investment,
        payback_months,
        profitability_percent,
        return_percent_per_month,
        cash_flow,
    }
}

/// Sales and revenue a month that cover the fixed costs and the taxes: solved on the tax's piece
/// that holds the answer (Lucro Presumido's IRPJ additional makes its tax piecewise linear).
fn break_even(tax: &Basis, ticket: f64, variable: f64, fixed: f64) -> (Option<f64>, Option<f64>) {
    let mut piece = tax.linear_at(0.0);
    let mut answer = (None, None);
    for _ in 0..4 {
        let (rate, tax_fixed) = piece;
        let margin = ticket * (1.0 - rate) - variable;
        if margin <= 0.0 || ticket <= 0.0 {
            return (None, None);
        }
        let sales = (fixed + tax_fixed) / margin;
        answer = (Some(sales), Some(sales * ticket));
        let next = tax.linear_at(sales * ticket);
        if (next.0 - rate).abs() < 1e-9 && (next.1 - tax_fixed).abs() < 1e-6 {
            break;
        }
        piece = next;
    }
    answer
}

/// The finance inputs the user gave, if enough to compute anything.
pub fn finance_inputs(data: &pb::FinanceData) -> Option<Inputs> {
    let (ticket, sales) = (data.average_ticket?, data.expected_sales_per_month?);
    Some(Inputs {
        startup_costs: data.startup_costs.unwrap_or(0.0),
        working_capital: data.working_capital.unwrap_or(0.0),
        monthly_fixed_costs: data.monthly_fixed_costs.unwrap_or(0.0),
        average_ticket: ticket,
        variable_cost_per_sale: data.variable_cost_per_sale,
        variable_cost_percent: data.variable_cost_percent,
        expected_sales_per_month: f64::from(sales),
        tax: Basis::NotChosen,
    })
}

/// [`finance_inputs`] with the plan's taxes (its legal step's regime and activity).
pub fn plan_inputs(plan: &Plan, data: &pb::FinanceData) -> Option<Inputs> {
    let mut inputs = finance_inputs(data)?;
    inputs.tax = super::taxes::of_plan(plan, inputs.average_ticket * inputs.expected_sales_per_month, data);
    Some(inputs)
}

/// The worked examples the docs and the tests (of this crate and the layers above) cite.
pub mod examples {
    use super::{Basis, Inputs};

    /// Sebrae's bakery: R$ 60,000 invested, 1,000 sales a month at R$ 25 costing R$ 10 each.
    pub fn bakery() -> Inputs {
        Inputs {
            startup_costs: 50_000.0,
            working_capital: 10_000.0,
            monthly_fixed_costs: 8_000.0,
            average_ticket: 25.0,
            variable_cost_per_sale: Some(10.0),
            variable_cost_percent: None,
            expected_sales_per_month: 1_000.0,
            tax: Basis::NotChosen,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    pub(crate) use super::examples::bakery;
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6 * (1.0 + a.abs().max(b.abs()))
    }

    /// The worked example: a bakery in Annex I at R$ 432.000 a year — R$ 18.000 fixed,
    /// R$ 18 ticket, 35 % variable plus 2 % card fees, 2.000 sales a month — pays 6,29 % and
    /// keeps about R$ 2.415, not the R$ 5.400 the numbers showed without taxes.
    #[test]
    fn a_simples_bakery_s_result_is_after_its_taxes() {
        let legal = serde_json::json!({"taxRegime": "simples_nacional", "activity": "commerce"});
        let inputs = Inputs {
            startup_costs: 0.0,
            working_capital: 0.0,
            monthly_fixed_costs: 18_000.0,
            average_ticket: 18.0,
            variable_cost_per_sale: None,
            variable_cost_percent: Some(37.0),
            expected_sales_per_month: 2_000.0,
            tax: crate::plan::money::taxes::basis(&legal, 36_000.0, &Default::default(), None, 0),
        };
        let a = analyse(&inputs);
        assert!(close(a.month.taxes, 2_265.0), "{}", a.month.taxes);
        assert!(close(a.month.result, 2_415.0), "{}", a.month.result);
        let untaxed = analyse(&Inputs { tax: Basis::NotChosen, variable_cost_percent: Some(35.0), ..inputs });
        assert!(close(untaxed.month.result, 5_400.0));
        // Break-even covers the tax on each sale: 18.000 ÷ (18 × (1 − 6,29 %) − 6,66).
        let margin = 18.0 * (1.0 - 2_265.0 / 36_000.0) - 6.66;
        assert!(close(a.break_even_sales.unwrap(), 18_000.0 / margin));
    }

    #[test]
    fn a_mei_s_das_is_a_fixed_cost_break_even_must_cover() {
        let inputs = Inputs {
            tax: Basis::Mei {
                activity: None,
                das: 82.05,
                excess: None,
                expired: None,
                fact: "mei.das",
                estimate: None,
                rules: crate::plan::money::taxes::MeiRules::on("2026-06-01"),
            },
            ..bakery()
        };
        let a = analyse(&inputs);
        assert_eq!(a.month.taxes, 82.05);
        assert!(close(a.month.result, 7_000.0 - 82.05));
        assert!(close(a.break_even_sales.unwrap(), 8_082.05 / 15.0));
        assert_eq!(a.contribution_margin, 15.0, "the DAS is not per sale");
    }

    #[test]
    fn a_bakery_s_numbers_come_out_as_sebrae_computes_them() {
        let a = analyse(&bakery());
        assert_eq!(a.contribution_margin, 15.0);
        assert_eq!(a.contribution_ratio, Some(0.6));
        assert!(close(a.break_even_sales.unwrap(), 533.333_333));
        assert!(close(a.break_even_revenue.unwrap(), 13_333.333_333));
        assert_eq!(
            a.month,
            Month {
                revenue: 25_000.0,
                taxes: 0.0,
                variable_costs: 10_000.0,
                contribution: 15_000.0,
                fixed_costs: 8_000.0,
                result: 7_000.0
            }
        );
        assert_eq!(a.total_investment, 60_000.0);
        assert!(close(a.payback_months.unwrap(), 8.571_428));
        assert_eq!(a.cash_flow.len(), 12);
        assert_eq!(a.cash_flow[0].cumulative, -53_000.0);
        assert_eq!(a.cash_flow[11].cumulative, 24_000.0);
        assert!(close(a.profitability_percent.unwrap(), 28.0), "lucratividade: 7.000 ÷ 25.000");
        assert!(close(a.return_percent_per_month.unwrap(), 11.666_666), "rentabilidade: 7.000 ÷ 60.000");
    }

    #[test]
    fn the_scenarios_move_sales_twenty_percent_either_way() {
        let s = scenarios(&bakery());
        let kinds: Vec<_> = s.iter().map(|s| s.kind).collect();
        assert_eq!(kinds, [ScenarioKind::Pessimistic, ScenarioKind::Realistic, ScenarioKind::Optimistic]);
        assert_eq!(s.iter().map(|s| s.sales_per_month).collect::<Vec<_>>(), [800.0, 1_000.0, 1_200.0]);
        assert_eq!(s.iter().map(|s| s.month.result).collect::<Vec<_>>(), [4_000.0, 7_000.0, 10_000.0]);
        assert!(close(s[0].payback_months.unwrap(), 15.0));
        assert!(close(s[2].payback_months.unwrap(), 6.0));
    }

    #[test]
    fn a_percentage_variable_cost_is_taken_from_the_ticket() {
        let a =
            analyse(&Inputs { variable_cost_per_sale: None, variable_cost_percent: Some(40.0), ..bakery() });
        assert_eq!(a.variable_cost_per_sale, 10.0);
    }

    #[test]
    fn with_nothing_invested_there_is_no_payback_rather_than_zero_months() {
        let a = analyse(&Inputs { startup_costs: 0.0, working_capital: 0.0, ..bakery() });
        assert!(a.month.result > 0.0);
        assert_eq!((a.total_investment, a.payback_months), (0.0, None));
        assert!(
            scenarios(&Inputs { startup_costs: 0.0, working_capital: 0.0, ..bakery() })
                .iter()
                .all(|s| s.payback_months.is_none())
        );
    }

    #[test]
    fn without_margin_or_profit_there_is_no_break_even_or_payback() {
        let a = analyse(&Inputs { variable_cost_per_sale: Some(30.0), ..bakery() });
        assert_eq!(a.break_even_sales, None);
        assert_eq!(a.payback_months, None);
        let empty = analyse(&Inputs::default());
        assert_eq!(
            (empty.contribution_ratio, empty.break_even_sales, empty.payback_months),
            (None, None, None)
        );
    }

    #[test]
    fn at_the_break_even_point_the_month_s_result_is_zero_for_any_numbers() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |max: f64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 1_000_000) as f64 / 1_000_000.0 * max
        };
        for n in 0..1000 {
            let tax = match n % 3 {
                0 => Basis::NotChosen,
                1 => Basis::Mei {
                    activity: None,
                    das: next(100.0),
                    excess: None,
                    expired: None,
                    fact: "mei.das",
                    estimate: None,
                    rules: crate::plan::money::taxes::MeiRules::on("2026-06-01"),
                },
                _ => Basis::Simples {
                    annex: crate::plan::money::taxes::Annex::I,
                    rbt12: 0.0,
                    nominal: 0.0,
                    deduction: 0.0,
                    effective: next(0.3),
                    fator_r: None,
                    recorded_months: 0,
                    cnae: None,
                    cpp: next(1e3),
                    from_mei: None,
                    table: crate::facts::taxes().simples.value_on("2026-06-01"),
                    left_mei: None,
                },
            };
            let inputs = Inputs {
                startup_costs: next(1e6),
                working_capital: next(1e5),
                monthly_fixed_costs: next(1e5),
                average_ticket: next(1e3) + 0.01,
                variable_cost_per_sale: Some(next(1e3)),
                variable_cost_percent: None,
                expected_sales_per_month: next(1e4),
                tax,
            };
            let a = analyse(&inputs);
            assert!(close(a.month.contribution, a.month.revenue - a.month.taxes - a.month.variable_costs));
            if let Some(units) = a.break_even_sales {
                let at_break_even = analyse(&Inputs { expected_sales_per_month: units, ..inputs.clone() });
                assert!(
                    at_break_even.month.result.abs()
                        < 1e-6 * (1.0 + inputs.monthly_fixed_costs + inputs.tax.fixed()),
                    "{inputs:?}"
                );
            }
            let last = a.cash_flow.last().unwrap();
            assert!(close(last.cumulative, -a.total_investment + 12.0 * a.month.result));
            if let Some(months) = a.payback_months {
                assert!(
                    close(-a.total_investment + months * a.month.result, 0.0) || a.total_investment == 0.0
                );
            }
        }
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    fn amounts() -> impl Strategy<Value = Inputs> {
        (0.0..1e7f64, 0.0..1e6f64, 0.0..1e6f64, 0.01..1e5f64, 0.0..1.5f64, 0.0..1e5f64).prop_map(
            |(startup, working, fixed, ticket, variable_share, sales)| Inputs {
                startup_costs: startup,
                working_capital: working,
                monthly_fixed_costs: fixed,
                average_ticket: ticket,
                variable_cost_per_sale: Some(ticket * variable_share),
                variable_cost_percent: None,
                expected_sales_per_month: sales,
                tax: Basis::NotChosen,
            },
        )
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-6 * (1.0 + a.abs().max(b.abs()))
    }

    proptest! {
        #[test]
        fn selling_the_break_even_quantity_exactly_covers_the_fixed_costs(inputs in amounts()) {
            let a = analyse(&inputs);
            match a.break_even_sales {
                Some(units) => {
                    prop_assert!(a.contribution_margin > 0.0);
                    prop_assert!(close(units * a.contribution_margin, inputs.monthly_fixed_costs));
                    prop_assert!(close(a.break_even_revenue.unwrap(), units * inputs.average_ticket));
                }
                None => prop_assert!(a.contribution_margin <= 0.0, "no break-even only without margin"),
            }
        }

        #[test]
        fn the_month_adds_up_and_the_cash_flow_grows_by_the_month_s_result(inputs in amounts()) {
            let a = analyse(&inputs);
            let m = a.month;
            prop_assert!(close(m.contribution, m.revenue - m.variable_costs));
            prop_assert!(close(m.result, m.contribution - m.fixed_costs));
            prop_assert_eq!(a.cash_flow.len(), 12);
            prop_assert!(close(a.cash_flow[0].cumulative, m.result - a.total_investment));
            for pair in a.cash_flow.windows(2) {
                prop_assert!(close(pair[1].cumulative - pair[0].cumulative, m.result));
            }
            if let Some(payback) = a.payback_months {
                prop_assert!(m.result > 0.0);
                prop_assert!(close(payback * m.result, a.total_investment));
            }
        }

        #[test]
        fn nothing_is_ever_infinite_or_not_a_number(inputs in amounts(), percent in proptest::option::of(0.0..200.0f64)) {
            let inputs = Inputs { variable_cost_per_sale: percent.map(|_| inputs.average_ticket), variable_cost_percent: percent, ..inputs };
            let a = analyse(&inputs);
            let figures = [a.variable_cost_per_sale, a.contribution_margin, a.month.result, a.total_investment]
                .into_iter()
                .chain(a.contribution_ratio)
                .chain(a.break_even_sales)
                .chain(a.break_even_revenue)
                .chain(a.payback_months)
                .chain(a.cash_flow.iter().map(|c| c.cumulative));
            for figure in figures {
                prop_assert!(figure.is_finite(), "{figure}");
            }
        }
    }
}
