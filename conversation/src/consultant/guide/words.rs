//! What the guide says besides its questions: the menu and help, the plan's progress, the recap of
//! a finished step with a practical tip (the finance step's from the plan's own figures), the
//! closing words.

use serde_json::Value as Json;

use crate::{
    consultant::{
        questions::{Answer, QUESTIONS},
        replies::Links,
    },
    locale::Language,
    plan::{
        advice, labels,
        money::{checks, finance, format_brl},
        sections::Step,
        store::Plan,
    },
    proto::{json, socio::v1 as pb},
};

pub(super) fn step_name(step: Step, lang: Language) -> String {
    match step {
        Step::Idea => say!(lang, "guide-words-business-idea"),
        Step::Market => say!(lang, "guide-words-market"),
        Step::Finance => say!(lang, "guide-words-finance"),
        Step::Marketing => say!(lang, "guide-words-marketing"),
        Step::Hr => say!(lang, "guide-words-people"),
        Step::Legal => say!(lang, "guide-words-legal-and-tax"),
    }
}

pub(super) fn menu(lang: Language) -> String {
    say!(lang, "guide-words-menu-progress-how-your-plan")
}

pub(super) fn help(lang: Language) -> String {
    say!(lang, "guide-words-i-ask-about-each-step")
}

pub(super) fn progress(plan: &Plan, lang: Language) -> String {
    let lines: Vec<String> = plan
        .sections
        .iter()
        .map(|s| format!("{} {}", if s.completed { "✅" } else { "⬜" }, step_name(s.step, lang)))
        .collect();
    format!("{} {}%\n{}", say!(lang, "guide-words-your-plan-is-at"), plan.progress(), lines.join("\n"))
}

pub(super) fn finished(links: &Links, lang: Language) -> String {
    say!(lang, "guide-words-congratulations-every-step-of-your", links = links.builder())
}

/// A whole number with the language's thousands separator: "1.500" ("1,500" in English).
fn grouped(value: f64, lang: Language) -> String {
    let digits = format!("{:.0}", value.abs());
    let separator = lang.separators().0;
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(separator);
        }
        out.push(c);
    }
    if value < -0.5 { format!("-{out}") } else { out }
}

/// What a recap line calls a field: a few words, never the question cut short ("porte", not
/// "E o porte, pelo faturamento do ano: ME").
pub(super) fn field_label(field: &str, lang: Language) -> String {
    match field {
        "businessIdea" => say!(lang, "guide-field-business-idea"),
        "problem" => say!(lang, "guide-field-problem"),
        "differentiator" => say!(lang, "guide-field-differentiator"),
        "stage" => say!(lang, "guide-field-stage"),
        "industry" => say!(lang, "guide-field-industry"),
        "targetCustomer" => say!(lang, "guide-field-target-customer"),
        "competitors" => say!(lang, "guide-field-competitors"),
        "location" => say!(lang, "guide-field-location"),
        "strengths" => say!(lang, "guide-field-strengths"),
        "weaknesses" => say!(lang, "guide-field-weaknesses"),
        "opportunities" => say!(lang, "guide-field-opportunities"),
        "threats" => say!(lang, "guide-field-threats"),
        "startupCosts" => say!(lang, "guide-field-startup-costs"),
        "workingCapital" => say!(lang, "guide-field-working-capital"),
        "monthlyFixedCosts" => say!(lang, "guide-field-monthly-fixed-costs"),
        "averageTicket" => say!(lang, "guide-field-average-ticket"),
        "variableCostPerSale" => say!(lang, "guide-field-variable-cost-per-sale"),
        "expectedSalesPerMonth" => say!(lang, "guide-field-expected-sales-per-month"),
        "fundingSource" => say!(lang, "guide-field-funding-source"),
        "monthlyWages" => say!(lang, "guide-field-monthly-wages"),
        "monthlyProLabore" => say!(lang, "guide-field-monthly-pro-labore"),
        "channels" => say!(lang, "guide-field-channels"),
        "positioning" => say!(lang, "guide-field-positioning"),
        "launchPlan" => say!(lang, "guide-field-launch-plan"),
        "teamSize" => say!(lang, "guide-field-team-size"),
        "roles" => say!(lang, "guide-field-roles"),
        "partners" => say!(lang, "guide-field-partners"),
        "businessType" => say!(lang, "guide-field-business-type"),
        "companySize" => say!(lang, "guide-field-company-size"),
        "taxRegime" => say!(lang, "guide-field-tax-regime"),
        "activity" => say!(lang, "guide-field-activity"),
        "cnae" => say!(lang, "guide-field-cnae"),
        "cnpjStatus" => say!(lang, "guide-field-cnpj-status"),
        "profession" => say!(lang, "guide-field-profession"),
        "licences" => say!(lang, "guide-field-licences"),
        _ => String::new(),
    }
}

pub(super) fn recap(plan: &Plan, step: Step, lang: Language) -> String {
    let data = &plan.section(step).data;
    let lines: Vec<String> = QUESTIONS
        .iter()
        .filter(|q| q.step == step)
        .filter_map(|q| {
            let value = data.get(q.field)?;
            let shown = match value {
                Json::String(s) if !s.is_empty() && s != "unspecified" => {
                    labels::of(q.field, s, lang).unwrap_or_else(|| s.clone())
                }
                // Amounts and counts as people read them ("R$ 21.000,00", "1.500"), not as stored.
                Json::Number(n) => {
                    let n = n.as_f64().unwrap_or_default();
                    match q.answer {
                        Answer::Money | Answer::CostPerSale => format_brl(n, lang),
                        _ => grouped(n, lang),
                    }
                }
                Json::Array(items) if !items.is_empty() => {
                    items.iter().filter_map(Json::as_str).collect::<Vec<_>>().join(", ")
                }
                _ => return None,
            };
            Some(format!("• {}: {shown}", field_label(q.field, lang)))
        })
        .collect();
    if lines.is_empty() {
        String::new()
    } else {
        format!("{}\n{}", say!(lang, "guide-words-summary"), lines.join("\n"))
    }
}

pub(super) fn tip(plan: &Plan, step: Step, lang: Language) -> String {
    match step {
        Step::Idea => {
            advice::idea_tip(plan.section(Step::Idea).data["stage"].as_str().unwrap_or_default(), lang)
        }
        Step::Market => say!(lang, "guide-words-tip-visit-or-follow-3"),
        Step::Finance => finance_tip(plan, lang),
        Step::Marketing => say!(lang, "guide-words-tip-start-with-one-or"),
        Step::Hr => advice::people_tip(form(plan), lang),
        Step::Legal => {
            let day = crate::clock::CivilDate::in_sao_paulo(plan.updated_at).iso();
            // Someone who already has a CNPJ hears how to keep it in order, not how to open one.
            let advice = match plan.section(Step::Legal).data["cnpjStatus"].as_str() {
                Some("active") => advice::registered_tip(form(plan), &day, lang),
                _ => advice::legal_tip(form(plan), &day, lang),
            };
            match after_taxes(plan, lang) {
                // The regime is known now: the month's numbers are said again, after its taxes.
                Some(restated) => format!("{advice}\n{restated}"),
                None => advice,
            }
        }
    }
}

/// The month's result after the regime's taxes, with the figures worth a second look (each once,
/// in words), once the plan has both its numbers and a regime the taxes can be computed in.
fn after_taxes(plan: &Plan, lang: Language) -> Option<String> {
    let data: pb::FinanceData = json::from_json(plan.section(Step::Finance).data.clone()).ok()?;
    let inputs = finance::plan_inputs(plan, &data)?;
    let a = finance::analyse(&inputs);
    let brl = |v: f64| format_brl(v, lang);
    let mut said = match inputs.tax.modelled() {
        true => say!(
            lang,
            "guide-words-with-the-regime-you-chose",
            taxes = brl(a.month.taxes),
            result = brl(a.month.result)
        ),
        false if inputs.tax == crate::plan::money::taxes::Basis::NotChosen => return None,
        false => format!("📊 {}", inputs.tax.explain(lang)),
    };
    for warning in checks::warnings(Some(plan), &inputs, &a, lang) {
        if warning.code != "tax_incomplete" {
            said.push_str(&format!("\n⚠️ {}", warning.message));
        }
    }
    Some(said)
}

/// The plan's legal form, as the advice needs it.
pub(super) fn form(plan: &Plan) -> advice::Form {
    advice::Form::of(&plan.section(Step::Legal).data)
}

/// Whether the plan's numbers include its taxes (a regime they can be computed in).
fn inputs_taxed(plan: &Plan) -> bool {
    let data: Option<pb::FinanceData> = json::from_json(plan.section(Step::Finance).data.clone()).ok();
    data.as_ref().and_then(|d| finance::plan_inputs(plan, d)).is_some_and(|i| i.tax.modelled())
}

pub(super) fn finance_tip(plan: &Plan, lang: Language) -> String {
    let data: Option<pb::FinanceData> = json::from_json(plan.section(Step::Finance).data.clone()).ok();
    let Some(a) = data.as_ref().and_then(|d| finance::plan_inputs(plan, d)).map(|i| finance::analyse(&i))
    else {
        return say!(lang, "guide-words-tip-keep-a-reserve-of");
    };
    let brl = |v: f64| format_brl(v, lang);
    let break_even = match (a.break_even_sales, a.break_even_revenue) {
        (Some(sales), Some(revenue)) => {
            say!(lang, "guide-words-your-break-even-point-is", sales = sales.ceil(), revenue = brl(revenue))
        }
        _ => say!(lang, "guide-words-careful-each-sale-costs-more"),
    };
    // Labelled: before the regime is known (the Legal step comes after) the result is before taxes,
    // and the Legal step says it again after them.
    let result = match inputs_taxed(plan) {
        true => say!(
            lang,
            "guide-words-with-the-sales-you-expect",
            taxes = brl(a.month.taxes),
            result = brl(a.month.result)
        ),
        false => say!(lang, "guide-words-with-the-sales-you-expect-2", result = brl(a.month.result)),
    };
    format!("📊 {break_even} {result}\n💡 {}", say!(lang, "guide-words-tip-keep-a-reserve-of-2"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_question_has_a_short_label_in_both_languages_that_is_not_its_question() {
        for q in QUESTIONS {
            for lang in [Language::PtBr, Language::En] {
                let label = field_label(q.field, lang);
                assert!(
                    !label.is_empty() && label.len() <= 30 && !label.contains(':'),
                    "{}: {label:?}",
                    q.field
                );
            }
        }
    }
}
