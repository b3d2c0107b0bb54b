//! The product's two languages and how a request picks one: the explicit field first, then
//! `Accept-Language`, then Brazilian Portuguese. Anything starting with `pt` is pt-BR and anything
//! starting with `en` is English, as the web app does it. The RPC edge scopes each request's
//! language for its handler ([`in_request`]), so that an error anywhere below becomes a message in
//! the caller's language when it turns into a status, without every call site passing it along.

use std::{cell::Cell, fmt, future::Future};

tokio::task_local! {
    /// The language of the request this task is serving.
    static REQUEST_LANGUAGE: Cell<Language>;
}

/// Runs `work` as the handling of a request in `lang`; answers with the output and the language
/// the request ended in (a handler may settle on another: [`answer_in`]).
pub async fn in_request<F: Future>(lang: Language, work: F) -> (F::Output, Language) {
    REQUEST_LANGUAGE
        .scope(Cell::new(lang), async move {
            let output = work.await;
            (output, current())
        })
        .await
}

/// Runs a synchronous step of a request in `lang` (a streamed reply's next item).
pub fn in_request_sync<R>(lang: Language, step: impl FnOnce() -> R) -> R {
    REQUEST_LANGUAGE.sync_scope(Cell::new(lang), step)
}

/// The language of the request being served; pt-BR outside of one.
pub fn current() -> Language {
    REQUEST_LANGUAGE.try_with(Cell::get).unwrap_or_default()
}

/// The rest of this request answers in `lang`: for calls whose body names a language, which
/// wins over `Accept-Language`. Outside of a request it does nothing.
pub fn answer_in(lang: Language) {
    let _ = REQUEST_LANGUAGE.try_with(|cell| cell.set(lang));
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    #[default]
    PtBr,
    En,
}

impl Language {
    /// The BCP 47 tag the web app and the database use.
    pub fn tag(self) -> &'static str {
        match self {
            Language::PtBr => "pt-BR",
            Language::En => "en",
        }
    }

    /// Parses one language tag; None for languages we do not speak.
    pub fn parse(tag: &str) -> Option<Self> {
        let tag = tag.trim().to_ascii_lowercase();
        if tag.starts_with("pt") {
            Some(Language::PtBr)
        } else if tag.starts_with("en") {
            Some(Language::En)
        } else {
            None
        }
    }

    /// The best language of an `Accept-Language` header, honouring q-values; pt-BR when none fits.
    pub fn from_accept_language(header: Option<&str>) -> Self {
        let Some(header) = header else {
            return Language::default();
        };
        let mut best: Option<(f32, Language)> = None;
        for part in header.split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or_default();
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            if let Some(lang) = Language::parse(tag)
                && best.is_none_or(|(best_q, _)| q > best_q)
            {
                best = Some((q, lang));
            }
        }
        best.map(|(_, lang)| lang).unwrap_or_default()
    }

    /// The explicit choice when it names a language we speak, else the header's.
    pub fn pick(explicit: &str, accept_language: Option<&str>) -> Self {
        Language::parse(explicit).unwrap_or_else(|| Language::from_accept_language(accept_language))
    }

    /// The separators of a number's thousands and its decimals: "1.234,56" / "1,234.56".
    pub fn separators(self) -> (char, char) {
        match self {
            Language::PtBr => ('.', ','),
            Language::En => (',', '.'),
        }
    }

    /// A number Rust wrote ("4.5") with this language's decimal mark ("4,5").
    pub fn decimal(self, written: &str) -> String {
        written.replace('.', &self.separators().1.to_string())
    }
}

/// Words that mark a text as English or Portuguese.
const ENGLISH: &[&str] = &[
    "hello", "hi", "hey", "the", "i", "i'm", "my", "want", "to", "and", "is", "are", "you", "your",
    "business", "what", "how", "can", "please", "thanks", "thank", "with", "for", "good", "morning", "start",
    "open", "help", "need", "would", "like",
];
const PORTUGUESE: &[&str] = &[
    "oi", "olá", "ola", "bom", "boa", "dia", "tarde", "noite", "eu", "meu", "minha", "quero", "um", "uma",
    "de", "do", "da", "para", "com", "não", "nao", "sim", "obrigado", "obrigada", "você", "voce", "negócio",
    "negocio", "abrir", "tudo", "bem", "como", "que", "é", "e", "ajuda", "preciso",
];

impl Language {
    /// English only when the text clearly is (more English than Portuguese marker words, and at
    /// least one); None when it says nothing either way.
    pub fn guess_from_text(text: &str) -> Option<Self> {
        let lower = text.to_lowercase();
        let words: Vec<&str> =
            lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
        let english = words.iter().filter(|w| ENGLISH.contains(w)).count();
        let portuguese = words.iter().filter(|w| PORTUGUESE.contains(w)).count();
        if english > portuguese && english >= 1 && (english >= 2 || words.len() <= 2) {
            Some(Language::En)
        } else if portuguese > 0 {
            Some(Language::PtBr)
        } else {
            None
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_s_language_holds_for_its_work_and_a_handler_may_settle_on_another() {
        assert_eq!(current(), Language::PtBr, "pt-BR outside of a request");
        let (seen, ended) = in_request(Language::En, async { current() }).await;
        assert_eq!((seen, ended), (Language::En, Language::En));
        let (_, ended) = in_request(Language::En, async { answer_in(Language::PtBr) }).await;
        assert_eq!(ended, Language::PtBr);
        assert_eq!(in_request_sync(Language::En, current), Language::En);
        assert_eq!(current(), Language::PtBr, "the scope ends with the request");
    }

    #[test]
    fn portuguese_is_the_default_without_a_header() {
        assert_eq!(Language::from_accept_language(None), Language::PtBr);
        assert_eq!(Language::from_accept_language(Some("de-DE")), Language::PtBr);
    }

    #[test]
    fn any_portuguese_or_english_variant_maps_to_our_two_languages() {
        assert_eq!(Language::from_accept_language(Some("pt-PT")), Language::PtBr);
        assert_eq!(Language::from_accept_language(Some("en-GB,en;q=0.8")), Language::En);
    }

    #[test]
    fn q_values_decide_between_languages() {
        assert_eq!(Language::from_accept_language(Some("en;q=0.4, pt-BR;q=0.9")), Language::PtBr);
        assert_eq!(Language::from_accept_language(Some("de, en;q=0.5, pt;q=0.2")), Language::En);
    }

    #[test]
    fn clearly_english_first_messages_are_english_and_everything_else_portuguese() {
        assert_eq!(Language::guess_from_text("Hello, I want to open a bakery"), Some(Language::En));
        assert_eq!(Language::guess_from_text("Hi"), Some(Language::En));
        assert_eq!(Language::guess_from_text("Oi! Quero abrir uma padaria."), Some(Language::PtBr));
        assert_eq!(Language::guess_from_text("Oi, hello"), Some(Language::PtBr));
        assert_eq!(Language::guess_from_text("👍"), None);
    }

    #[test]
    fn an_explicit_language_wins_over_the_header() {
        assert_eq!(Language::pick("en", Some("pt-BR")), Language::En);
        assert_eq!(Language::pick("", Some("en")), Language::En);
        assert_eq!(Language::pick("xx", None), Language::PtBr);
    }
}
