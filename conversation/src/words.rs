//! The conversation's words: what the consultant and the guide say on WhatsApp. The messages live in `locales/<tag>/*.ftl` beside `src/`; [`socio_base::words`]
//! says how they are read and checked.

/// This crate's catalogue, one file a domain.
pub(crate) static CATALOGUE: socio_base::words::Catalogue =
    socio_base::catalogue!("consultant", "conversation", "guide", "questions");

#[cfg(test)]
socio_base::catalogue_tests!(crate::words::CATALOGUE);
