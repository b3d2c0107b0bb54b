//! Advice that follows the business: the chosen legal form (a MEI's free registration at
//! gov.br/mei; an LTDA's or SLU's path through REDESIM, the contrato social and an accountant;
//! closing a MEI before its owner becomes a partner of another company) and its stage (no
//! "validate the idea" for a business already running). The guide's tips and the PDF's next steps
//! use it, with the dated facts they quote.

use crate::{facts, locale::Language};

/// The plan's legal form, as the advice needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Mei,
    /// An empresário individual, LTDA, SLU, S.A. (or ME/EPP saved as a form by older answers): a
    /// business registered at the Junta Comercial.
    Company,
    Undecided,
}

impl Form {
    /// From the plan's legal step (a MEI by `taxes::is_mei`, the one rule).
    pub fn of(legal: &serde_json::Value) -> Self {
        if super::money::taxes::is_mei(legal) {
            return Form::Mei;
        }
        match legal["businessType"].as_str().unwrap_or_default() {
            "me" | "epp" | "ltda" | "slu" | "sa" | "ei" => Form::Company,
            _ => Form::Undecided,
        }
    }
}

/// A fact with its citation, as it stands on `day` (YYYY-MM-DD; past its period, said so).
fn quote_on(id: &str, day: &str, lang: Language) -> String {
    let fact = facts::get(id);
    format!("{} {}", fact.text_on(day, lang), fact.citation(lang))
}

fn quote(id: &str, lang: Language) -> String {
    let fact = facts::get(id);
    format!("{} {}", fact.text(lang), fact.citation(lang))
}

/// The tip after the idea step: validating the idea before investing, or, for a business that
/// already sells, measuring what it has.
pub fn idea_tip(stage: &str, lang: Language) -> String {
    if matches!(stage, "running" | "started") {
        say!(lang, "plan-advice-tip-since-the-business-already")
    } else {
        say!(lang, "plan-advice-tip-before-investing-talk-to")
    }
}

/// The tip after the people step: the MEI's one employee, or a company's payroll costs.
pub fn people_tip(form: Form, lang: Language) -> String {
    match form {
        Form::Company => say!(lang, "plan-advice-tip-in-a-company-each"),
        Form::Mei | Form::Undecided => format!(
            "💡 {} {}",
            quote("mei.employees", lang),
            say!(lang, "plan-advice-with-more-people-plan-another"),
        ),
    }
}

/// The tip after the legal step, as it stands on `day` (YYYY-MM-DD).
pub fn legal_tip(form: Form, day: &str, lang: Language) -> String {
    match form {
        Form::Mei => format!(
            "💡 {}\n{}\n{}",
            quote("mei.register", lang),
            quote_on("mei.das", day, lang),
            quote("help.sebrae", lang)
        ),
        Form::Company => format!(
            "💡 {}\n{}\n{}",
            quote("legal.ltda", lang),
            say!(lang, "plan-advice-if-you-are-already-an"),
            quote("mei.who_cannot", lang)
        ),
        Form::Undecided => format!(
            "💡 {}\n{}\n{}",
            quote("mei.revenue_limit", lang),
            quote("legal.ltda", lang),
            quote("help.sebrae", lang)
        ),
    }
}

/// The tip after the legal step for a business that already has its CNPJ: keeping it in order,
/// never how to open one.
pub fn registered_tip(form: Form, day: &str, lang: Language) -> String {
    match form {
        Form::Mei => format!(
            "💡 {}\n{}\n{}",
            quote_on("mei.das", day, lang),
            quote("mei.dasn", lang),
            quote("mei.revenue_limit", lang)
        ),
        Form::Company | Form::Undecided => format!(
            "💡 {}\n{}",
            say!(lang, "plan-advice-with-your-cnpj-active-agree"),
            quote("help.sebrae", lang)
        ),
    }
}

/// The PDF's next step to formalise a business without a CNPJ yet.
pub fn formalise_step(form: Form, lang: Language) -> String {
    match form {
        Form::Mei => say!(lang, "plan-advice-formalise-the-business-register-the"),
        Form::Company => say!(lang, "plan-advice-formalise-the-company-with-an"),
        Form::Undecided => say!(lang, "plan-advice-formalise-the-business-choose-the"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ltda_is_told_the_company_path_and_to_close_a_mei_first_never_to_open_one() {
        let form = Form::of(&serde_json::json!({"businessType": "ltda", "taxRegime": "simples_nacional"}));
        let tip = legal_tip(form, "2026-11-27", Language::PtBr);
        assert!(tip.contains("dê baixa no MEI") && tip.contains("Lei 13.874/2019"), "{tip}");
        assert!(!tip.contains("gov.br/mei"), "{tip}");
        let next = formalise_step(form, Language::PtBr);
        assert!(
            next.contains("REDESIM") && next.contains("contador") && !next.contains("abra o MEI"),
            "{next}"
        );
        assert!(!people_tip(form, Language::PtBr).contains("no máximo 1 empregado"));
    }

    #[test]
    fn a_running_business_is_not_told_to_validate_its_idea() {
        assert!(!idea_tip("running", Language::PtBr).contains("10 possíveis clientes"));
        assert!(idea_tip("idea", Language::PtBr).contains("10 possíveis clientes"));
        assert!(
            legal_tip(Form::of(&serde_json::json!({"businessType": "mei"})), "2026-11-27", Language::PtBr)
                .contains("gov.br/mei")
        );
    }
}
