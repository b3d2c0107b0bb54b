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
    fn text(&mut self, label: String, value: &str) {
        if !value.trim().is_empty() {
            self.section.items.push(Item { label, text: value.trim().into() });
        }
    }
    fn done(mut self) -> DocSection {
        if self.section.items.is_empty() && self.section.tables.is_empty() {
            self.section.missing = Some(say!(self.lang, "plan-document-this-part-of-the-plan"));
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
    date.written_in(lang)
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
        lang: say!(lang, "plan-document-en"),
        title: say!(lang, "plan-document-business-plan"),
        subtitle: if idea.business_idea.trim().is_empty() {
            user.name.clone()
        } else {
            shortened(idea.business_idea.trim(), 120)
        },
        generated_on: say!(lang, "plan-document-generated-on", date = date(now, lang)),
        page_label: say!(lang, "plan-document-page"),
        of_label: say!(lang, "plan-document-of"),
        disclaimer: say!(lang, "plan-document-this-plan-is-educational-guidance"),
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
    let mut summary = Builder::new(lang, say!(lang, "plan-document-1-executive-summary"));
    if let Some(overview) = overview {
        summary.text(say!(lang, "plan-document-overview"), overview);
    }
    summary.text(say!(lang, "plan-document-business-idea"), &idea.business_idea);
    summary.text(say!(lang, "plan-document-problem"), &idea.problem);
    summary.text(say!(lang, "plan-document-solution"), &idea.solution);
    summary.text(say!(lang, "plan-document-differentiator"), &idea.differentiator);
    summary.text(say!(lang, "plan-document-stage"), &word("stage", &idea_json["stage"], lang));
    summary.done()
}

fn market_section(plan: &Plan, lang: Language) -> DocSection {
    let market: pb::MarketData = parse(&plan.section(Step::Market).data);
    let mut market_section = Builder::new(lang, say!(lang, "plan-document-2-market-analysis"));
    market_section.text(say!(lang, "plan-document-industry"), &market.industry);
    market_section.text(say!(lang, "plan-document-target-customer"), &market.target_customer);
    market_section.text(say!(lang, "plan-document-market-size"), &market.market_size);
    market_section.text(say!(lang, "plan-document-competitors"), &market.competitors);
    market_section.text(say!(lang, "plan-document-location"), &market.location);
    swot(&mut market_section, &market, lang);
    market_section.done()
}

fn marketing_section(plan: &Plan, lang: Language) -> DocSection {
    let marketing: pb::MarketingData = parse(&plan.section(Step::Marketing).data);
    let mut marketing_section = Builder::new(lang, say!(lang, "plan-document-3-marketing-plan"));
    marketing_section.text(say!(lang, "plan-document-channels"), &marketing.channels.join(", "));
    marketing_section.text(say!(lang, "plan-document-positioning"), &marketing.positioning);
    marketing_section.text(say!(lang, "plan-document-pricing-strategy"), &marketing.pricing_strategy);
    marketing_section.text(say!(lang, "plan-document-launch-plan"), &marketing.launch_plan);
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
                let why = say!(lang, "plan-document-does-not-add-up-with");
                return vec![
                    saved.name.clone(),
                    why,
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
        title: say!(lang, "plan-document-pricing"),
        columns: vec![
            say!(lang, "plan-document-product"),
            say!(lang, "plan-document-cost"),
            say!(lang, "plan-document-taxes"),
            say!(lang, "plan-document-fees-commissions-and-fixed-costs"),
            say!(lang, "plan-document-margin"),
            say!(lang, "plan-document-price"),
        ],
        rows,
        prose: false,
    });
    b.section.notes.push(say!(lang, "plan-document-price-cost-1-taxes-fees"));
}

fn people_section(plan: &Plan, lang: Language) -> DocSection {
    let hr: pb::HrData = parse(&plan.section(Step::Hr).data);
    let mut people = Builder::new(lang, say!(lang, "plan-document-4-operations-and-people"));
    if let Some(size) = hr.team_size {
        people.text(say!(lang, "plan-document-team-size"), &size.to_string());
    }
    people.text(say!(lang, "plan-document-roles"), &hr.roles.join(", "));
    people.text(say!(lang, "plan-document-hiring-plan"), &hr.hiring_plan);
    people.text(say!(lang, "plan-document-partners"), &hr.partners);
    people.done()
}

fn legal_section(plan: &Plan, lang: Language) -> DocSection {
    let legal_json = &plan.section(Step::Legal).data;
    let legal: pb::LegalData = parse(legal_json);
    let mut legal_section = Builder::new(lang, say!(lang, "plan-document-5-legal-and-tax"));
    legal_section.text(
        say!(lang, "plan-document-legal-form"),
        &word("businessType", &legal_json["businessType"], lang),
    );
    legal_section.text(
        say!(lang, "plan-document-company-size"),
        &word("companySize", &legal_json["companySize"], lang),
    );
    legal_section
        .text(say!(lang, "plan-document-tax-regime"), &word("taxRegime", &legal_json["taxRegime"], lang));
    legal_section.text(say!(lang, "plan-document-licences"), &legal.licences.join(", "));
    legal_section
        .text(say!(lang, "plan-document-activity"), &word("activity", &legal_json["activity"], lang));
    let cnae = match taxes::cnae_entry(&legal.cnae) {
        Some((entry, _)) => format!("{} ({})", taxes::shown_cnae(&legal.cnae), entry.name),
        None if !legal.cnae.is_empty() => taxes::shown_cnae(&legal.cnae),
        None => String::new(),
    };
    legal_section.text(say!(lang, "plan-document-cnae"), &cnae);
    legal_section
        .text(say!(lang, "plan-document-profession"), &word("profession", &legal_json["profession"], lang));
    legal_section
        .text(say!(lang, "plan-document-cnpj-status"), &word("cnpjStatus", &legal_json["cnpjStatus"], lang));
    legal_section.done()
}

/// What is left to do: the steps not completed, and opening the company while it has no CNPJ.
fn next_steps(plan: &Plan, lang: Language) -> DocSection {
    let legal_json = &plan.section(Step::Legal).data;
    let legal: pb::LegalData = parse(legal_json);
    let mut next = Builder::new(lang, say!(lang, "plan-document-7-next-steps"));
    let pending: Vec<String> =
        plan.sections.iter().filter(|s| !s.completed).map(|s| step_name(s.step, lang)).collect();
    if pending.is_empty() {
        next.section.notes.push(say!(lang, "plan-document-every-step-is-complete-review"));
    } else {
        next.section.notes.push(say!(lang, "plan-document-steps-to-complete", pending = pending.join(", ")));
    }
    if legal.cnpj_status == pb::CnpjStatus::None as i32 {
        next.section.notes.push(advice::formalise_step(advice::Form::of(legal_json), lang));
    }
    next.section
}

fn step_name(step: Step, lang: Language) -> String {
    match step {
        Step::Idea => say!(lang, "plan-document-idea"),
        Step::Market => say!(lang, "plan-document-market"),
        Step::Finance => say!(lang, "plan-document-finance"),
        Step::Marketing => say!(lang, "plan-document-marketing"),
        Step::Hr => say!(lang, "plan-document-people"),
        Step::Legal => say!(lang, "plan-document-legal"),
    }
}

/// Sebrae's strategic evaluation as a table: what the business does well and badly, what the
/// market offers and threatens; what is not filled in yet is named, never invented.
fn swot(b: &mut Builder, market: &pb::MarketData, lang: Language) {
    let rows = [
        (say!(lang, "plan-document-strengths"), &market.strengths),
        (say!(lang, "plan-document-weaknesses"), &market.weaknesses),
        (say!(lang, "plan-document-opportunities"), &market.opportunities),
        (say!(lang, "plan-document-threats"), &market.threats),
    ];
    if rows.iter().all(|(_, text)| text.trim().is_empty()) {
        return;
    }
    let missing = say!(lang, "plan-document-not-filled-in-yet");
    b.section.tables.push(Table {
        title: say!(lang, "plan-document-swot-analysis"),
        columns: vec![say!(lang, "plan-document-factor"), say!(lang, "plan-document-what-we-see")],
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
    let mut b = Builder::new(lang, say!(lang, "plan-document-6-financial-plan"));
    let brl = |v: f64| format_brl(v, lang);
    let opt = |v: Option<f64>| v.map(brl).unwrap_or_default();
    b.text(say!(lang, "plan-document-startup-costs"), &opt(data.startup_costs));
    b.text(say!(lang, "plan-document-working-capital"), &opt(data.working_capital));
    b.text(say!(lang, "plan-document-monthly-fixed-costs"), &opt(data.monthly_fixed_costs));
    b.text(say!(lang, "plan-document-average-ticket"), &opt(data.average_ticket));
    b.text(say!(lang, "plan-document-funding-source"), &data.funding_source);
    b.text(say!(lang, "plan-document-clt-wages-a-month"), &opt(data.monthly_wages));
    b.text(say!(lang, "plan-document-pr-labore-a-month"), &opt(data.monthly_pro_labore));
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
        b.section.notes.push(say!(lang, "plan-document-give-the-average-ticket-and"));
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
