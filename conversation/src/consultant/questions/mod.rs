//! The offline guide's interview: a few focused questions per step of Sebrae's plan, each bound to
//! a field of the section and to how its answer is read.

mod closed_answers;
#[cfg(test)]
mod tests;

use closed_answers::{activity, business_type, cnpj_status, company_size, profession, stage, tax_regime};
use serde_json::{Value as Json, json};

use super::parse;
use crate::{locale::Language, plan::sections::Step, whatsapp::choices::Choice};

/// How an answer becomes the field's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Text,
    Money,
    /// A share of the price ("30%") or an amount per sale.
    CostPerSale,
    Count,
    /// Sales a month, or a day or a week's turned into a month's (`_perDay` when the days worked
    /// are still to be asked).
    SalesPerMonth,
    List,
    Stage,
    BusinessType,
    CompanySize,
    TaxRegime,
    Activity,
    CnpjStatus,
    /// Yes or no: a regulated intellectual profession (the CBS and IBS 30 % lower).
    Profession,
    /// A CNAE subclass ("9602-5/01"), or what the business does in words matched to one of the
    /// facts' table ("salão de beleza" → 9602-5/01).
    Cnae,
}

#[derive(Clone, Copy, Debug)]
pub struct Question {
    pub step: Step,
    pub field: &'static str,
    pub answer: Answer,
    pub pt_br: &'static str,
    pub en: &'static str,
    /// Asked only when this holds of the step's data so far (None: always).
    pub when: Option<fn(&Json) -> bool>,
    /// The section the answer is saved in: the step's own, or another one's field asked where it
    /// matters (the payroll, asked in the legal step once the CNAE says the Fator R counts).
    pub saves_in: Step,
}

macro_rules! q {
    ($step:ident, $field:literal, $answer:ident, $pt:literal, $en:literal) => {
        Question {
            step: Step::$step,
            field: $field,
            answer: Answer::$answer,
            pt_br: $pt,
            en: $en,
            when: None,
            saves_in: Step::$step,
        }
    };
}

/// A Simples company whose CNAE is taxed by the Fator R, or in Annex IV (its CPP is on payroll):
/// the payroll decides its tax.
fn payroll_matters(legal: &Json) -> bool {
    use crate::plan::money::taxes::{Annex, Treatment, cnae_entry};
    legal["taxRegime"].as_str() == Some("simples_nacional")
        && legal["cnae"]
            .as_str()
            .and_then(cnae_entry)
            .is_some_and(|(_, t)| matches!(t, Treatment::FatorR | Treatment::Annex(Annex::IV)))
}

/// A service business in Lucro Presumido: from 2027 its CBS and IBS are 30 % lower if it is a
/// regulated intellectual profession (LC 214/2025 art. 127) — asked, never assumed.
fn profession_matters(legal: &Json) -> bool {
    legal["taxRegime"].as_str() == Some("lucro_presumido") && legal["activity"].as_str() == Some("services")
}

/// A service business (or a mix) in the Simples or Lucro Presumido: its tax depends on its CNAE.
fn needs_cnae(legal: &Json) -> bool {
    let regime = legal["taxRegime"].as_str().unwrap_or_default();
    let activity = legal["activity"].as_str().unwrap_or_default();
    matches!(regime, "simples_nacional" | "lucro_presumido")
        && matches!(activity, "services" | "commerce_and_services")
}

pub const QUESTIONS: &[Question] = &[
    q!(
        Idea,
        "businessIdea",
        Text,
        "Em uma ou duas frases: qual é a ideia do seu negócio?",
        "In one or two sentences: what is your business idea?"
    ),
    q!(
        Idea,
        "problem",
        Text,
        "Que problema ou desejo dos clientes o seu negócio resolve?",
        "What problem or wish of your customers does it solve?"
    ),
    q!(
        Idea,
        "differentiator",
        Text,
        "O que vai fazer os clientes escolherem você e não a concorrência?",
        "What will make customers choose you over the competition?"
    ),
    q!(
        Idea,
        "stage",
        Stage,
        "Em que fase você está? (só a ideia, planejando, começando ou já funcionando)",
        "What stage are you at? (just the idea, planning, starting or already running)"
    ),
    q!(
        Market,
        "industry",
        Text,
        "Em que setor o negócio está? (ex.: alimentação, beleza, serviços)",
        "Which industry is it in? (e.g. food, beauty, services)"
    ),
    q!(
        Market,
        "targetCustomer",
        Text,
        "Quem é o seu cliente ideal? Idade, onde mora, o que valoriza.",
        "Who is your ideal customer? Age, where they live, what they value."
    ),
    q!(
        Market,
        "competitors",
        Text,
        "Quem são os principais concorrentes e o que eles fazem bem ou mal?",
        "Who are the main competitors, and what do they do well or badly?"
    ),
    q!(
        Market,
        "location",
        Text,
        "Onde o negócio vai funcionar? (cidade, bairro ou online)",
        "Where will the business run? (city, neighbourhood or online)"
    ),
    q!(
        Market,
        "strengths",
        Text,
        "Pensando na concorrência: quais são as *forças* do seu negócio, o que você faz melhor?",
        "Compared with the competition: what are your business's *strengths*, what do you do better?"
    ),
    q!(
        Market,
        "weaknesses",
        Text,
        "E as *fraquezas*: o que ainda falta ou pode melhorar? (ex.: pouco capital, pouca experiência em gestão, marca desconhecida)",
        "And the *weaknesses*: what is still missing or could be better? (e.g. little capital, little management experience, an unknown brand)"
    ),
    q!(
        Market,
        "opportunities",
        Text,
        "Que *oportunidades* o mercado oferece? (ex.: bairro crescendo, falta de concorrente perto, um hábito novo dos clientes)",
        "What *opportunities* does the market offer? (e.g. a growing neighbourhood, no competitor nearby, a new customer habit)"
    ),
    q!(
        Market,
        "threats",
        Text,
        "E o que pode *ameaçar* o negócio? (ex.: um concorrente grande, a economia, uma lei, o aluguel)",
        "And what could *threaten* the business? (e.g. a big competitor, the economy, a law, the rent)"
    ),
    q!(
        Finance,
        "startupCosts",
        Money,
        "Quanto você precisa investir para começar (equipamentos, reforma, estoque inicial)? Ex.: R$ 20.000",
        "How much do you need to invest to start (equipment, fit-out, initial stock)? E.g. R$ 20,000"
    ),
    q!(
        Finance,
        "workingCapital",
        Money,
        "E quanto vai guardar de capital de giro, para pagar as contas nos primeiros meses enquanto as vendas crescem? Ex.: R$ 10.000",
        "And how much working capital will you keep, to pay the bills in the first months while sales grow? E.g. R$ 10,000"
    ),
    q!(
        Finance,
        "monthlyFixedCosts",
        Money,
        "Quanto serão os custos fixos por mês (aluguel, salários, contas, pró-labore)?",
        "How much will the fixed costs be per month (rent, salaries, bills, your own pay)?"
    ),
    q!(
        Finance,
        "averageTicket",
        Money,
        "Qual será o valor médio de cada venda (ticket médio)?",
        "What will the average amount of each sale be (average ticket)?"
    ),
    q!(
        Finance,
        "variableCostPerSale",
        CostPerSale,
        "Quanto custa cada venda para você (matéria-prima, embalagem, taxas)? Pode dizer em reais ou em % do preço.",
        "How much does each sale cost you (materials, packaging, fees)? In reais or as a % of the price."
    ),
    q!(
        Finance,
        "expectedSalesPerMonth",
        SalesPerMonth,
        "Quantas vendas você espera fazer por mês?",
        "How many sales do you expect per month?"
    ),
    q!(
        Finance,
        "fundingSource",
        Text,
        "De onde vem o dinheiro para começar? (ex.: reserva própria, sócio, empréstimo, Pronampe)",
        "Where does the money to start come from? (e.g. savings, a partner, a loan, Pronampe)"
    ),
    q!(
        Marketing,
        "channels",
        List,
        "Por quais canais vai vender e divulgar? (ex.: Instagram, WhatsApp, iFood, loja física)",
        "Which channels will you sell and promote on? (e.g. Instagram, WhatsApp, iFood, a shop)"
    ),
    q!(
        Marketing,
        "positioning",
        Text,
        "Como quer que o cliente veja a sua marca? (ex.: a mais barata, a mais artesanal, a mais rápida)",
        "How do you want customers to see your brand? (e.g. the cheapest, the most artisanal, the fastest)"
    ),
    q!(
        Marketing,
        "launchPlan",
        Text,
        "Como vai ser o lançamento? O que você fará no primeiro mês para atrair clientes?",
        "How will you launch? What will you do in the first month to attract customers?"
    ),
    q!(
        Hr,
        "teamSize",
        Count,
        "Quantas pessoas vão trabalhar no negócio, contando com você?",
        "How many people will work in the business, counting you?"
    ),
    q!(
        Hr,
        "roles",
        List,
        "Quais funções essas pessoas vão ter? (ex.: atendimento, produção, entregas)",
        "What roles will they have? (e.g. service, production, delivery)"
    ),
    q!(
        Hr,
        "partners",
        Text,
        "Você terá sócios? Se sim, quem são e qual o papel de cada um?",
        "Will you have partners? If so, who and what is each one's role?"
    ),
    q!(
        Legal,
        "businessType",
        BusinessType,
        "Qual vai ser a forma jurídica? (MEI, empresário individual, LTDA, SLU, S.A. ou ainda não sabe; ME e EPP são o porte, que pergunto em seguida)",
        "Which legal form will it take? (MEI, sole proprietor, LTDA, SLU, S.A. or not sure yet; ME and EPP are the company's size, which I ask next)"
    ),
    q!(
        Legal,
        "companySize",
        CompanySize,
        "E o porte, pelo faturamento do ano: ME (microempresa), EPP (empresa de pequeno porte) ou acima disso? Se não souber, diga \"não sei\".",
        "And the company's size, by yearly revenue: ME (micro-enterprise), EPP (small company) or above? If unsure, say \"not sure\"."
    ),
    q!(
        Legal,
        "taxRegime",
        TaxRegime,
        "E o regime de impostos? (Simples Nacional, Lucro Presumido, Lucro Real ou ainda não sabe)",
        "And the tax regime? (Simples Nacional, Lucro Presumido, Lucro Real or not sure yet)"
    ),
    q!(
        Legal,
        "activity",
        Activity,
        "O que o negócio faz, para os impostos: comércio (revende), indústria (fabrica), serviços, ou comércio e serviços?",
        "What does the business do, for taxes: commerce (resale), industry (makes goods), services, or commerce and services?"
    ),
    Question {
        step: Step::Legal,
        field: "cnae",
        answer: Answer::Cnae,
        pt_br: "O imposto de serviços depende da atividade exata: qual é o CNAE da atividade principal (ex.: 9602-5/01)? Se não souber, descreva o que faz (ex.: \"salão de beleza\", \"desenvolvimento de software\") ou diga \"pular\".",
        en: "The tax on services depends on the exact activity: what is the main activity's CNAE (e.g. 9602-5/01)? If unsure, describe what you do (e.g. \"beauty salon\", \"software development\") or say \"skip\".",
        when: Some(needs_cnae),
        saves_in: Step::Legal,
    },
    Question {
        step: Step::Legal,
        field: "monthlyWages",
        answer: Answer::Money,
        pt_br: "Para o Fator R (que decide entre os anexos III e V): quanto você paga por mês de salários CLT, brutos? (0 se ainda não tem funcionários)",
        en: "For the Fator R (which decides between Annexes III and V): how much do you pay a month in CLT wages, gross? (0 if no employees yet)",
        when: Some(payroll_matters),
        saves_in: Step::Finance,
    },
    Question {
        step: Step::Legal,
        field: "monthlyProLabore",
        answer: Answer::Money,
        pt_br: "E de pró-labore dos sócios, por mês? (0 se nenhum)",
        en: "And the owners' pró-labore a month? (0 if none)",
        when: Some(payroll_matters),
        saves_in: Step::Finance,
    },
    Question {
        step: Step::Legal,
        field: "profession",
        answer: Answer::Profession,
        pt_br: "Seu serviço é de uma profissão intelectual regulamentada, fiscalizada por conselho (contador, advogado, arquiteto, engenheiro, administrador…)? Desde 2027 a CBS e o IBS dessas profissões têm 30 % de redução. (sim ou não)",
        en: "Is your service a regulated intellectual profession, supervised by a council (accountant, lawyer, architect, engineer, administrator…)? Since 2027 their CBS and IBS are 30 % lower. (yes or no)",
        when: Some(profession_matters),
        saves_in: Step::Legal,
    },
    q!(
        Legal,
        "cnpjStatus",
        CnpjStatus,
        "Você já tem CNPJ? (sim, estou abrindo ou ainda não)",
        "Do you already have a CNPJ? (yes, being registered or not yet)"
    ),
    q!(
        Legal,
        "licences",
        List,
        "Que licenças ou alvarás o negócio precisa? (ex.: alvará da prefeitura, vigilância sanitária) Se não souber, diga \"não sei\".",
        "Which licences or permits does the business need? (e.g. city permit, health surveillance) If unsure, say \"not sure\"."
    ),
];

impl Question {
    pub fn text(&self, lang: Language) -> &'static str {
        lang.choose(self.pt_br, self.en)
    }

    /// Whether it is asked, given its step's data so far.
    pub fn applies(&self, section: &Json) -> bool {
        self.when.is_none_or(|when| when(section))
    }

    /// The answers to tap, for a closed question (none for an open one). Each title reads back as
    /// that answer (tested), so a tap and typed words are the same.
    pub fn choices(&self, lang: Language) -> Vec<Choice> {
        let options: &[(&str, &str, &str)] = match self.answer {
            Answer::Stage => &[
                ("stage:idea", "Só a ideia", "Just the idea"),
                ("stage:planning", "Planejando", "Planning"),
                ("stage:started", "Começando", "Starting"),
                ("stage:running", "Já funcionando", "Already running"),
            ],
            Answer::BusinessType => &[
                ("type:mei", "MEI", "MEI"),
                ("type:ei", "Empresário individual", "Sole proprietor"),
                ("type:ltda", "LTDA", "LTDA"),
                ("type:slu", "SLU", "SLU"),
                ("type:sa", "S.A.", "S.A."),
                ("type:undecided", "Ainda não sei", "Not sure yet"),
            ],
            Answer::CompanySize => &[
                ("size:me", "ME (microempresa)", "ME (micro-enterprise)"),
                ("size:epp", "EPP (pequeno porte)", "EPP (small company)"),
                ("size:other", "Acima de EPP", "Above EPP"),
                ("size:undecided", "Ainda não sei", "Not sure yet"),
            ],
            Answer::TaxRegime => &[
                ("regime:simples_nacional", "Simples Nacional", "Simples Nacional"),
                ("regime:lucro_presumido", "Lucro Presumido", "Lucro Presumido"),
                ("regime:lucro_real", "Lucro Real", "Lucro Real"),
                ("regime:undecided", "Ainda não sei", "Not sure yet"),
            ],
            Answer::Activity => &[
                ("activity:commerce", "Comércio", "Commerce"),
                ("activity:industry", "Indústria", "Industry"),
                ("activity:services", "Serviços", "Services"),
                ("activity:commerce_and_services", "Comércio e serviços", "Commerce and services"),
            ],
            Answer::CnpjStatus => &[
                ("cnpj:active", "Sim, já tenho", "Yes, I have one"),
                ("cnpj:in_progress", "Estou abrindo", "Being registered"),
                ("cnpj:none", "Ainda não", "No, not yet"),
            ],
            Answer::Profession => &[
                ("profession:regulated", "Sim, regulamentada", "Yes, regulated"),
                ("profession:not_regulated", "Não", "No"),
            ],
            Answer::Text
            | Answer::Money
            | Answer::CostPerSale
            | Answer::Count
            | Answer::SalesPerMonth
            | Answer::List
            | Answer::Cnae => &[],
        };
        options.iter().map(|(id, pt, en)| Choice::new(*id, lang.choose(*pt, *en))).collect()
    }

    pub fn find(step: Step, field: &str) -> Option<&'static Question> {
        QUESTIONS.iter().find(|q| q.step == step && q.field == field)
    }

    /// The field's new values from the answer (one field, or a cost per sale as reais or percent),
    /// or None when the answer cannot be read as this question needs.
    pub fn read(&self, answer: &str) -> Option<Json> {
        let trimmed = answer.trim();
        if trimmed.is_empty() {
            return None;
        }
        let lower = trimmed.to_lowercase();
        let value = match self.answer {
            Answer::Text => json!({ self.field: trimmed.chars().take(1000).collect::<String>() }),
            Answer::Money => json!({ self.field: parse::amount(trimmed).filter(|v| *v >= 0.0)? }),
            // Reais, a share of the price, or both ("R$ 6 de material, mais 3% da maquininha").
            Answer::CostPerSale => match parse::cost_per_sale(trimmed) {
                (None, None) => return None,
                (reais, percent) => json!({ "variableCostPerSale": reais, "variableCostPercent": percent }),
            },
            Answer::SalesPerMonth => {
                let (value, per) = parse::rate(trimmed)?;
                let monthly = match (per, parse::days_a_week(trimmed)) {
                    (parse::Per::Month, _) => value,
                    (parse::Per::Week, _) => value * parse::WEEKS_A_MONTH,
                    (parse::Per::Day, Some(days)) => value * days * parse::WEEKS_A_MONTH,
                    (parse::Per::Day, None) => return Some(json!({ "_perDay": value })),
                };
                json!({ self.field: monthly.round().clamp(0.0, 1e7) as i64 })
            }
            Answer::Count => json!({ self.field: parse::people(trimmed).or_else(|| parse::count(trimmed))? }),
            Answer::List => {
                let items =
                    if ["não sei", "nao sei", "not sure", "nenhum", "none"].iter().any(|w| lower.contains(w))
                    {
                        Vec::new()
                    } else {
                        parse::list(trimmed)
                    };
                json!({ self.field: items })
            }
            Answer::Stage => json!({ self.field: stage(&lower)? }),
            // A MEI's regime is the SIMEI and its size ME (LC 123/2006 art. 18-E § 3º): those
            // questions are not asked. A size given for the form is kept as the size, and the form
            // is asked again.
            Answer::BusinessType => match business_type(&lower)? {
                "mei" => json!({ self.field: "mei", "taxRegime": "simei", "companySize": "me" }),
                size @ ("me" | "epp") => json!({ "companySize": size }),
                other => json!({ self.field: other }),
            },
            Answer::CompanySize => json!({ self.field: company_size(&lower)? }),
            Answer::TaxRegime => json!({ self.field: tax_regime(&lower)? }),
            Answer::Activity => json!({ self.field: activity(&lower)? }),
            Answer::CnpjStatus => json!({ self.field: cnpj_status(&lower)? }),
            Answer::Profession => json!({ self.field: profession(&lower)? }),
            Answer::Cnae => json!({ self.field: closed_answers::cnae(trimmed)? }),
        };
        Some(value)
    }
}
