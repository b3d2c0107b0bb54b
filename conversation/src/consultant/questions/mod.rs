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
    /// The question's message in the catalogue.
    pub key: &'static str,
    /// Asked only when this holds of the step's data so far (None: always).
    pub when: Option<fn(&Json) -> bool>,
    /// The section the answer is saved in: the step's own, or another one's field asked where it
    /// matters (the payroll, asked in the legal step once the CNAE says the Fator R counts).
    pub saves_in: Step,
}

macro_rules! q {
    ($step:ident, $field:literal, $answer:ident, $key:literal) => {
        Question {
            step: Step::$step,
            field: $field,
            answer: Answer::$answer,
            key: $key,
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
    q!(Idea, "businessIdea", Text, "question-idea-business-idea"),
    q!(Idea, "problem", Text, "question-idea-problem"),
    q!(Idea, "differentiator", Text, "question-idea-differentiator"),
    q!(Idea, "stage", Stage, "question-idea-stage"),
    q!(Market, "industry", Text, "question-market-industry"),
    q!(Market, "targetCustomer", Text, "question-market-target-customer"),
    q!(Market, "competitors", Text, "question-market-competitors"),
    q!(Market, "location", Text, "question-market-location"),
    q!(Market, "strengths", Text, "question-market-strengths"),
    q!(Market, "weaknesses", Text, "question-market-weaknesses"),
    q!(Market, "opportunities", Text, "question-market-opportunities"),
    q!(Market, "threats", Text, "question-market-threats"),
    q!(Finance, "startupCosts", Money, "question-finance-startup-costs"),
    q!(Finance, "workingCapital", Money, "question-finance-working-capital"),
    q!(Finance, "monthlyFixedCosts", Money, "question-finance-monthly-fixed-costs"),
    q!(Finance, "averageTicket", Money, "question-finance-average-ticket"),
    q!(Finance, "variableCostPerSale", CostPerSale, "question-finance-variable-cost-per-sale"),
    q!(Finance, "expectedSalesPerMonth", SalesPerMonth, "question-finance-expected-sales-per-month"),
    q!(Finance, "fundingSource", Text, "question-finance-funding-source"),
    q!(Marketing, "channels", List, "question-marketing-channels"),
    q!(Marketing, "positioning", Text, "question-marketing-positioning"),
    q!(Marketing, "launchPlan", Text, "question-marketing-launch-plan"),
    q!(Hr, "teamSize", Count, "question-hr-team-size"),
    q!(Hr, "roles", List, "question-hr-roles"),
    q!(Hr, "partners", Text, "question-hr-partners"),
    q!(Legal, "businessType", BusinessType, "question-legal-business-type"),
    q!(Legal, "companySize", CompanySize, "question-legal-company-size"),
    q!(Legal, "taxRegime", TaxRegime, "question-legal-tax-regime"),
    q!(Legal, "activity", Activity, "question-legal-activity"),
    Question {
        step: Step::Legal,
        field: "cnae",
        answer: Answer::Cnae,
        key: "question-legal-cnae",
        when: Some(needs_cnae),
        saves_in: Step::Legal,
    },
    Question {
        step: Step::Legal,
        field: "monthlyWages",
        answer: Answer::Money,
        key: "question-legal-monthly-wages",
        when: Some(payroll_matters),
        saves_in: Step::Finance,
    },
    Question {
        step: Step::Legal,
        field: "monthlyProLabore",
        answer: Answer::Money,
        key: "question-legal-monthly-pro-labore",
        when: Some(payroll_matters),
        saves_in: Step::Finance,
    },
    Question {
        step: Step::Legal,
        field: "profession",
        answer: Answer::Profession,
        key: "question-legal-profession",
        when: Some(profession_matters),
        saves_in: Step::Legal,
    },
    q!(Legal, "cnpjStatus", CnpjStatus, "question-legal-cnpj-status"),
    q!(Legal, "licences", List, "question-legal-licences"),
];

impl Question {
    pub fn text(&self, lang: Language) -> String {
        crate::words::CATALOGUE.say(lang, self.key, &[])
    }

    /// Whether it is asked, given its step's data so far.
    pub fn applies(&self, section: &Json) -> bool {
        self.when.is_none_or(|when| when(section))
    }

    /// The answers to tap, for a closed question (none for an open one). Each title reads back as
    /// that answer (tested), so a tap and typed words are the same.
    pub fn choices(&self, lang: Language) -> Vec<Choice> {
        let options: &[(&str, &str)] = match self.answer {
            Answer::Stage => &[
                ("stage:idea", "question-choice-stage-idea"),
                ("stage:planning", "question-choice-stage-planning"),
                ("stage:started", "question-choice-stage-started"),
                ("stage:running", "question-choice-stage-running"),
            ],
            Answer::BusinessType => &[
                ("type:mei", "question-choice-type-mei"),
                ("type:ei", "question-choice-type-ei"),
                ("type:ltda", "question-choice-type-ltda"),
                ("type:slu", "question-choice-type-slu"),
                ("type:sa", "question-choice-type-sa"),
                ("type:undecided", "question-choice-type-undecided"),
            ],
            Answer::CompanySize => &[
                ("size:me", "question-choice-size-me"),
                ("size:epp", "question-choice-size-epp"),
                ("size:other", "question-choice-size-other"),
                ("size:undecided", "question-choice-size-undecided"),
            ],
            Answer::TaxRegime => &[
                ("regime:simples_nacional", "question-choice-regime-simples-nacional"),
                ("regime:lucro_presumido", "question-choice-regime-lucro-presumido"),
                ("regime:lucro_real", "question-choice-regime-lucro-real"),
                ("regime:undecided", "question-choice-regime-undecided"),
            ],
            Answer::Activity => &[
                ("activity:commerce", "question-choice-activity-commerce"),
                ("activity:industry", "question-choice-activity-industry"),
                ("activity:services", "question-choice-activity-services"),
                ("activity:commerce_and_services", "question-choice-activity-commerce-and-services"),
            ],
            Answer::CnpjStatus => &[
                ("cnpj:active", "question-choice-cnpj-active"),
                ("cnpj:in_progress", "question-choice-cnpj-in-progress"),
                ("cnpj:none", "question-choice-cnpj-none"),
            ],
            Answer::Profession => &[
                ("profession:regulated", "question-choice-profession-regulated"),
                ("profession:not_regulated", "question-choice-profession-not-regulated"),
            ],
            Answer::Text
            | Answer::Money
            | Answer::CostPerSale
            | Answer::Count
            | Answer::SalesPerMonth
            | Answer::List
            | Answer::Cnae => &[],
        };
        options
            .iter()
            .map(|(id, key)| Choice::new(*id, crate::words::CATALOGUE.say(lang, key, &[])))
            .collect()
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
