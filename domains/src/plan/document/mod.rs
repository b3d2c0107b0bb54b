//! The complete plan document in Sebrae's structure — executive summary, market, marketing,
//! operations and people, legal and tax, the financial plan with its computed tables, next steps —
//! composed from the user's sections in their language. What is missing is named, never invented.
//! One model feeds both the Markdown and the PDF.

use serde::Serialize;
use serde_json::Value as Json;

mod finance_tables;

use super::{
    Plans, advice, labels,
    money::{
        checks,
        finance::{self, plan_inputs},
        format_brl, pricing, taxes,
    },
    price_request,
    sections::Step,
    store::{self, Plan},
};
use crate::{
    clock::CivilDate,
    error::AppError,
    identity::users::User,
    locale::Language,
    proto::{json, socio::v1 as pb},
};

/// Writes the complete plan from the sections, as the next version of the document.
pub async fn generate(
    plans: &Plans,
    user: &User,
    language: Language,
    overview: Option<&str>,
) -> Result<(Plan, store::Document), AppError> {
    let plan = plans.get_or_create(&user.id).await?;
    let model = model(&plan, user, language, overview, plans.db().now_ms());
    let markdown = to_markdown(&model);
    let model = serde_json::to_value(&model).map_err(|e| AppError::Internal(e.into()))?;
    let stored = store::store_document(plans.db(), &plan.id, language.tag(), &markdown, &model).await?;
    let plan = plans.find(&user.id).await?.unwrap_or(plan);
    Ok((plan, stored))
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Item {
    pub label: String,
    pub text: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Table {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Sentences, not figures (the SWOT): a narrow label column and a wide one for the text, both
    /// aligned left. Figures are aligned right under a wide first column.
    pub prose: bool,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DocSection {
    pub heading: String,
    pub items: Vec<Item>,
    pub tables: Vec<Table>,
    pub notes: Vec<String>,
    /// Set when the user has not filled this part in yet.
    pub missing: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DocModel {
    /// Typst's language code: "pt" or "en".
    pub lang: String,
    pub title: String,
    pub subtitle: String,
    pub generated_on: String,
    pub page_label: String,
    pub of_label: String,
    pub disclaimer: String,
    pub sections: Vec<DocSection>,
}

fn parse<M: prost::Message + prost::Name + Default>(data: &Json) -> M {
    json::from_json(data.clone()).unwrap_or_default()
}

struct Builder {
    lang: Language,
    section: DocSection,
}

impl Builder {
    fn new(lang: Language, heading: String) -> Self {
        Self {
            lang,
            section: DocSection { heading, items: vec![], tables: vec![], notes: vec![], missing: None },
        }
    }
    fn text(&mut self, pt: &str, en: &str, value: &str) {
        if !value.trim().is_empty() {
            self.section
                .items
                .push(Item { label: self.lang.choose(pt, en).into(), text: value.trim().into() });
        }
    }
    fn done(mut self) -> DocSection {
        if self.section.items.is_empty() && self.section.tables.is_empty() {
            self.section.missing = Some(
                self.lang
                    .choose(
                        "Esta parte do plano ainda não foi preenchida. Complete-a conversando com o Sócio ou no construtor do plano.",
                        "This part of the plan has not been filled in yet. Complete it by chatting with Sócio or in the plan builder.",
                    )
                    .into(),
            );
        }
        self.section
    }
}

/// A closed answer in words (`labels`), never its stored code.
fn word(field: &str, value: &Json, lang: Language) -> String {
    value.as_str().and_then(|key| labels::of(field, key, lang)).unwrap_or_default().to_owned()
}

fn date(ms: i64, lang: Language) -> String {
    let date = CivilDate::in_sao_paulo(ms);
    lang.choose(date.brazilian(), date.iso())
}

/// `text` in at most `max` characters, cut at a word with "…" when longer — never mid-word.
fn shortened(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max - 1).collect();
    let cut = match head.rfind(char::is_whitespace) {
        Some(at) if at > 0 => &head[..at],
        _ => head.as_str(),
    };
    format!("{}…", cut.trim_end_matches(|c: char| c.is_whitespace() || ",;:.-—".contains(c)))
}

/// The document's content, in `lang`, with the consultant's overview when there is one.
pub fn model(plan: &Plan, user: &User, lang: Language, overview: Option<&str>, now: i64) -> DocModel {
    let idea: pb::IdeaData = parse(&plan.section(Step::Idea).data);
    let finance_data: pb::FinanceData = parse(&plan.section(Step::Finance).data);
    DocModel {
        lang: lang.choose("pt", "en").into(),
        title: lang.choose("Plano de negócios", "Business plan").into(),
        subtitle: if idea.business_idea.trim().is_empty() { user.name.clone() } else { shortened(idea.business_idea.trim(), 120) },
        generated_on: format!("{} {}", lang.choose("Gerado em", "Generated on"), date(now, lang)),
        page_label: lang.choose("Página", "Page").into(),
        of_label: lang.choose("de", "of").into(),
        disclaimer: lang
            .choose(
                "Este plano é uma orientação educacional e não substitui a assessoria jurídica ou contábil formal.",
                "This plan is educational guidance and does not replace formal legal or accounting advice.",
            )
            .into(),
        sections: vec![
            summary_section(plan, &idea, overview, lang),
            market_section(plan, lang),
            marketing_section(plan, lang),
            people_section(plan, lang),
            legal_section(plan, lang),
            financial_section(plan, &finance_data, lang),
            next_steps(plan, lang),
        ],
    }
}

fn summary_section(plan: &Plan, idea: &pb::IdeaData, overview: Option<&str>, lang: Language) -> DocSection {
    let idea_json = &plan.section(Step::Idea).data;
    let mut summary = Builder::new(lang, lang.choose("1. Sumário executivo", "1. Executive summary").into());
    if let Some(overview) = overview {
        summary.text("Visão geral", "Overview", overview);
    }
    summary.text("Ideia de negócio", "Business idea", &idea.business_idea);
    summary.text("Problema", "Problem", &idea.problem);
    summary.text("Solução", "Solution", &idea.solution);
    summary.text("Diferencial", "Differentiator", &idea.differentiator);
    summary.text("Estágio", "Stage", &word("stage", &idea_json["stage"], lang));
    summary.done()
}

fn market_section(plan: &Plan, lang: Language) -> DocSection {
    let market: pb::MarketData = parse(&plan.section(Step::Market).data);
    let mut market_section =
        Builder::new(lang, lang.choose("2. Análise de mercado", "2. Market analysis").into());
    market_section.text("Setor", "Industry", &market.industry);
    market_section.text("Cliente-alvo", "Target customer", &market.target_customer);
    market_section.text("Tamanho do mercado", "Market size", &market.market_size);
    market_section.text("Concorrentes", "Competitors", &market.competitors);
    market_section.text("Localização", "Location", &market.location);
    swot(&mut market_section, &market, lang);
    market_section.done()
}

fn marketing_section(plan: &Plan, lang: Language) -> DocSection {
    let marketing: pb::MarketingData = parse(&plan.section(Step::Marketing).data);
    let mut marketing_section =
        Builder::new(lang, lang.choose("3. Plano de marketing", "3. Marketing plan").into());
    marketing_section.text("Canais", "Channels", &marketing.channels.join(", "));
    marketing_section.text("Posicionamento", "Positioning", &marketing.positioning);
    marketing_section.text("Estratégia de preço", "Pricing strategy", &marketing.pricing_strategy);
    marketing_section.text("Plano de lançamento", "Launch plan", &marketing.launch_plan);
    pricing_table(&mut marketing_section, plan, &marketing.prices, lang);
    marketing_section.done()
}

/// "Formação de preço": each kept price worked out again with the plan as it is now (its taxes and
/// fixed costs), its parts in reais, and the markup divisor explained once.
fn pricing_table(b: &mut Builder, plan: &Plan, prices: &[pb::SavedPrice], lang: Language) {
    if prices.is_empty() {
        return;
    }
    let figures = pricing::PlanFigures::of(plan);
    let brl = |v: f64| format_brl(v, lang);
    let rows = prices
        .iter()
        .map(|saved| {
            let request = saved.request.clone().unwrap_or_default();
            let priced = price_request::Request::parse(&request)
                .and_then(|r| pricing::price(&r, figures.as_ref(), lang));
            let Ok(p) = priced else {
                let why = lang.choose("não fecha com o plano de hoje", "does not add up with today's plan");
                return vec![
                    saved.name.clone(),
                    why.into(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ];
            };
            let part = |codes: &[&str]| {
                brl(p.parts.iter().filter(|part| codes.contains(&part.code)).map(|part| part.amount).sum())
            };
            vec![
                saved.name.clone(),
                brl(p.unit_cost),
                part(&["tax"]),
                part(&["card_fee", "commission", "other_variable", "fixed_costs"]),
                part(&["margin"]),
                brl(p.price),
            ]
        })
        .collect();
    b.section.tables.push(Table {
        title: lang.choose("Formação de preço", "Pricing").into(),
        columns: [
            ("Produto", "Product"),
            ("Custo", "Cost"),
            ("Impostos", "Taxes"),
            ("Taxas, comissões e custos fixos", "Fees, commissions and fixed costs"),
            ("Margem", "Margin"),
            ("Preço", "Price"),
        ]
        .iter()
        .map(|(pt, en)| lang.choose(*pt, *en).to_owned())
        .collect(),
        rows,
        prose: false,
    });
    b.section.notes.push(lang.choose(
        "Preço = custo ÷ (1 − impostos − taxas − comissões − custos fixos − margem), cada um como parte do preço (markup divisor, Sebrae): o que sai de cada venda é uma porcentagem do preço, não do custo. Os impostos e os custos fixos vêm deste plano.".into(),
        "Price = cost ÷ (1 − taxes − fees − commissions − fixed costs − margin), each a share of the price (the markup divisor, Sebrae): what comes out of each sale is a share of the price, not of the cost. Taxes and fixed costs come from this plan.".into(),
    ));
}

fn people_section(plan: &Plan, lang: Language) -> DocSection {
    let hr: pb::HrData = parse(&plan.section(Step::Hr).data);
    let mut people =
        Builder::new(lang, lang.choose("4. Plano operacional e pessoas", "4. Operations and people").into());
    if let Some(size) = hr.team_size {
        people.text("Tamanho da equipe", "Team size", &size.to_string());
    }
    people.text("Funções", "Roles", &hr.roles.join(", "));
    people.text("Plano de contratação", "Hiring plan", &hr.hiring_plan);
    people.text("Sócios", "Partners", &hr.partners);
    people.done()
}

fn legal_section(plan: &Plan, lang: Language) -> DocSection {
    let legal_json = &plan.section(Step::Legal).data;
    let legal: pb::LegalData = parse(legal_json);
    let mut legal_section =
        Builder::new(lang, lang.choose("5. Aspectos legais e tributários", "5. Legal and tax").into());
    legal_section.text(
        "Natureza jurídica",
        "Legal form",
        &word("businessType", &legal_json["businessType"], lang),
    );
    legal_section.text("Porte", "Company size", &word("companySize", &legal_json["companySize"], lang));
    legal_section.text("Regime tributário", "Tax regime", &word("taxRegime", &legal_json["taxRegime"], lang));
    legal_section.text("Licenças", "Licences", &legal.licences.join(", "));
    legal_section.text("Atividade", "Activity", &word("activity", &legal_json["activity"], lang));
    let cnae = match taxes::cnae_entry(&legal.cnae) {
        Some((entry, _)) => format!("{} ({})", taxes::shown_cnae(&legal.cnae), entry.name),
        None if !legal.cnae.is_empty() => taxes::shown_cnae(&legal.cnae),
        None => String::new(),
    };
    legal_section.text("CNAE", "CNAE", &cnae);
    legal_section.text("Profissão", "Profession", &word("profession", &legal_json["profession"], lang));
    legal_section.text(
        "Situação do CNPJ",
        "CNPJ status",
        &word("cnpjStatus", &legal_json["cnpjStatus"], lang),
    );
    legal_section.done()
}

/// What is left to do: the steps not completed, and opening the company while it has no CNPJ.
fn next_steps(plan: &Plan, lang: Language) -> DocSection {
    let legal_json = &plan.section(Step::Legal).data;
    let legal: pb::LegalData = parse(legal_json);
    let mut next = Builder::new(lang, lang.choose("7. Próximos passos", "7. Next steps").into());
    let pending: Vec<&str> =
        plan.sections.iter().filter(|s| !s.completed).map(|s| step_name(s.step, lang)).collect();
    if pending.is_empty() {
        next.section.notes.push(
            lang.choose(
                "Todas as etapas estão concluídas. Revise o plano a cada trimestre e compare os números reais com as projeções.",
                "Every step is complete. Review the plan every quarter and compare real numbers with the projections.",
            )
            .into(),
        );
    } else {
        next.section.notes.push(format!(
            "{} {}.",
            lang.choose("Etapas a concluir:", "Steps to complete:"),
            pending.join(", ")
        ));
    }
    if legal.cnpj_status == pb::CnpjStatus::None as i32 {
        next.section.notes.push(advice::formalise_step(advice::Form::of(legal_json), lang));
    }
    next.section
}

fn step_name(step: Step, lang: Language) -> &'static str {
    match step {
        Step::Idea => lang.choose("ideia", "idea"),
        Step::Market => lang.choose("mercado", "market"),
        Step::Finance => lang.choose("finanças", "finance"),
        Step::Marketing => "marketing",
        Step::Hr => lang.choose("pessoas", "people"),
        Step::Legal => lang.choose("jurídico", "legal"),
    }
}

/// Sebrae's strategic evaluation as a table: what the business does well and badly, what the
/// market offers and threatens; what is not filled in yet is named, never invented.
fn swot(b: &mut Builder, market: &pb::MarketData, lang: Language) {
    let rows = [
        (lang.choose("Forças", "Strengths"), &market.strengths),
        (lang.choose("Fraquezas", "Weaknesses"), &market.weaknesses),
        (lang.choose("Oportunidades", "Opportunities"), &market.opportunities),
        (lang.choose("Ameaças", "Threats"), &market.threats),
    ];
    if rows.iter().all(|(_, text)| text.trim().is_empty()) {
        return;
    }
    let missing = lang.choose("ainda não preenchido", "not filled in yet");
    b.section.tables.push(Table {
        title: lang
            .choose("Análise SWOT (forças, fraquezas, oportunidades e ameaças)", "SWOT analysis")
            .into(),
        columns: vec![
            lang.choose("Fator", "Factor").into(),
            lang.choose("O que se vê", "What we see").into(),
        ],
        rows: rows
            .iter()
            .map(|(name, text)| {
                let text =
                    if text.trim().is_empty() { missing.to_owned() } else { text.trim().replace('\n', " ") };
                vec![(*name).to_owned(), text]
            })
            .collect(),
        prose: true,
    });
}

fn financial_section(plan: &Plan, data: &pb::FinanceData, lang: Language) -> DocSection {
    let mut b = Builder::new(lang, lang.choose("6. Plano financeiro", "6. Financial plan").into());
    let brl = |v: f64| format_brl(v, lang);
    let opt = |v: Option<f64>| v.map(brl).unwrap_or_default();
    b.text("Investimento inicial", "Startup costs", &opt(data.startup_costs));
    b.text("Capital de giro", "Working capital", &opt(data.working_capital));
    b.text("Custos fixos mensais", "Monthly fixed costs", &opt(data.monthly_fixed_costs));
    b.text("Ticket médio", "Average ticket", &opt(data.average_ticket));
    b.text("Fonte de recursos", "Funding source", &data.funding_source);
    b.text("Salários CLT por mês", "CLT wages a month", &opt(data.monthly_wages));
    b.text("Pró-labore por mês", "Pró-labore a month", &opt(data.monthly_pro_labore));
    if let Some(inputs) = plan_inputs(plan, data) {
        let analysis = finance::analyse(&inputs);
        b.section.notes.push(inputs.tax.explain(lang));
        // A Simples company's IBS/CBS choice for the next half-year, from the same figures.
        let today = crate::clock::CivilDate::in_sao_paulo(plan.read_at);
        let window = crate::plan::tracking::calendar::next_choice_window(today, crate::facts::calendar());
        let request = crate::plan::money::reform_choice::Request::default();
        if let Ok(choice) = crate::plan::money::reform_choice::compare(plan, &request, today, window, lang) {
            b.section.notes.push(choice.explanation);
        }
        // The figures worth a second look, as the builder and the API list them.
        for warning in checks::warnings(Some(plan), &inputs, &analysis, lang) {
            if warning.code != "tax_incomplete" {
                b.section.notes.push(format!("⚠ {}", warning.message));
            }
        }
        b.section.tables.extend(finance_tables::tables(&inputs, &analysis, lang));
    } else if !b.section.items.is_empty() {
        b.section.notes.push(
            lang.choose(
                "Informe o ticket médio e as vendas esperadas por mês para calcular o ponto de equilíbrio e a projeção de caixa.",
                "Give the average ticket and the expected sales per month to compute the break-even point and the cash-flow projection.",
            )
            .into(),
        );
    }
    b.done()
}

/// The document as Markdown.
pub fn to_markdown(model: &DocModel) -> String {
    let mut out = format!("# {}\n\n**{}**\n\n_{}_\n\n", model.title, model.subtitle, model.generated_on);
    for section in &model.sections {
        out.push_str(&format!("## {}\n\n", section.heading));
        if let Some(missing) = &section.missing {
            out.push_str(&format!("> {missing}\n\n"));
        }
        for item in &section.items {
            out.push_str(&format!("**{}:** {}\n\n", item.label, item.text.replace('\n', "  \n")));
        }
        for table in &section.tables {
            out.push_str(&format!(
                "### {}\n\n| {} |\n|{}|\n",
                table.title,
                table.columns.join(" | "),
                vec!["---"; table.columns.len()].join("|")
            ));
            for row in &table.rows {
                out.push_str(&format!(
                    "| {} |\n",
                    row.iter().map(|c| c.replace('|', "\\|")).collect::<Vec<_>>().join(" | ")
                ));
            }
            out.push('\n');
        }
        for note in &section.notes {
            out.push_str(&format!("- {note}\n"));
        }
        if !section.notes.is_empty() {
            out.push('\n');
        }
    }
    out.push_str(&format!("---\n\n_{}_\n", model.disclaimer));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_idea_is_cut_at_a_word_never_mid_word() {
        let idea = "Padaria artesanal de fermentação natural com café, entregas no bairro e encomendas para festas e eventos corporativos na região de Campinas";
        let subtitle = shortened(idea, 120);
        assert_eq!(
            subtitle,
            "Padaria artesanal de fermentação natural com café, entregas no bairro e encomendas para festas e eventos corporativos…"
        );
        assert!(subtitle.chars().count() <= 120);
        assert_eq!(shortened("Padaria do bairro", 120), "Padaria do bairro");
    }

    #[test]
    fn dates_are_sao_paulo_days_in_each_language() {
        assert_eq!(date(1_795_253_580_000, Language::PtBr), "21/11/2026");
        assert_eq!(date(951_825_600_000, Language::En), "2000-02-29", "noon UTC");
        // Midnight UTC is still the evening before in São Paulo.
        assert_eq!(date(0, Language::En), "1969-12-31");
        assert_eq!(
            date(1_795_314_600_000, Language::PtBr),
            "21/11/2026",
            "23:30 there, 02:30 UTC on the 22nd"
        );
    }
}
