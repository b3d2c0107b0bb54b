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

pub(super) fn step_name(step: Step, lang: Language) -> &'static str {
    match step {
        Step::Idea => lang.choose("Ideia de negócio", "Business idea"),
        Step::Market => lang.choose("Mercado", "Market"),
        Step::Finance => lang.choose("Finanças", "Finance"),
        Step::Marketing => "Marketing",
        Step::Hr => lang.choose("Pessoas", "People"),
        Step::Legal => lang.choose("Jurídico e impostos", "Legal and tax"),
    }
}

pub(super) fn menu(lang: Language) -> String {
    lang.choose(
        "📋 *Menu*\n• *progresso* — como está o seu plano\n• *plano* — o plano completo em PDF, aqui no WhatsApp\n• *resultados* — registrar o faturamento e os custos do mês passado\n• *painel* — links do plano e do painel\n• *pular* — pular a pergunta atual\n• *ajuda* — como funciono\n• *English* — switch to English",
        "📋 *Menu*\n• *progress* — how your plan is going\n• *plan* — the complete plan as a PDF, right here\n• *results* — record last month's revenue and costs\n• *dashboard* — links to your plan and dashboard\n• *skip* — skip the current question\n• *help* — how I work\n• *Português* — mudar para português",
    )
    .into()
}

pub(super) fn help(lang: Language) -> String {
    lang.choose(
        "Eu faço perguntas sobre cada etapa do seu plano (ideia, mercado, finanças, marketing, pessoas e jurídico) e guardo as respostas no seu plano, que você vê no painel. Responda do seu jeito; valores podem ser como \"R$ 1.500\" ou \"1,5 mil\". Diga *menu* para ver os comandos. Lembrando: minha orientação é educacional e não substitui um contador ou advogado.",
        "I ask about each step of your plan (idea, market, finance, marketing, people and legal) and save your answers into your plan, which you see on your dashboard. Answer in your own words; amounts can be like \"R$ 1,500\" or \"1.5k\". Say *menu* for the commands. Remember: my guidance is educational and does not replace an accountant or a lawyer.",
    )
    .into()
}

pub(super) fn progress(plan: &Plan, lang: Language) -> String {
    let lines: Vec<String> = plan
        .sections
        .iter()
        .map(|s| format!("{} {}", if s.completed { "✅" } else { "⬜" }, step_name(s.step, lang)))
        .collect();
    format!(
        "{} {}%\n{}",
        lang.choose("Seu plano está em", "Your plan is at"),
        plan.progress(),
        lines.join("\n")
    )
}

pub(super) fn finished(links: &Links, lang: Language) -> String {
    lang.choose(
        format!(
            "🎉 Parabéns! Todas as etapas do seu plano estão concluídas. Gere o plano completo em PDF no site: {}\n\nQuer revisar algo? Diga *progresso* ou *menu*.",
            links.builder()
        ),
        format!(
            "🎉 Congratulations! Every step of your plan is complete. Generate the complete plan as a PDF on the website: {}\n\nWant to review something? Say *progress* or *menu*.",
            links.builder()
        ),
    )
}

/// A whole number with the language's thousands separator: "1.500" ("1,500" in English).
fn grouped(value: f64, lang: Language) -> String {
    let digits = format!("{:.0}", value.abs());
    let separator = lang.choose('.', ',');
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
pub(super) fn field_label(field: &str, lang: Language) -> &'static str {
    let (pt, en) = match field {
        "businessIdea" => ("Ideia", "Idea"),
        "problem" => ("Problema que resolve", "Problem it solves"),
        "differentiator" => ("Diferencial", "What sets it apart"),
        "stage" => ("Fase", "Stage"),
        "industry" => ("Setor", "Industry"),
        "targetCustomer" => ("Cliente ideal", "Ideal customer"),
        "competitors" => ("Concorrentes", "Competitors"),
        "location" => ("Local", "Location"),
        "strengths" => ("Forças", "Strengths"),
        "weaknesses" => ("Fraquezas", "Weaknesses"),
        "opportunities" => ("Oportunidades", "Opportunities"),
        "threats" => ("Ameaças", "Threats"),
        "startupCosts" => ("Investimento inicial", "Start-up investment"),
        "workingCapital" => ("Capital de giro", "Working capital"),
        "monthlyFixedCosts" => ("Custos fixos por mês", "Fixed costs a month"),
        "averageTicket" => ("Ticket médio", "Average ticket"),
        "variableCostPerSale" => ("Custo por venda", "Cost per sale"),
        "expectedSalesPerMonth" => ("Vendas por mês", "Sales a month"),
        "fundingSource" => ("De onde vem o dinheiro", "Funding"),
        "monthlyWages" => ("Salários por mês", "Wages a month"),
        "monthlyProLabore" => ("Pró-labore por mês", "Pró-labore a month"),
        "channels" => ("Canais", "Channels"),
        "positioning" => ("Posicionamento", "Positioning"),
        "launchPlan" => ("Lançamento", "Launch"),
        "teamSize" => ("Pessoas", "People"),
        "roles" => ("Funções", "Roles"),
        "partners" => ("Sócios", "Partners"),
        "businessType" => ("Forma jurídica", "Legal form"),
        "companySize" => ("Porte", "Size"),
        "taxRegime" => ("Regime de impostos", "Tax regime"),
        "activity" => ("Atividade", "Activity"),
        "cnae" => ("CNAE", "CNAE"),
        "cnpjStatus" => ("CNPJ", "CNPJ"),
        "profession" => ("Profissão regulamentada", "Regulated profession"),
        "licences" => ("Licenças e alvarás", "Licences and permits"),
        _ => ("", ""),
    };
    lang.choose(pt, en)
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
                    labels::of(q.field, s, lang).map_or_else(|| s.clone(), str::to_owned)
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
        format!("{}\n{}", lang.choose("Resumo:", "Summary:"), lines.join("\n"))
    }
}

pub(super) fn tip(plan: &Plan, step: Step, lang: Language) -> String {
    match step {
        Step::Idea => advice::idea_tip(plan.section(Step::Idea).data["stage"].as_str().unwrap_or_default(), lang),
        Step::Market => lang.choose(
            "💡 Dica: visite ou siga 3 concorrentes e anote preços, atendimento e avaliações. A sua oportunidade está no que eles fazem mal.".to_owned(),
            "💡 Tip: visit or follow 3 competitors and note prices, service and reviews. Your opportunity is in what they do badly.".to_owned(),
        ),
        Step::Finance => finance_tip(plan, lang),
        Step::Marketing => lang.choose(
            "💡 Dica: comece com um ou dois canais e faça bem feito; peça avaliações e indicações aos primeiros clientes.".to_owned(),
            "💡 Tip: start with one or two channels and do them well; ask your first customers for reviews and referrals.".to_owned(),
        ),
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
        true => lang.choose(
            format!(
                "📊 Com o regime escolhido, os impostos ficam em {} por mês e o resultado mensal estimado, depois dos impostos, é {}.",
                brl(a.month.taxes),
                brl(a.month.result)
            ),
            format!(
                "📊 With the regime you chose, taxes come to {} a month and the estimated monthly result, after taxes, is {}.",
                brl(a.month.taxes),
                brl(a.month.result)
            ),
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
        return lang
            .choose(
                "💡 Dica: mantenha uma reserva de pelo menos 3 meses de custos fixos.",
                "💡 Tip: keep a reserve of at least 3 months of fixed costs.",
            )
            .into();
    };
    let brl = |v: f64| format_brl(v, lang);
    let break_even = match (a.break_even_sales, a.break_even_revenue) {
        (Some(sales), Some(revenue)) => lang.choose(
            format!(
                "Seu ponto de equilíbrio é de {} vendas por mês ({} de faturamento).",
                sales.ceil(),
                brl(revenue)
            ),
            format!("Your break-even point is {} sales a month ({} in revenue).", sales.ceil(), brl(revenue)),
        ),
        _ => lang
            .choose(
                "Atenção: o custo de cada venda é maior que o preço — assim não há ponto de equilíbrio.",
                "Careful: each sale costs more than its price — there is no break-even point.",
            )
            .into(),
    };
    // Labelled: before the regime is known (the Legal step comes after) the result is before taxes,
    // and the Legal step says it again after them.
    let result = match inputs_taxed(plan) {
        true => lang.choose(
            format!("Com as vendas que você espera, o resultado mensal estimado, depois dos impostos ({}), é {}.", brl(a.month.taxes), brl(a.month.result)),
            format!("With the sales you expect, the estimated monthly result, after taxes ({}), is {}.", brl(a.month.taxes), brl(a.month.result)),
        ),
        false => lang.choose(
            format!("Com as vendas que você espera, o resultado mensal estimado é {}, antes dos impostos: o regime vem na etapa Jurídico, e aí eu refaço a conta.", brl(a.month.result)),
            format!("With the sales you expect, the estimated monthly result is {}, before taxes: the regime comes in the Legal step, and I'll redo the sum then.", brl(a.month.result)),
        ),
    };
    format!(
        "📊 {break_even} {result}\n💡 {}",
        lang.choose(
            "Dica: mantenha uma reserva de pelo menos 3 meses de custos fixos.",
            "Tip: keep a reserve of at least 3 months of fixed costs."
        )
    )
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
