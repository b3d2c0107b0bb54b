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
        lang.choose(
            "💡 Dica: como o negócio já vende, anote por um mês quantas vendas faz, o valor de cada uma e de onde vêm os clientes — esses números reais valem mais que qualquer estimativa.",
            "💡 Tip: since the business already sells, write down for a month how many sales it makes, what each is worth and where the customers come from — real numbers beat any estimate.",
        )
        .to_owned()
    } else {
        lang.choose(
            "💡 Dica: antes de investir, converse com 10 possíveis clientes e pergunte se pagariam pelo seu produto e quanto.",
            "💡 Tip: before investing, talk to 10 potential customers and ask whether they would pay for your product, and how much.",
        )
        .to_owned()
    }
}

/// The tip after the people step: the MEI's one employee, or a company's payroll costs.
pub fn people_tip(form: Form, lang: Language) -> String {
    match form {
        Form::Company => lang
            .choose(
                "💡 Dica: numa empresa, cada empregado custa bem mais que o salário (encargos, férias, 13º); peça ao contador o custo total antes de contratar.",
                "💡 Tip: in a company each employee costs well beyond the salary (charges, holidays, 13th salary); ask the accountant for the full cost before hiring.",
            )
            .to_owned(),
        Form::Mei | Form::Undecided => format!(
            "💡 {} {}",
            quote("mei.employees", lang),
            lang.choose("Com mais gente, planeje outra natureza jurídica.", "With more people, plan another legal form."),
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
            lang.choose(
                "Se você já é MEI e vai ser sócio da nova empresa, dê baixa no MEI antes: quem é sócio de outra empresa não pode ser MEI.",
                "If you are already an MEI and will be a partner in the new company, close the MEI first: a partner of another company cannot be an MEI.",
            ),
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
            lang.choose(
                "Com o CNPJ ativo, combine com o seu contador o calendário das guias (DAS, DCTFWeb, ISS ou ICMS) e guarde as notas de cada mês; os prazos que valem para você aparecem no painel.",
                "With your CNPJ active, agree with your accountant on the calendar of tax slips (DAS, DCTFWeb, ISS or ICMS) and keep each month's invoices; the deadlines that apply to you show on the dashboard.",
            ),
            quote("help.sebrae", lang)
        ),
    }
}

/// The PDF's next step to formalise a business without a CNPJ yet.
pub fn formalise_step(form: Form, lang: Language) -> String {
    match form {
        Form::Mei => lang
            .choose(
                "Formalize o negócio: abra o MEI, de graça, no Portal do Empreendedor (gov.br/mei).",
                "Formalise the business: register the MEI, free, on the Portal do Empreendedor (gov.br/mei).",
            )
            .to_owned(),
        Form::Company => lang
            .choose(
                "Formalize a empresa: com um contador, registre o contrato social na Junta Comercial pela REDESIM e obtenha o CNPJ, a inscrição municipal e o alvará. Se você é MEI e vai ser sócio, dê baixa no MEI antes.",
                "Formalise the company: with an accountant, register the articles of association at the Junta Comercial through REDESIM and get the CNPJ, the municipal registration and the permit. If you are an MEI and will be a partner, close the MEI first.",
            )
            .to_owned(),
        Form::Undecided => lang
            .choose(
                "Formalize o negócio: escolha a natureza jurídica (MEI se couber no limite e na atividade; senão ME/LTDA com um contador) e abra o CNPJ.",
                "Formalise the business: choose the legal form (MEI if it fits the limit and the activity; otherwise ME/LTDA with an accountant) and register a CNPJ.",
            )
            .to_owned(),
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
