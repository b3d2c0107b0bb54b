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
    lang.choose("Item", "Item").into()
}

fn not_reached(lang: Language) -> String {
    lang.choose("não alcançado", "not reached").into()
}

fn months(m: f64, lang: Language) -> String {
    format!("{} {}", format_number(m, 1, lang), lang.choose("meses", "months"))
}

fn income_statement(a: &Analysis, lang: Language) -> Table {
    let brl = |v: f64| format_brl(v, lang);
    Table {
        title: lang.choose("Demonstrativo de resultado (mensal)", "Income statement (monthly)").into(),
        columns: vec![item(lang), lang.choose("Valor mensal", "Monthly amount").into()],
        rows: vec![
            vec![lang.choose("Receita bruta", "Gross revenue").into(), brl(a.month.revenue)],
            vec![lang.choose("(-) Impostos", "(-) Taxes").into(), brl(a.month.taxes)],
            vec![
                lang.choose("(-) Custos variáveis", "(-) Variable costs").into(),
                brl(a.month.variable_costs),
            ],
            vec![
                lang.choose("(=) Margem de contribuição", "(=) Contribution margin").into(),
                brl(a.month.contribution),
            ],
            vec![lang.choose("(-) Custos fixos", "(-) Fixed costs").into(), brl(a.month.fixed_costs)],
            vec![lang.choose("(=) Resultado", "(=) Result").into(), brl(a.month.result)],
        ],
        prose: false,
    }
}

fn indicators(a: &Analysis, lang: Language) -> Table {
    let brl = |v: f64| format_brl(v, lang);
    let none = not_reached(lang);
    let nothing_invested: String =
        lang.choose("sem investimento a recuperar", "nothing invested to recover").into();
    Table {
        title: lang.choose("Indicadores", "Indicators").into(),
        columns: vec![item(lang), lang.choose("Valor", "Value").into()],
        rows: vec![
            vec![
                lang.choose("Margem de contribuição por venda", "Contribution margin per sale").into(),
                brl(a.contribution_margin),
            ],
            vec![
                lang.choose("Ponto de equilíbrio (vendas/mês)", "Break-even (sales/month)").into(),
                a.break_even_sales.map(|v| format_number(v.ceil(), 0, lang)).unwrap_or_else(|| none.clone()),
            ],
            vec![
                lang.choose("Ponto de equilíbrio (faturamento/mês)", "Break-even (revenue/month)").into(),
                a.break_even_revenue.map(brl).unwrap_or_else(|| none.clone()),
            ],
            vec![
                lang.choose("Prazo de retorno do investimento", "Payback period").into(),
                match a.payback_months {
                    Some(m) => months(m, lang),
                    None if a.total_investment <= 0.0 => nothing_invested.clone(),
                    None => none.clone(),
                },
            ],
            vec![
                lang.choose("Lucratividade (resultado ÷ receita)", "Profitability (result ÷ revenue)").into(),
                a.profitability_percent
                    .map(|p| format!("{} %", format_number(p, 1, lang)))
                    .unwrap_or_else(|| none.clone()),
            ],
            vec![
                lang.choose(
                    "Rentabilidade (resultado ÷ investimento, ao mês)",
                    "Return (result ÷ investment, a month)",
                )
                .into(),
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
        title: lang
            .choose(
                "Cenários (vendas 20% abaixo, como esperado e 20% acima)",
                "Scenarios (sales 20% below, as expected and 20% above)",
            )
            .into(),
        columns: vec![
            lang.choose("Cenário", "Scenario").into(),
            lang.choose("Vendas/mês", "Sales/month").into(),
            lang.choose("Receita", "Revenue").into(),
            lang.choose("Resultado", "Result").into(),
            lang.choose("Retorno", "Payback").into(),
        ],
        rows: finance::scenarios(inputs)
            .iter()
            .map(|s| {
                vec![
                    match s.kind {
                        finance::ScenarioKind::Pessimistic => lang.choose("Pessimista", "Pessimistic"),
                        finance::ScenarioKind::Realistic => lang.choose("Realista", "Realistic"),
                        finance::ScenarioKind::Optimistic => lang.choose("Otimista", "Optimistic"),
                    }
                    .into(),
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
        title: lang.choose("Projeção de caixa — 12 meses", "Cash-flow projection — 12 months").into(),
        columns: vec![
            lang.choose("Mês", "Month").into(),
            lang.choose("Resultado", "Result").into(),
            lang.choose("Saldo acumulado", "Cumulative balance").into(),
        ],
        rows: a
            .cash_flow
            .iter()
            .map(|m| vec![m.month.to_string(), brl(m.result), brl(m.cumulative)])
            .collect(),
        prose: false,
    }
}
