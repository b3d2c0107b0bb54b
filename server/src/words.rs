//! The edge's words: what the API says beside the errors. The messages live in `locales/<tag>/*.ftl` beside `src/`; [`socio_base::words`]
//! says how they are read and checked.

/// This crate's catalogue, one file a domain.
pub(crate) static CATALOGUE: socio_base::words::Catalogue = socio_base::catalogue!("api");

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::CATALOGUE;

    #[test]
    fn both_languages_have_the_same_messages_with_the_same_arguments() {
        let problems = CATALOGUE.problems();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_code_says_only_messages_the_catalogue_has_and_gives_each_its_arguments() {
        let problems = CATALOGUE.source_problems(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")));
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
