//! What the guide says to a doubt ("não sei", "o que você sugere?") instead of an answer: a
//! suggestion for the question it asked — how to think about it, with an example —, then the
//! question again. Nothing is saved: a doubt is never an answer.

use crate::{identity::search::fold, locale::Language};

use super::super::questions::{Answer, Question};

/// Whether the text is a doubt rather than an answer: short words of not knowing ("não sei",
/// "sei lá", "not sure"), or asking for a suggestion anywhere in it ("o que você sugere para uma
/// padaria pequena?").
pub(super) fn is_doubt(text: &str) -> bool {
    let folded = fold(text);
    const ASKING: &[&str] = &[
        "o que voce sugere",
        "o que sugere",
        "voce sugere",
        "o que voce acha",
        "alguma sugestao",
        "uma sugestao",
        "me sugere",
        "me da uma ideia",
        "me ajuda",
        "me ajude",
        "what do you suggest",
        "what would you suggest",
        "any suggestion",
        "what do you think",
        "help me",
    ];
    const NOT_KNOWING: &[&str] = &[
        "nao sei",
        "sei la",
        "nao faco ideia",
        "nao tenho ideia",
        "nao tenho certeza",
        "nao pensei",
        "ainda nao pensei",
        "nao entendi",
        "i don't know",
        "i dont know",
        "not sure",
        "no idea",
        "haven't thought",
    ];
    let short = folded.split_whitespace().count() <= 8;
    ASKING.iter().any(|p| folded.contains(p)) || (short && NOT_KNOWING.iter().any(|p| folded.contains(p)))
}

/// Whether a doubt is a real answer to this question: where "não sei" is one of its answers (the
/// legal form, size and regime not decided yet; licences not known).
pub(super) fn doubt_is_an_answer(question: &Question) -> bool {
    matches!(
        question.answer,
        Answer::Stage
            | Answer::BusinessType
            | Answer::CompanySize
            | Answer::TaxRegime
            | Answer::Activity
            | Answer::CnpjStatus
            | Answer::Cnae
    ) || question.field == "licences"
}

/// The suggestion for a question, then the question again.
pub(super) fn suggest(question: &Question, lang: Language) -> String {
    let suggestion = suggestion(question.field, lang);
    say!(lang, "guide-suggestions-no-problem-let-s-think", suggestion, question = question.text(lang))
}

fn suggestion(field: &str, lang: Language) -> String {
    match field {
        "businessIdea" => say!(lang, "guide-suggestion-business-idea"),
        "problem" => say!(lang, "guide-suggestion-problem"),
        "differentiator" => say!(lang, "guide-suggestion-differentiator"),
        "industry" => say!(lang, "guide-suggestion-industry"),
        "targetCustomer" => say!(lang, "guide-suggestion-target-customer"),
        "competitors" => say!(lang, "guide-suggestion-competitors"),
        "location" => say!(lang, "guide-suggestion-location"),
        "strengths" => say!(lang, "guide-suggestion-strengths"),
        "weaknesses" => say!(lang, "guide-suggestion-weaknesses"),
        "opportunities" => say!(lang, "guide-suggestion-opportunities"),
        "threats" => say!(lang, "guide-suggestion-threats"),
        "startupCosts" => say!(lang, "guide-suggestion-startup-costs"),
        "workingCapital" => say!(lang, "guide-suggestion-working-capital"),
        "monthlyFixedCosts" => say!(lang, "guide-suggestion-monthly-fixed-costs"),
        "averageTicket" => say!(lang, "guide-suggestion-average-ticket"),
        "variableCostPerSale" => say!(lang, "guide-suggestion-variable-cost-per-sale"),
        "expectedSalesPerMonth" => say!(lang, "guide-suggestion-expected-sales-per-month"),
        "fundingSource" => say!(lang, "guide-suggestion-funding-source"),
        "channels" => say!(lang, "guide-suggestion-channels"),
        "positioning" => say!(lang, "guide-suggestion-positioning"),
        "launchPlan" => say!(lang, "guide-suggestion-launch-plan"),
        "teamSize" => say!(lang, "guide-suggestion-team-size"),
        "roles" => say!(lang, "guide-suggestion-roles"),
        "partners" => say!(lang, "guide-suggestion-partners"),
        "monthlyWages" | "monthlyProLabore" => say!(lang, "guide-suggestion-monthly-pro-labore"),
        "profession" => say!(lang, "guide-suggestion-profession"),
        _ => say!(lang, "guide-suggestion-any"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::consultant::questions::QUESTIONS;

    #[test]
    fn doubts_and_requests_for_a_suggestion_are_not_answers() {
        for doubt in [
            "Não sei bem; o que você sugere para uma padaria pequena?",
            "não sei",
            "sei lá",
            "Ainda não pensei nisso",
            "what do you suggest?",
            "not sure",
        ] {
            assert!(is_doubt(doubt), "{doubt}");
        }
        for answer in [
            "Perto da escola do bairro, no centro de Campinas",
            "Tem duas padarias grandes, mas não sei o nome delas e elas abrem tarde e têm fila todo dia",
            "R$ 20 mil",
        ] {
            assert!(!is_doubt(answer), "{answer}");
        }
    }

    #[test]
    fn every_open_question_has_its_own_suggestion_in_both_languages() {
        let generic = suggestion("?", Language::PtBr);
        for question in QUESTIONS.iter().filter(|q| !doubt_is_an_answer(q)) {
            assert_ne!(suggestion(question.field, Language::PtBr), generic, "{}", question.field);
        }
    }
}
