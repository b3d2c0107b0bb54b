//! The words people read for the plan's closed answers: "Já está funcionando", not `running`; "Em
//! abertura", not `in_progress`. The PDF, the guide's recaps and its messages use them, so no
//! stored code ever reaches the person.

use crate::locale::Language;

/// The label of a closed field's stored key (`stage`, `businessType`, `companySize`, `taxRegime`,
/// `activity`, `cnpjStatus`); None for another field or an unknown key.
pub fn of(field: &str, key: &str, lang: Language) -> Option<&'static str> {
    let (pt, en) = match (field, key) {
        ("stage", "idea") => ("Só a ideia", "Just the idea"),
        ("stage", "planning") => ("Planejando", "Planning"),
        ("stage", "started") => ("Começando a operar", "Starting to operate"),
        ("stage", "running") => ("Já está funcionando", "Already running"),
        ("businessType", "mei") => ("MEI", "MEI"),
        ("businessType", "me") => ("ME (microempresa)", "ME (micro-enterprise)"),
        ("businessType", "epp") => ("EPP (empresa de pequeno porte)", "EPP (small company)"),
        ("businessType", "ltda") => ("LTDA", "LTDA"),
        ("businessType", "slu") => {
            ("SLU (sociedade limitada unipessoal)", "SLU (single-member limited company)")
        }
        ("businessType", "sa") => ("S.A.", "S.A."),
        ("businessType", "undecided") => ("Ainda não decidido", "Not decided yet"),
        ("businessType", "ei") => ("Empresário individual", "Sole proprietor (empresário individual)"),
        ("companySize", "me") => ("ME (microempresa)", "ME (micro-enterprise)"),
        ("companySize", "epp") => ("EPP (empresa de pequeno porte)", "EPP (small company)"),
        ("companySize", "other") => ("Acima de EPP", "Above EPP"),
        ("companySize", "undecided") => ("Ainda não sei", "Not sure yet"),
        ("taxRegime", "simei") => ("SIMEI (MEI)", "SIMEI (MEI)"),
        ("taxRegime", "simples_nacional") => ("Simples Nacional", "Simples Nacional"),
        ("taxRegime", "lucro_presumido") => ("Lucro Presumido", "Lucro Presumido"),
        ("taxRegime", "lucro_real") => ("Lucro Real", "Lucro Real"),
        ("taxRegime", "undecided") => ("Ainda não decidido", "Not decided yet"),
        ("activity", "commerce") => ("Comércio", "Commerce"),
        ("activity", "industry") => ("Indústria", "Industry"),
        ("activity", "services") => ("Serviços", "Services"),
        ("activity", "commerce_and_services") => ("Comércio e serviços", "Commerce and services"),
        ("cnpjStatus", "none") => ("Ainda não tem", "None yet"),
        ("cnpjStatus", "in_progress") => ("Em abertura", "Being registered"),
        ("cnpjStatus", "active") => ("Ativo", "Active"),
        ("profession", "regulated") => (
            "Profissão intelectual regulamentada (CBS/IBS 30 % menores)",
            "Regulated intellectual profession (CBS/IBS 30 % lower)",
        ),
        ("profession", "not_regulated") => ("Não regulamentada", "Not regulated"),
        _ => return None,
    };
    Some(lang.choose(pt, en))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_closed_answer_has_words_in_both_languages() {
        for (field, keys) in [
            ("stage", &["idea", "planning", "started", "running"][..]),
            ("businessType", &["mei", "me", "epp", "ltda", "slu", "sa", "undecided", "ei"]),
            ("companySize", &["me", "epp", "other", "undecided"]),
            ("taxRegime", &["simei", "simples_nacional", "lucro_presumido", "lucro_real", "undecided"]),
            ("activity", &["commerce", "industry", "services", "commerce_and_services"]),
            ("cnpjStatus", &["none", "in_progress", "active"]),
            ("profession", &["regulated", "not_regulated"]),
        ] {
            for key in keys {
                for lang in [Language::PtBr, Language::En] {
                    let label = of(field, key, lang).unwrap_or_else(|| panic!("{field}.{key}"));
                    assert!(
                        !label.contains('_') && label != *key || label == "MEI" || label == "LTDA",
                        "{label}"
                    );
                }
            }
        }
        assert_eq!(of("stage", "running", Language::PtBr), Some("Já está funcionando"));
    }
}
