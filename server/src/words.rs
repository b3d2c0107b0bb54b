//! The edge's words: what the API says beside the errors. The messages live in `locales/<tag>/*.ftl` beside `src/`; [`socio_base::words`]
//! says how they are read and checked.

/// This crate's catalogue, one file a domain.
pub(crate) static CATALOGUE: socio_base::words::Catalogue = socio_base::catalogue!("api");

#[cfg(test)]
socio_base::catalogue_tests!(crate::words::CATALOGUE);
