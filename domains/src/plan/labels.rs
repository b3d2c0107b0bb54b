//! The words people read for the plan's closed answers: "Já está funcionando", not `running`; "Em
//! abertura", not `in_progress`. The PDF, the guide's recaps and its messages use them, so no
//! stored code ever reaches the person.

use crate::locale::Language;

/// The label of a closed field's stored key (`stage`, `businessType`, `companySize`, `taxRegime`,
/// `activity`, `cnpjStatus`); None for another field or an unknown key.
pub fn of(field: &str, key: &str, lang: Language) -> Option<String> {
    let label = match (field, key) {
        ("stage", "idea") => say!(lang, "label-stage-idea"),
        ("stage", "planning") => say!(lang, "label-stage-planning"),
        ("stage", "started") => say!(lang, "label-stage-started"),
        ("stage", "running") => say!(lang, "label-stage-running"),
        ("businessType", "mei") => say!(lang, "label-business-type-mei"),
        ("businessType", "me") => say!(lang, "label-business-type-me"),
        ("businessType", "epp") => say!(lang, "label-business-type-epp"),
        ("businessType", "ltda") => say!(lang, "label-business-type-ltda"),
        ("businessType", "slu") => say!(lang, "label-business-type-slu"),
        ("businessType", "sa") => say!(lang, "label-business-type-sa"),
        ("businessType", "undecided") => say!(lang, "label-business-type-undecided"),
        ("businessType", "ei") => say!(lang, "label-business-type-ei"),
        ("companySize", "me") => say!(lang, "label-company-size-me"),
        ("companySize", "epp") => say!(lang, "label-company-size-epp"),
        ("companySize", "other") => say!(lang, "label-company-size-other"),
        ("companySize", "undecided") => say!(lang, "label-company-size-undecided"),
        ("taxRegime", "simei") => say!(lang, "label-tax-regime-simei"),
        ("taxRegime", "simples_nacional") => say!(lang, "label-tax-regime-simples-nacional"),
        ("taxRegime", "lucro_presumido") => say!(lang, "label-tax-regime-lucro-presumido"),
        ("taxRegime", "lucro_real") => say!(lang, "label-tax-regime-lucro-real"),
        ("taxRegime", "undecided") => say!(lang, "label-tax-regime-undecided"),
        ("activity", "commerce") => say!(lang, "label-activity-commerce"),
        ("activity", "industry") => say!(lang, "label-activity-industry"),
        ("activity", "services") => say!(lang, "label-activity-services"),
        ("activity", "commerce_and_services") => say!(lang, "label-activity-commerce-and-services"),
        ("cnpjStatus", "none") => say!(lang, "label-cnpj-status-none"),
        ("cnpjStatus", "in_progress") => say!(lang, "label-cnpj-status-in-progress"),
        ("cnpjStatus", "active") => say!(lang, "label-cnpj-status-active"),
        ("profession", "regulated") => say!(lang, "label-profession-regulated"),
        ("profession", "not_regulated") => say!(lang, "label-profession-not-regulated"),
        _ => return None,
    };
    Some(label)
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
        assert_eq!(of("stage", "running", Language::PtBr), Some("Já está funcionando".to_owned()));
    }
}
