//! The plan as the contracts show it: its sections, status and steps, the finance analysis with
//! its warnings and taxes, its document, and a change of the feed with its source. The builder,
//! the dashboard, the admin's view of a user and the export show the same plan, so their adapters
//! take its mappers from here.

use crate::{
    api::timestamp,
    plan::{
        money::{checks, finance, taxes},
        sections::Step,
        store::{self, Plan},
    },
    proto::{json, socio::v1 as pb},
};

pub fn status_proto(status: store::Status) -> pb::PlanStatus {
    match status {
        store::Status::Draft => pb::PlanStatus::Draft,
        store::Status::InProgress => pb::PlanStatus::InProgress,
        store::Status::Completed => pb::PlanStatus::Completed,
    }
}

pub fn step_states(plan: &Plan) -> Vec<pb::PlanStepState> {
    plan.sections
        .iter()
        .map(|s| pb::PlanStepState {
            id: s.step.proto() as i32,
            completed: s.completed,
            icon: s.step.icon().into(),
            updated_at: Some(timestamp(s.updated_at)),
        })
        .collect()
}

pub(super) fn section<M: prost::Message + prost::Name + Default>(plan: &Plan, step: Step) -> Option<M> {
    json::from_json(plan.section(step).data.clone()).ok()
}

pub fn plan_proto(plan: &Plan) -> pb::BusinessPlan {
    pb::BusinessPlan {
        id: plan.id.clone(),
        user_id: plan.user_id.clone(),
        status: status_proto(plan.status()) as i32,
        progress: plan.progress(),
        steps: step_states(plan),
        idea_data: section(plan, Step::Idea),
        market_data: section(plan, Step::Market),
        finance_data: section(plan, Step::Finance),
        marketing_data: section(plan, Step::Marketing),
        hr_data: section(plan, Step::Hr),
        legal_data: section(plan, Step::Legal),
        document: plan.document.as_ref().map(|d| document_proto(d, plan)),
        created_at: Some(timestamp(plan.created_at)),
        updated_at: Some(timestamp(plan.updated_at)),
        finance_analysis: section::<pb::FinanceData>(plan, Step::Finance)
            .as_ref()
            .and_then(|data| finance::plan_inputs(plan, data))
            .map(|inputs| finance_proto(plan, &inputs)),
    }
}

/// How the taxes were worked out, with the month's lines at its revenue.
fn tax_proto(tax: &taxes::Basis, revenue: f64, lang: crate::locale::Language) -> pb::TaxBasis {
    pb::TaxBasis {
        regime: tax.regime().into(),
        annex: tax.annex().map(|a| a.key().to_owned()).unwrap_or_default(),
        effective_rate_percent: tax.effective_at(revenue) * 100.0,
        rbt12: match tax {
            taxes::Basis::Simples { rbt12, .. } => *rbt12,
            _ => 0.0,
        },
        monthly_fixed: tax.fixed(),
        explanation: tax.explain(lang),
        modelled: tax.modelled(),
        fator_r_percent: match tax {
            taxes::Basis::Simples { fator_r, .. } => fator_r.map(|r| r * 100.0),
            _ => None,
        },
        lines: tax
            .lines(revenue, lang)
            .into_iter()
            .map(|l| pb::TaxLine {
                code: l.code.into(),
                name: l.name,
                // To the centavo, as an invoice says it (8,7 % × 38.000 is 3.306,00, not 3305.9999…).
                amount: crate::plan::money::cents(l.amount),
                on_top: l.on_top,
            })
            .collect(),
        cnae: match tax {
            taxes::Basis::Simples { cnae: Some(cnae), .. } => cnae.clone(),
            _ => String::new(),
        },
    }
}

pub(super) fn finance_proto(plan: &Plan, inputs: &finance::Inputs) -> pb::FinanceAnalysis {
    let a = &finance::analyse(inputs);
    let scenarios = finance::scenarios(inputs);
    let lang = crate::locale::current();
    pb::FinanceAnalysis {
        monthly_taxes: a.month.taxes,
        tax: Some(tax_proto(&inputs.tax, a.month.revenue, lang)),
        warnings: checks::warnings(Some(plan), inputs, a, lang)
            .into_iter()
            .map(|w| pb::FinanceWarning { code: w.code.into(), message: w.message })
            .collect(),
        profitability_percent: a.profitability_percent,
        return_percent_per_month: a.return_percent_per_month,
        scenarios: scenarios
            .iter()
            .map(|s| pb::FinanceScenario {
                kind: match s.kind {
                    finance::ScenarioKind::Pessimistic => pb::ScenarioKind::Pessimistic,
                    finance::ScenarioKind::Realistic => pb::ScenarioKind::Realistic,
                    finance::ScenarioKind::Optimistic => pb::ScenarioKind::Optimistic,
                } as i32,
                sales_per_month: s.sales_per_month,
                monthly_revenue: s.month.revenue,
                monthly_result: s.month.result,
                payback_months: s.payback_months,
                profitability_percent: s.profitability_percent,
            })
            .collect(),
        variable_cost_per_sale: a.variable_cost_per_sale,
        contribution_margin: a.contribution_margin,
        contribution_ratio: a.contribution_ratio,
        break_even_sales: a.break_even_sales,
        break_even_revenue: a.break_even_revenue,
        monthly_revenue: a.month.revenue,
        monthly_variable_costs: a.month.variable_costs,
        monthly_contribution: a.month.contribution,
        monthly_fixed_costs: a.month.fixed_costs,
        monthly_result: a.month.result,
        total_investment: a.total_investment,
        payback_months: a.payback_months,
        cash_flow: a
            .cash_flow
            .iter()
            .map(|m| pb::CashFlowMonth { month: m.month as i32, result: m.result, cumulative: m.cumulative })
            .collect(),
    }
}

pub fn document_proto(document: &store::Document, plan: &Plan) -> pb::PlanDocumentInfo {
    pb::PlanDocumentInfo {
        version: document.version,
        generated_at: Some(timestamp(document.generated_at)),
        markdown: document.markdown.clone(),
        current: plan.current_document().is_some_and(|d| d.version == document.version),
    }
}
