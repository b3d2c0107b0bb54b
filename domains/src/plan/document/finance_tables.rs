//! The financial plan's computed tables in the plan document — the monthly income statement, the
//! indicators (break-even, payback, profitability, return), the three scenarios and the
//! twelve-month cash flow — from `finance`'s analysis, worded in the reader's language.

use super::Table;
use crate::locale::Language;
use crate::plan::money::{
    finance::{self, Analysis, Inputs},
    format_brl, format_number,
};

/// The financial section's tables, in the document's order.
pub fn tables(inputs: &Inputs, a: &Analysis, lang: Language) -> Vec<Table> {
    vec![income_statement(a, lang), indicators(a, lang), scenarios(inputs, a, lang), cash_flow(a, lang)]
}

fn item(lang: Language) -> String {
    say!(lang, "document-finance-tables-item")
}

fn not_reached(lang: Language) -> String {
    say!(lang, "document-finance-tables-not-reached")
}

fn months(m: f64, lang: Language) -> String {
    say!(lang, "document-finance-tables-months", months = format_number(m, 1, lang))
}

fn income_statement(a: &Analysis, lang: Language) -> Table {
    let brl = |v: f64| format_brl(v, lang);
    Table {
        title: say!(lang, "document-finance-tables-income-statement-monthly"),
        columns: vec![item(lang), say!(lang, "document-finance-tables-monthly-amount")],
        rows: vec![
            vec![say!(lang, "document-finance-tables-gross-revenue"), brl(a.month.revenue)],
            vec![say!(lang, "document-finance-tables-taxes"), brl(a.month.taxes)],
            vec![say!(lang, "document-finance-tables-variable-costs"), brl(a.month.variable_costs)],
            vec![say!(lang, "document-finance-tables-contribution-margin"), brl(a.month.contribution)],
            vec![say!(lang, "document-finance-tables-fixed-costs"), brl(a.month.fixed_costs)],
            vec![say!(lang, "document-finance-tables-result"), brl(a.month.result)],
        ],
        prose: false,
    }
}

fn indicators(a: &Analysis, lang: Language) -> Table {
    let brl = |v: f64| format_brl(v, lang);
    let none = not_reached(lang);
    let nothing_invested: String = say!(lang, "document-finance-tables-nothing-invested-to-recover");
    Table {
        title: say!(lang, "document-finance-tables-indicators"),
        columns: vec![item(lang), say!(lang, "document-finance-tables-value")],
        rows: vec![
            vec![
                say!(lang, "document-finance-tables-contribution-margin-per-sale"),
                brl(a.contribution_margin),
            ],
            vec![
                say!(lang, "document-finance-tables-break-even-sales-month"),
                a.break_even_sales.map(|v| format_number(v.ceil(), 0, lang)).unwrap_or_else(|| none.clone()),
            ],
            vec![
                say!(lang, "document-finance-tables-break-even-revenue-month"),
                a.break_even_revenue.map(brl).unwrap_or_else(|| none.clone()),
            ],
            vec![
                say!(lang, "document-finance-tables-payback-period"),
                match a.payback_months {
                    Some(m) => months(m, lang),
                    None if a.total_investment <= 0.0 => nothing_invested.clone(),
                    None => none.clone(),
                },
            ],
            vec![
                say!(lang, "document-finance-tables-profitability-result-revenue"),
                a.profitability_percent
                    .map(|p| format!("{} %", format_number(p, 1, lang)))
                    .unwrap_or_else(|| none.clone()),
            ],
            vec![
                say!(lang, "document-finance-tables-return-result-investment-a-month"),
                match a.return_percent_per_month {
                    Some(p) => format!("{} %", format_number(p, 1, lang)),
                    None if a.total_investment <= 0.0 => nothing_invested.clone(),
                    None => none.clone(),
                },
            ],
        ],
        prose: false,
    }
}

fn scenarios(inputs: &Inputs, a: &Analysis, lang: Language) -> Table {
    let brl = |v: f64| format_brl(v, lang);
    let none = not_reached(lang);
    Table {
        title: say!(lang, "document-finance-tables-scenarios-sales-20-below-as"),
        columns: vec![
            say!(lang, "document-finance-tables-scenario"),
            say!(lang, "document-finance-tables-sales-month"),
            say!(lang, "document-finance-tables-revenue"),
            say!(lang, "document-finance-tables-result-2"),
            say!(lang, "document-finance-tables-payback"),
        ],
        rows: finance::scenarios(inputs)
            .iter()
            .map(|s| {
                vec![
                    match s.kind {
                        finance::ScenarioKind::Pessimistic => {
                            say!(lang, "document-finance-tables-pessimistic")
                        }
                        finance::ScenarioKind::Realistic => say!(lang, "document-finance-tables-realistic"),
                        finance::ScenarioKind::Optimistic => say!(lang, "document-finance-tables-optimistic"),
                    },
                    format_number(s.sales_per_month, 0, lang),
                    brl(s.month.revenue),
                    brl(s.month.result),
                    match s.payback_months {
                        Some(m) => months(m, lang),
                        None if a.total_investment <= 0.0 => "—".into(), // nothing to recover
                        None => none.clone(),
                    },
                ]
            })
            .collect(),
        prose: false,
    }
}

fn cash_flow(a: &Analysis, lang: Language) -> Table {
    let brl = |v: f64| format_brl(v, lang);
    Table {
        title: say!(lang, "document-finance-tables-cash-flow-projection-12-months"),
        columns: vec![
            say!(lang, "document-finance-tables-month"),
            say!(lang, "document-finance-tables-result-2"),
            say!(lang, "document-finance-tables-cumulative-balance"),
        ],
        rows: a
            .cash_flow
            .iter()
            .map(|m| vec![m.month.to_string(), brl(m.result), brl(m.cumulative)])
            .collect(),
        prose: false,
    }
}
