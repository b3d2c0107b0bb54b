//! The model's `analyze_finance` tool: the numbers of any answer come from the server's maths
//! (`plan::money::finance`), never from the model's arithmetic. It runs on the figures saved in the
//! person's plan, any of them replaced by hypothetical ones the person asks about ("e se eu vender
//! 20% a mais?", "e se o aluguel subir para 3 mil?"), and answers contribution margin, break-even
//! in sales and revenue, the month's income statement, the viability indicators, payback, the
//! 12-month cash flow and the three scenarios — or which figures are missing.

use serde_json::{Value as Json, json};

use crate::{
    locale::Language,
    plan::{
        money::{
            checks,
            finance::{self, Inputs},
            taxes,
        },
        sections::Step,
        store::Plan,
    },
    proto::{json as proto_json, socio::v1 as pb},
};

pub const NAME: &str = "analyze_finance";

/// The tool as the model sees it.
pub fn definition() -> Json {
    let number = |description: &str| json!({"type": "number", "description": description});
    json!({"type": "function", "function": {
        "name": NAME,
        "description": "Computes the business's finances with the server's maths: contribution margin, break-even (sales and revenue per month), the monthly income statement, profitability (lucratividade), monthly return (rentabilidade), payback (prazo de retorno), the 12-month cash flow and three scenarios (sales 20% below, as expected, 20% above). Uses the figures saved in the plan; pass any figure to try a hypothetical one instead, or salesChangePercent / priceChangePercent for 'what if I sell 20% more?'. Use it for every number you tell the user.",
        "parameters": {"type": "object", "properties": {
            "startupCosts": number("investimento inicial, reais"),
            "workingCapital": number("capital de giro, reais"),
            "monthlyFixedCosts": number("custos fixos mensais, reais"),
            "averageTicket": number("ticket médio (preço médio por venda), reais"),
            "variableCostPerSale": number("custo variável por venda, reais"),
            "variableCostPercent": number("custo variável em % do preço, when not in reais"),
            "expectedSalesPerMonth": number("vendas por mês"),
            "salesChangePercent": number("change the expected sales by this percent (20 = 20% more, -10 = 10% fewer)"),
            "priceChangePercent": number("change the average ticket by this percent")
        }}
    }})
}

/// The tool's answer, as JSON for the model (the engine adds the months recorded).
pub fn run(plan: &Plan, args: &Json) -> Json {
    let saved: pb::FinanceData =
        proto_json::from_json(plan.section(Step::Finance).data.clone()).unwrap_or_default();
    let number = |key: &str| args.get(key).and_then(Json::as_f64).filter(|v| v.is_finite());
    let data = pb::FinanceData {
        startup_costs: number("startupCosts").or(saved.startup_costs),
        working_capital: number("workingCapital").or(saved.working_capital),
        monthly_fixed_costs: number("monthlyFixedCosts").or(saved.monthly_fixed_costs),
        average_ticket: number("averageTicket").or(saved.average_ticket),
        variable_cost_per_sale: number("variableCostPerSale").or(saved.variable_cost_per_sale),
        variable_cost_percent: number("variableCostPercent").or(saved.variable_cost_percent),
        expected_sales_per_month: number("expectedSalesPerMonth")
            .map(|v| v.max(0.0).round() as i32)
            .or(saved.expected_sales_per_month),
        ..saved
    };
    let Some(mut inputs) = finance::finance_inputs(&data) else {
        let missing: Vec<&str> = [
            ("averageTicket", data.average_ticket.is_none()),
            ("expectedSalesPerMonth", data.expected_sales_per_month.is_none()),
        ]
        .into_iter()
        .filter_map(|(name, absent)| absent.then_some(name))
        .collect();
        return json!({"error": "not enough figures: ask the user for them (or pass hypothetical ones)", "missing": missing});
    };
    let hypothetical = args.as_object().is_some_and(|a| !a.is_empty());
    if let Some(change) = number("salesChangePercent") {
        inputs.expected_sales_per_month *= (1.0 + change / 100.0).max(0.0);
    }
    if let Some(change) = number("priceChangePercent") {
        inputs.average_ticket *= (1.0 + change / 100.0).max(0.0);
    }
    // The taxes of the plan's regime, on the revenue these figures give.
    inputs.tax = taxes::of_plan(plan, inputs.average_ticket * inputs.expected_sales_per_month, &data);
    answer(Some(plan), &inputs, hypothetical, crate::locale::current())
}

fn money(v: f64) -> Json {
    json!((v * 100.0).round() / 100.0)
}

fn one_decimal(v: f64) -> Json {
    json!((v * 10.0).round() / 10.0)
}

fn answer(plan: Option<&Plan>, inputs: &Inputs, hypothetical: bool, lang: Language) -> Json {
    let a = finance::analyse(inputs);
    let warnings: Vec<Json> = checks::warnings(plan, inputs, &a, lang)
        .into_iter()
        .map(|w| json!({"code": w.code, "message": w.message}))
        .collect();
    let month = |m: &finance::Month| {
        json!({"revenue": money(m.revenue), "taxes": money(m.taxes), "variableCosts": money(m.variable_costs), "contribution": money(m.contribution),
               "fixedCosts": money(m.fixed_costs), "result": money(m.result)})
    };
    let scenarios: Vec<Json> = finance::scenarios(inputs)
        .iter()
        .map(|s| {
            json!({"scenario": s.kind.key(), "salesPerMonth": one_decimal(s.sales_per_month), "month": month(&s.month),
                   "paybackMonths": s.payback_months.map(one_decimal), "profitabilityPercent": s.profitability_percent.map(one_decimal)})
        })
        .collect();
    json!({
        "figures": if hypothetical { "the plan's figures with the hypothetical ones given" } else { "the plan's saved figures" },
        "inputs": {"startupCosts": money(inputs.startup_costs), "workingCapital": money(inputs.working_capital),
                   "monthlyFixedCosts": money(inputs.monthly_fixed_costs), "averageTicket": money(inputs.average_ticket),
                   "variableCostPerSale": money(a.variable_cost_per_sale), "expectedSalesPerMonth": one_decimal(inputs.expected_sales_per_month)},
        "contributionMarginPerSale": money(a.contribution_margin),
        "contributionMarginPercent": a.contribution_ratio.map(|r| one_decimal(r * 100.0)),
        "breakEvenSalesPerMonth": a.break_even_sales.map(f64::ceil),
        "breakEvenRevenuePerMonth": a.break_even_revenue.map(money),
        "month": month(&a.month),
        "totalInvestment": money(a.total_investment),
        "paybackMonths": a.payback_months.map(one_decimal),
        "profitabilityPercent": a.profitability_percent.map(one_decimal),
        "returnPercentPerMonth": a.return_percent_per_month.map(one_decimal),
        "cashFlow": a.cash_flow.iter().map(|m| json!({"month": m.month, "cumulative": money(m.cumulative)})).collect::<Vec<_>>(),
        "scenarios": scenarios,
        "taxes": {"regime": inputs.tax.regime(), "effectiveRatePercent": json!((inputs.tax.rate() * 10_000.0).round() / 100.0),
                  "monthlyFixed": money(inputs.tax.fixed()), "modelled": inputs.tax.modelled(), "explanation": inputs.tax.explain(lang)},
        "warnings": warnings,
        "note": "null means not reached (no margin or no profit). Quote these numbers as they are; amounts in reais. The month's result is after taxes: say which regime and rate were used (taxes.explanation). If warnings is not empty, raise each one with the user first and ask them to confirm or correct the figure."
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::money::finance::examples::bakery;

    #[test]
    fn the_answer_carries_the_server_s_figures_rounded_for_quoting() {
        let a = answer(None, &bakery(), false, Language::PtBr);
        assert_eq!(a["breakEvenSalesPerMonth"], json!(534.0));
        assert_eq!(a["breakEvenRevenuePerMonth"], json!(13_333.33));
        assert_eq!(a["month"]["result"], json!(7_000.0));
        assert_eq!(a["paybackMonths"], json!(8.6));
        assert_eq!(a["profitabilityPercent"], json!(28.0));
        assert_eq!(a["scenarios"][0]["month"]["result"], json!(4_000.0));
        assert_eq!(a["scenarios"][2]["scenario"], "optimistic");
        assert_eq!(a["cashFlow"].as_array().unwrap().len(), 12);
        assert_eq!(a["taxes"]["modelled"], json!(false), "no regime: said, not silent");
        assert!(a["warnings"].as_array().unwrap().is_empty());
        let wrong = Inputs { average_ticket: 35.0, variable_cost_per_sale: Some(900.0), ..bakery() };
        let warned = answer(None, &wrong, false, Language::PtBr);
        assert_eq!(
            warned["warnings"][0]["code"], "cost_above_price",
            "the model is handed the warning to raise"
        );
        let mei = Inputs {
            tax: crate::plan::money::taxes::Basis::Mei {
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
        assert_eq!(answer(None, &mei, false, Language::PtBr)["month"]["taxes"], json!(87.05));
    }
}
