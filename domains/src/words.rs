//! The domains' words: plan, money and taxes, the document, tracking, identity and billing. The messages live in `locales/<tag>/*.ftl` beside `src/`; [`socio_base::words`]
//! says how they are read and checked.

/// This crate's catalogue, one file a domain.
pub(crate) static CATALOGUE: socio_base::words::Catalogue =
    socio_base::catalogue!("billing", "document", "identity", "money", "plan", "tracking");

#[cfg(test)]
socio_base::catalogue_tests!(crate::words::CATALOGUE);
