//! Closed answers written in words: the stage, legal form, size, tax regime, activity and CNPJ
//! status a person types (in Portuguese or English, with or without accents) read as the field's
//! code.

use crate::consultant::parse;

pub(super) fn stage(lower: &str) -> Option<&'static str> {
    [
        (["funcionando", "running", "já vendo", "ja vendo"], "running"),
        (["começando", "comecando", "starting", "abrindo"], "started"),
        (["planejando", "planning", "planejamento", "plano"], "planning"),
        (["ideia", "idea", "só", "just"], "idea"),
    ]
    .iter()
    .find(|(words, _)| words.iter().any(|w| lower.contains(w)))
    .map(|(_, stage)| *stage)
}

pub(super) fn business_type(lower: &str) -> Option<&'static str> {
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).collect();
    let has = |w: &str| words.contains(&w);
    if has("mei") {
        Some("mei")
    } else if has("ei") || lower.contains("individual") || lower.contains("sole") {
        Some("ei")
    } else if has("ltda") || lower.contains("limitada") {
        Some("ltda")
    } else if has("slu") || lower.contains("unipessoal") {
        Some("slu")
    } else if has("epp") {
        Some("epp")
    } else if has("me") || lower.contains("microempresa") {
        Some("me")
    } else if has("sa") || lower.contains("s.a") {
        Some("sa")
    } else if lower.contains("não sei")
        || lower.contains("nao sei")
        || lower.contains("not sure")
        || lower.contains("ainda não")
    {
        Some("undecided")
    } else {
        None
    }
}

pub(super) fn company_size(lower: &str) -> Option<&'static str> {
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).collect();
    let has = |w: &str| words.contains(&w);
    if ["acima", "above", "demais", "maior", "grande", "larger"].iter().any(|w| lower.contains(w)) {
        Some("other")
    } else if has("epp") || lower.contains("pequeno porte") || lower.contains("small") {
        Some("epp")
    } else if has("me") || has("mei") || lower.contains("micro") {
        Some("me")
    } else if ["não sei", "nao sei", "not sure", "ainda não", "ainda nao"].iter().any(|w| lower.contains(w))
    {
        Some("undecided")
    } else {
        None
    }
}

pub(super) fn tax_regime(lower: &str) -> Option<&'static str> {
    if lower.contains("simples") {
        Some("simples_nacional")
    } else if lower.contains("presumido") {
        Some("lucro_presumido")
    } else if lower.contains("real") {
        Some("lucro_real")
    } else if lower.contains("simei") || lower.split(|c: char| !c.is_alphanumeric()).any(|w| w == "mei") {
        Some("simei")
    } else if ["não sei", "nao sei", "not sure", "ainda não", "ainda nao"].iter().any(|w| lower.contains(w))
    {
        Some("undecided")
    } else {
        None
    }
}

pub(super) fn activity(lower: &str) -> Option<&'static str> {
    let commerce = ["comércio", "comercio", "commerce", "revend", "loja", "resale", "vend"]
        .iter()
        .any(|w| lower.contains(w));
    let services = ["servi", "atendimento"].iter().any(|w| lower.contains(w));
    let industry =
        ["indústria", "industria", "industry", "fabric", "produz", "makes"].iter().any(|w| lower.contains(w));
    match (commerce, services, industry) {
        (true, true, _) => Some("commerce_and_services"),
        (_, true, false) => Some("services"),
        (_, _, true) => Some("industry"),
        (true, false, false) => Some("commerce"),
        _ => None,
    }
}

pub(super) fn cnpj_status(lower: &str) -> Option<&'static str> {
    if lower.contains("abrindo") || lower.contains("being") || lower.contains("processo") {
        Some("in_progress")
    } else {
        parse::yes_no(lower).map(|yes| if yes { "active" } else { "none" })
    }
}

/// Whether the services are a regulated intellectual profession (LC 214/2025 art. 127): yes or no,
/// or the profession named.
pub(super) fn profession(lower: &str) -> Option<&'static str> {
    // A doubt is not an answer: nothing is stored, the guide explains and asks again.
    if ["não sei", "nao sei", "not sure", "talvez", "maybe"].iter().any(|w| lower.contains(w)) {
        return None;
    }
    if lower.contains("regulament") && !lower.starts_with("não") && !lower.starts_with("nao") {
        return Some("regulated");
    }
    parse::yes_no(lower).map(|yes| if yes { "regulated" } else { "not_regulated" })
}

/// A CNAE subclass as seven digits: typed as a code, or the business described in words matched to
/// an entry of the facts' table (the words people use for the commonest activities).
pub(super) fn cnae(text: &str) -> Option<String> {
    if let Some(code) = crate::plan::sections::normalise_cnae(text) {
        return Some(code);
    }
    const WORDS: &[(&[&str], &str)] = &[
        (&["cabeleireir", "salao de beleza", "manicure", "pedicure", "barbearia", "barbeiro"], "9602501"),
        (&["estetica", "design de sobrancelha", "depilacao"], "9602502"),
        (&["software", "sistema", "programacao", "aplicativo", "desenvolvimento de app"], "6201501"),
        (&["consultoria em ti", "consultoria de ti", "tecnologia da informacao"], "6204000"),
        (&["consultoria", "consultor"], "7020400"),
        (&["contabilidade", "contador", "escritorio contabil"], "6920601"),
        (&["academia", "personal trainer"], "9313100"),
        (&["oficina", "mecanica", "mecanico"], "4520001"),
        (&["agencia de viagem", "agencia de turismo"], "7911200"),
        (&["publicidade", "agencia de marketing"], "7311400"),
        (&["arquitetura", "arquiteto"], "7111100"),
        (&["psicolog", "psicanal"], "8650003"),
        (&["dentista", "odontolog"], "8630504"),
        (&["limpeza", "faxina"], "8121400"),
        (&["vigilancia", "seguranca privada"], "8011101"),
        (&["advocacia", "advogad", "escritorio de advocacia"], "6911701"),
        (&["construcao", "construtora", "obras"], "4120400"),
    ];
    let folded = crate::identity::search::fold(text);
    WORDS
        .iter()
        .find(|(words, _)| words.iter().any(|w| folded.contains(w)))
        .map(|(_, code)| (*code).to_owned())
}
