//! The words people read, kept in catalogues: each crate that speaks has a `locales/<tag>/*.ftl`
//! folder of Fluent messages, one file a domain, the same keys and arguments in every language
//! (checked by [`Catalogue::problems`] and [`Catalogue::source_problems`] in each crate's tests).
//! A crate declares its catalogue once with [`catalogue!`] (the files are compiled in, so the
//! binary needs nothing beside it) and says a message with its own `say!` macro, which calls
//! [`Catalogue::say`]; the bundles are parsed once, on first use. Fluent was chosen over a
//! hand-made table because translators know it and it carries plurals (`[one]`/`*[other]`),
//! arguments and selectors in the message, where they belong, not in Rust.

use std::{borrow::Cow, collections::BTreeMap, collections::BTreeSet, path::Path, sync::OnceLock};

use fluent_bundle::{FluentArgs, FluentResource, FluentValue, concurrent::FluentBundle};
use fluent_syntax::ast;

use crate::locale::Language;

/// The ground floor's own words: errors, the dated facts' notes and the WhatsApp wire's texts.
pub(crate) static CATALOGUE: Catalogue = crate::catalogue!("clock", "error", "facts", "whatsapp");

/// One catalogue file of one language, compiled into the binary.
pub struct Source {
    pub language: Language,
    pub file: &'static str,
    pub text: &'static str,
}

/// One crate's messages in both languages.
pub struct Catalogue {
    sources: &'static [Source],
    bundles: OnceLock<Bundles>,
}

struct Bundles {
    pt_br: FluentBundle<FluentResource>,
    en: FluentBundle<FluentResource>,
}

/// A value put into a message: text as it is, or a number (which also picks the plural).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Text(String),
    Number(f64),
}

/// What can be put into a message; taken by reference, so a `say!` moves nothing.
pub trait ToArg {
    fn to_arg(&self) -> Arg;
}

macro_rules! numbers {
    ($($t:ty),*) => { $(
        impl ToArg for $t {
            fn to_arg(&self) -> Arg { Arg::Number(*self as f64) }
        }
    )* };
}
numbers!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

impl ToArg for str {
    fn to_arg(&self) -> Arg {
        Arg::Text(self.to_owned())
    }
}
impl ToArg for String {
    fn to_arg(&self) -> Arg {
        Arg::Text(self.clone())
    }
}
impl ToArg for Cow<'_, str> {
    fn to_arg(&self) -> Arg {
        Arg::Text(self.to_string())
    }
}
impl ToArg for char {
    fn to_arg(&self) -> Arg {
        Arg::Text(self.to_string())
    }
}
/// A yes or no picks a message's `[true]`/`*[false]` variant.
impl ToArg for bool {
    fn to_arg(&self) -> Arg {
        Arg::Text(self.to_string())
    }
}
/// Fractions are shown as Rust writes them; a message that needs a comma gets them as text.
impl ToArg for f64 {
    fn to_arg(&self) -> Arg {
        Arg::Text(self.to_string())
    }
}

impl Catalogue {
    pub const fn new(sources: &'static [Source]) -> Self {
        Self { sources, bundles: OnceLock::new() }
    }

    fn bundles(&self) -> &Bundles {
        self.bundles
            .get_or_init(|| Bundles { pt_br: self.bundle(Language::PtBr), en: self.bundle(Language::En) })
    }

    fn bundle(&self, language: Language) -> FluentBundle<FluentResource> {
        let tag = language.tag().parse().expect("a language tag of ours parses");
        let mut bundle = FluentBundle::new_concurrent(vec![tag]);
        bundle.set_use_isolating(false);
        for source in self.sources.iter().filter(|s| s.language == language) {
            let resource =
                FluentResource::try_new(source.text.to_owned()).unwrap_or_else(|(resource, _)| resource);
            // Problems (a bad line, a key twice) are reported by `problems`, which the tests run.
            let _ = bundle.add_resource(resource);
        }
        bundle
    }

    /// The message `id` in `lang`, with `args` put in. A message that is missing (a test fails on
    /// it before it ships) reads as its key.
    pub fn say(&self, lang: Language, id: &str, args: &[(&str, Arg)]) -> String {
        let bundles = self.bundles();
        let bundle = match lang {
            Language::PtBr => &bundles.pt_br,
            Language::En => &bundles.en,
        };
        let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
            debug_assert!(false, "no message {id} in the {} catalogue", lang.tag());
            return id.to_owned();
        };
        let mut fluent_args = FluentArgs::with_capacity(args.len());
        for (name, value) in args {
            let value = match value {
                Arg::Text(text) => FluentValue::from(text.as_str()),
                Arg::Number(number) => FluentValue::from(*number),
            };
            fluent_args.set(*name, value);
        }
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
        debug_assert!(errors.is_empty(), "message {id} in {}: {errors:?}", lang.tag());
        text.into_owned()
    }

    /// What is wrong with the catalogue files: a line Fluent cannot read, a key given twice, a key
    /// one language has and the other lacks, or a message whose arguments differ between them.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let mut by_language: BTreeMap<&str, BTreeMap<String, (String, BTreeSet<String>)>> = BTreeMap::new();
        for source in self.sources {
            let resource = match FluentResource::try_new(source.text.to_owned()) {
                Ok(resource) => resource,
                Err((resource, errors)) => {
                    for error in errors {
                        problems.push(format!("{}: cannot read {:?}", source.file, error));
                    }
                    resource
                }
            };
            let messages = by_language.entry(source.language.tag()).or_default();
            for entry in resource.entries() {
                let ast::Entry::Message(message) = entry else { continue };
                let id = message.id.name.to_owned();
                let mut variables = BTreeSet::new();
                if let Some(pattern) = &message.value {
                    pattern_variables(pattern, &mut variables);
                }
                if let Some((file, _)) = messages.insert(id.clone(), (source.file.to_owned(), variables)) {
                    problems.push(format!("{}: {id} is also in {file}", source.file));
                }
            }
        }
        let empty = BTreeMap::new();
        let pt_br = by_language.get(Language::PtBr.tag()).unwrap_or(&empty);
        let en = by_language.get(Language::En.tag()).unwrap_or(&empty);
        for (id, (file, variables)) in pt_br {
            match en.get(id) {
                None => problems.push(format!("{file}: {id} has no English message")),
                Some((_, english)) if english != variables => problems
                    .push(format!("{file}: {id} takes {variables:?} in pt-BR but {english:?} in English")),
                Some(_) => {}
            }
        }
        for (id, (file, _)) in en {
            if !pt_br.contains_key(id) {
                problems.push(format!("{file}: {id} has no pt-BR message"));
            }
        }
        problems
    }

    /// What the code under `src` says wrong: a `say!` of a key the catalogue lacks, an argument
    /// the message does not take or one it takes and is not given, and a message nobody says
    /// (no string literal in the code names it).
    pub fn source_problems(&self, src: &Path) -> Vec<String> {
        let mut variables_of: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for source in self.sources.iter().filter(|s| s.language == Language::PtBr) {
            let resource = FluentResource::try_new(source.text.to_owned()).unwrap_or_else(|(r, _)| r);
            for entry in resource.entries() {
                if let ast::Entry::Message(message) = entry {
                    let mut variables = BTreeSet::new();
                    if let Some(pattern) = &message.value {
                        pattern_variables(pattern, &mut variables);
                    }
                    variables_of.insert(message.id.name.to_owned(), variables);
                }
            }
        }
        let mut problems = Vec::new();
        let mut named = BTreeSet::new();
        for (path, code) in rust_files(src) {
            for literal in string_literals(&code) {
                named.insert(literal);
            }
            for call in say_calls(&code) {
                let Some(variables) = variables_of.get(&call.key) else {
                    problems.push(format!("{path}: says {} which no catalogue has", call.key));
                    continue;
                };
                let given: BTreeSet<String> = call.arguments.into_iter().collect();
                if &given != variables {
                    problems.push(format!("{path}: {} takes {variables:?} but is given {given:?}", call.key));
                }
            }
        }
        for id in variables_of.keys() {
            if !named.contains(id) {
                problems.push(format!("{id} is in the catalogue but the code never says it"));
            }
        }
        problems
    }
}

fn pattern_variables(pattern: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, out);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Inline(inline) => inline_variables(inline, out),
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for variant in variants {
                pattern_variables(&variant.value, out);
            }
        }
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_owned());
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, out),
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for argument in &arguments.positional {
                inline_variables(argument, out);
            }
        }
        ast::InlineExpression::StringLiteral { .. }
        | ast::InlineExpression::NumberLiteral { .. }
        | ast::InlineExpression::MessageReference { .. }
        | ast::InlineExpression::TermReference { .. } => {}
    }
}

fn rust_files(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return files };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs")
            && let Ok(code) = std::fs::read_to_string(&path)
        {
            files.push((path.display().to_string(), code));
        }
    }
    files
}

/// One `say!(lang, "key", name, other = value)` in the code.
struct SayCall {
    key: String,
    arguments: Vec<String>,
}

/// The end (exclusive) of the literal starting at `at`, if a string or char literal starts there.
fn literal_end(code: &[u8], at: usize) -> Option<usize> {
    let before_is_word = at > 0 && (code[at - 1].is_ascii_alphanumeric() || code[at - 1] == b'_');
    match code[at] {
        b'"' if !before_is_word => {
            let mut i = at + 1;
            while i < code.len() {
                match code[i] {
                    b'\\' => i += 2,
                    b'"' => return Some(i + 1),
                    _ => i += 1,
                }
            }
            Some(code.len())
        }
        b'r' if !before_is_word => {
            let hashes = code[at + 1..].iter().take_while(|&&c| c == b'#').count();
            if code.get(at + 1 + hashes) != Some(&b'"') {
                return None;
            }
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let start = at + 2 + hashes;
            let end = code[start..].windows(close.len()).position(|w| w == close.as_slice())?;
            Some(start + end + close.len())
        }
        b'\'' => {
            if code.get(at + 1) == Some(&b'\\') {
                code[at + 2..].iter().position(|&c| c == b'\'').map(|p| at + 3 + p)
            } else {
                // One character closed by a quote; a lifetime otherwise.
                let first = code.get(at + 1).copied()?;
                let width = match first {
                    0x00..=0x7f => 1,
                    0xc0..=0xdf => 2,
                    0xe0..=0xef => 3,
                    _ => 4,
                };
                (code.get(at + 1 + width) == Some(&b'\'')).then_some(at + 2 + width)
            }
        }
        _ => None,
    }
}

/// The contents of every plain string literal in `code` (to know which keys the code names).
fn string_literals(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if let Some(end) = literal_end(bytes, i) {
            if bytes[i] == b'"' {
                out.push(code[i + 1..end.saturating_sub(1).max(i + 1)].to_owned());
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

fn say_calls(code: &str) -> Vec<SayCall> {
    let bytes = code.as_bytes();
    let mut calls = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if let Some(end) = literal_end(bytes, i) {
            i = end;
            continue;
        }
        if bytes[i..].starts_with(b"//") {
            i += bytes[i..].iter().position(|&c| c == b'\n').unwrap_or(bytes.len() - i);
            continue;
        }
        let starts_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if starts_word && bytes[i..].starts_with(b"said!(") {
            let (parts, close) = top_level_parts(code, i + 5);
            if let Some(key) = parts.first().and_then(|k| k.trim().strip_prefix('"')?.strip_suffix('"')) {
                calls.push(SayCall { key: key.to_owned(), arguments: Vec::new() });
            }
            i = close;
            continue;
        }
        if starts_word && bytes[i..].starts_with(b"say!(") {
            let open = i + 4;
            let (parts, close) = top_level_parts(code, open);
            if let Some(key) = parts.get(1).and_then(|k| k.trim().strip_prefix('"')?.strip_suffix('"')) {
                let arguments = parts[2..]
                    .iter()
                    .map(|p| p.split('=').next().unwrap_or_default().trim().to_owned())
                    .filter(|p| !p.is_empty())
                    .collect();
                calls.push(SayCall { key: key.to_owned(), arguments });
            }
            i = close;
            continue;
        }
        i += 1;
    }
    calls
}

/// The comma-separated parts of the parenthesised list opening at `open`, and where it ends.
fn top_level_parts(code: &str, open: usize) -> (Vec<String>, usize) {
    let bytes = code.as_bytes();
    let (mut depth, mut start, mut i) = (0usize, open + 1, open);
    let mut parts = Vec::new();
    while i < bytes.len() {
        if let Some(end) = literal_end(bytes, i) {
            i = end;
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    parts.push(code[start..i].to_owned());
                    return (parts.into_iter().filter(|p| !p.trim().is_empty()).collect(), i + 1);
                }
            }
            b',' if depth == 1 => {
                parts.push(code[start..i].to_owned());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    (parts, bytes.len())
}

/// A message named now and said later, in the language of whoever reads it: what an input
/// field's format must be, told by the domain that knows it and rendered by the error's edge.
#[derive(Clone, Copy)]
pub struct Said {
    catalogue: &'static Catalogue,
    key: &'static str,
}

impl Said {
    pub const fn new(catalogue: &'static Catalogue, key: &'static str) -> Self {
        Self { catalogue, key }
    }

    pub fn key(&self) -> &'static str {
        self.key
    }

    pub fn in_language(&self, lang: Language) -> String {
        self.catalogue.say(lang, self.key, &[])
    }
}

impl std::fmt::Debug for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Said({})", self.key)
    }
}

impl PartialEq for Said {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && std::ptr::eq(self.catalogue, other.catalogue)
    }
}

impl Eq for Said {}

/// Of a text that comes in both languages as data, not from a catalogue (the dated facts of
/// `business-facts.json` carry their own `pt`/`en` notes, beside their sources), the one in `lang`.
pub fn of_data<'a>(lang: Language, pt_br: &'a str, en: &'a str) -> &'a str {
    match lang {
        Language::PtBr => pt_br,
        Language::En => en,
    }
}

/// Declares a crate's catalogue from its `locales/pt-BR/<name>.ftl` and `locales/en/<name>.ftl`.
#[macro_export]
macro_rules! catalogue {
    ($($name:literal),+ $(,)?) => {
        $crate::words::Catalogue::new(&[
            $(
                $crate::words::Source {
                    language: $crate::locale::Language::PtBr,
                    file: concat!("pt-BR/", $name, ".ftl"),
                    text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/locales/pt-BR/", $name, ".ftl")),
                },
                $crate::words::Source {
                    language: $crate::locale::Language::En,
                    file: concat!("en/", $name, ".ftl"),
                    text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/locales/en/", $name, ".ftl")),
                },
            )+
        ])
    };
}

/// The two tests every crate's catalogue passes, written once: both languages have the same
/// messages with the same arguments, and the crate's code (`src/`) says only messages the
/// catalogue has, each with exactly its arguments. `#[cfg(test)] socio_base::catalogue_tests!(CATALOGUE);`
#[macro_export]
macro_rules! catalogue_tests {
    ($catalogue:path) => {
        mod catalogue_tests {
            #[test]
            fn both_languages_have_the_same_messages_with_the_same_arguments() {
                let problems = $catalogue.problems();
                assert!(problems.is_empty(), "{}", problems.join("\n"));
            }

            #[test]
            fn the_code_says_only_messages_the_catalogue_has_and_gives_each_its_arguments() {
                let source = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
                let problems = $catalogue.source_problems(source);
                assert!(problems.is_empty(), "{}", problems.join("\n"));
            }
        }
    };
}

/// Says a message of `catalogue`: `catalogue_say!(CATALOGUE, lang, "key", name, other = value)`;
/// a bare `name` passes the variable of that name. Each crate wraps it as its own `say!`.
#[macro_export]
macro_rules! catalogue_say {
    (@value $name:ident) => { $name };
    (@value $name:ident $value:expr) => { $value };
    ($catalogue:expr, $lang:expr, $id:literal $(, $name:ident $(= $value:expr)?)* $(,)?) => {
        $catalogue.say(
            $lang,
            $id,
            &[$((stringify!($name), {
                use $crate::words::ToArg as _;
                ($crate::catalogue_say!(@value $name $($value)?)).to_arg()
            })),*],
        )
    };
}

#[cfg(test)]
mod tests {

    use super::*;

    const SAMPLE_PT: &str = "months = { $count ->\n    [one] { $count } mês\n   *[other] { $count } meses\n}\ngreeting = Olá, { $name }!\nlines =\n    primeira\n\n    terceira\n";
    const SAMPLE_EN: &str = "months = { $count ->\n    [one] { $count } month\n   *[other] { $count } months\n}\ngreeting = Hi { $name }!\nlines =\n    first\n\n    third\n";
    static SAMPLE: Catalogue = Catalogue::new(&[
        Source { language: Language::PtBr, file: "pt-BR/sample.ftl", text: SAMPLE_PT },
        Source { language: Language::En, file: "en/sample.ftl", text: SAMPLE_EN },
    ]);

    #[test]
    fn a_message_takes_its_arguments_and_its_plural_in_each_language() {
        assert_eq!(SAMPLE.say(Language::PtBr, "months", &[("count", 1.to_arg())]), "1 mês");
        assert_eq!(SAMPLE.say(Language::PtBr, "months", &[("count", 0.to_arg())]), "0 mês");
        assert_eq!(SAMPLE.say(Language::En, "months", &[("count", 0.to_arg())]), "0 months");
        assert_eq!(SAMPLE.say(Language::En, "months", &[("count", 3.to_arg())]), "3 months");
        let name = "Ana".to_owned();
        assert_eq!(SAMPLE.say(Language::PtBr, "greeting", &[("name", name.to_arg())]), "Olá, Ana!");
        assert_eq!(SAMPLE.say(Language::En, "lines", &[]), "first\n\nthird", "blank lines stay");
        assert!(SAMPLE.problems().is_empty(), "{:?}", SAMPLE.problems());
    }

    #[test]
    fn a_key_one_language_lacks_or_an_argument_it_names_differently_is_a_problem() {
        static MISSING: Catalogue = Catalogue::new(&[
            Source { language: Language::PtBr, file: "pt-BR/a.ftl", text: "one = um\ntwo = dois { $n }\n" },
            Source { language: Language::En, file: "en/a.ftl", text: "two = two { $m }\n" },
        ]);
        let problems = MISSING.problems();
        assert!(problems.iter().any(|p| p.contains("one has no English message")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("two takes")), "{problems:?}");
        static BROKEN: Catalogue = Catalogue::new(&[
            Source { language: Language::PtBr, file: "pt-BR/b.ftl", text: "broken = { $n\n" },
            Source { language: Language::En, file: "en/b.ftl", text: "broken = fine\n" },
        ]);
        assert!(BROKEN.problems().iter().any(|p| p.contains("cannot read")), "{:?}", BROKEN.problems());
    }

    #[test]
    fn the_code_reader_finds_each_say_with_its_key_and_argument_names() {
        let code = r#"
            // say!(lang, "in-a-comment") is not a call
            let a = say!(lang, "first", name, total = brl(x, "a, b"));
            let b = said!("second");
            let c = "say!(lang, \"in-a-string\")";
        "#;
        let calls = say_calls(code);
        let found: Vec<(&str, Vec<&str>)> = calls
            .iter()
            .map(|c| (c.key.as_str(), c.arguments.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(found, [("first", vec!["name", "total"]), ("second", vec![])]);
    }
}

#[cfg(test)]
crate::catalogue_tests!(crate::words::CATALOGUE);
