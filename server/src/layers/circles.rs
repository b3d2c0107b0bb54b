//! The test that finds circles between the crate's files: a file that, through the files it
//! imports, comes back to itself. Layers keep the top-level modules pointing down; this keeps the
//! files inside a module from leaning on each other in a ring (a sign that two of them are one, or
//! that a type sits in the wrong file).
//!
//! A module and its own submodules are one room: a child reading its parent's types through
//! `super::` and the parent naming its children is how Rust nests, not a circle. The circles looked
//! for are between siblings — two files, or two folders, under the same parent — at every depth:
//! an import from `plan/money/pricing.rs` to `plan/tracking/calendar/year_over.rs` is one from
//! `plan::money` to `plan::tracking`.
//!
//! The reader is lexical, like the layer test's: it follows `use` trees and paths that start with
//! `crate`, `super`, `self` or a child module the file declares, resolves each to the deepest file
//! that defines a prefix of it, and leaves out `#[cfg(test)]` items (a test may import anything).

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::Path,
};

/// A token of Rust source, as much as the reader needs.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Token {
    Ident(String),
    Path,
    Open,
    Close,
    Comma,
    Semicolon,
    Other(char),
}

/// Identifiers, `::`, braces, commas and semicolons; comments, strings and characters dropped.
pub(super) fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('#') || next == Some('"')) && !ident_before(&chars, i) {
            // A raw string: r"…", r#"…"#.
            let mut hashes = 0;
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(Token::Ident("r".into()));
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' {
            // A character ('a', '\n', '\'') or a lifetime ('a): a character closes within a few.
            let close = if next == Some('\\') {
                (i + 2..chars.len().min(i + 12)).find(|&j| chars[j] == '\'' && j > i + 2)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            i = close.map_or(i + 1, |j| j + 1);
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c == ':' && next == Some(':') {
            out.push(Token::Path);
            i += 2;
        } else {
            out.push(match c {
                '{' => Token::Open,
                '}' => Token::Close,
                ',' => Token::Comma,
                ';' => Token::Semicolon,
                other => Token::Other(other),
            });
            i += 1;
        }
    }
    out
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

fn ident(tokens: &[Token], at: usize) -> Option<&str> {
    match tokens.get(at) {
        Some(Token::Ident(name)) => Some(name),
        _ => None,
    }
}

/// The paths a path or `use` tree starting at `at` names, each as its segments (`self` inside a
/// group names the group's prefix), and the index after it.
fn tree(tokens: &[Token], mut at: usize, prefix: &[String]) -> (Vec<Vec<String>>, usize) {
    let mut path = prefix.to_vec();
    loop {
        match tokens.get(at) {
            Some(Token::Ident(name)) => {
                // `{self, …}` names the group's prefix itself.
                if !(name == "self" && !prefix.is_empty() && path.len() == prefix.len()) {
                    path.push(name.clone());
                }
                at += 1;
                if tokens.get(at) == Some(&Token::Path) {
                    at += 1;
                    continue;
                }
                return (vec![path], at);
            }
            Some(Token::Open) => {
                let mut found = Vec::new();
                at += 1;
                while !matches!(tokens.get(at), Some(Token::Close) | None) {
                    let (paths, next) = tree(tokens, at, &path);
                    found.extend(paths);
                    at = next;
                    // Past `as alias` and whatever else ends this item.
                    let mut depth = 0;
                    while let Some(token) = tokens.get(at) {
                        match token {
                            Token::Open => depth += 1,
                            Token::Close if depth == 0 => break,
                            Token::Close => depth -= 1,
                            Token::Comma if depth == 0 => {
                                at += 1;
                                break;
                            }
                            _ => {}
                        }
                        at += 1;
                    }
                }
                return (found, at + 1);
            }
            _ => return (vec![path], at),
        }
    }
}

/// The module paths (absolute, from the crate's root) a file refers to, production code only.
pub(super) fn references(source: &str, module: &[String]) -> Vec<Vec<String>> {
    let tokens = tokens(source);
    let children: BTreeSet<&str> = tokens
        .windows(3)
        .filter_map(|w| match w {
            [Token::Ident(m), Token::Ident(name), Token::Semicolon] if m == "mod" => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let mut found = Vec::new();
    // Inline modules we are in, with the depth of braces at which each opened.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut at = 0;
    while at < tokens.len() {
        let here: Vec<String> =
            module.iter().cloned().chain(inline.iter().map(|(name, _)| name.clone())).collect();
        match &tokens[at] {
            Token::Other('#') if test_attribute(&tokens, at) => {
                at = item_end(&tokens, at);
                continue;
            }
            Token::Open => depth += 1,
            Token::Close => {
                depth -= 1;
                if inline.last().is_some_and(|(_, opened)| *opened == depth) {
                    inline.pop();
                }
            }
            Token::Ident(keyword)
                if keyword == "mod"
                    && tokens.get(at + 2) == Some(&Token::Open)
                    && ident(&tokens, at + 1).is_some() =>
            {
                inline.push((ident(&tokens, at + 1).unwrap_or_default().to_owned(), depth));
                depth += 1;
                at += 3;
                continue;
            }
            Token::Ident(first)
                if tokens.get(at + 1) == Some(&Token::Path)
                    && !matches!(tokens.get(at.wrapping_sub(1)), Some(Token::Path))
                    && (matches!(first.as_str(), "crate" | "super" | "self")
                        || (inline.is_empty() && children.contains(first.as_str()))) =>
            {
                let (paths, next) = tree(&tokens, at, &[]);
                for path in paths {
                    found.push(absolute(&path, &here));
                }
                at = next;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    found
}

/// `#[cfg(test)]` starting at `at`.
fn test_attribute(tokens: &[Token], at: usize) -> bool {
    tokens.get(at + 1) == Some(&Token::Other('['))
        && ident(tokens, at + 2) == Some("cfg")
        && tokens.get(at + 3) == Some(&Token::Other('('))
        && ident(tokens, at + 4) == Some("test")
        && tokens.get(at + 5) == Some(&Token::Other(')'))
}

/// The index after the item an attribute at `at` applies to: its `;` or its closing brace.
fn item_end(tokens: &[Token], mut at: usize) -> usize {
    at += 7;
    while let Some(token) = tokens.get(at) {
        match token {
            Token::Semicolon => return at + 1,
            Token::Open => {
                let mut depth = 0;
                while let Some(token) = tokens.get(at) {
                    match token {
                        Token::Open => depth += 1,
                        Token::Close => {
                            depth -= 1;
                            if depth == 0 {
                                return at + 1;
                            }
                        }
                        _ => {}
                    }
                    at += 1;
                }
            }
            _ => {}
        }
        at += 1;
    }
    at
}

/// A path made absolute: `crate::a` is `a`, `super::` climbs from the module, `self::` and a
/// child's name stay in it.
fn absolute(path: &[String], module: &[String]) -> Vec<String> {
    match path.first().map(String::as_str) {
        Some("crate") => path[1..].to_vec(),
        Some("self") => module.iter().chain(&path[1..]).cloned().collect(),
        Some("super") => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let base = &module[..module.len().saturating_sub(ups)];
            base.iter().chain(&path[ups..]).cloned().collect()
        }
        _ => module.iter().chain(path).cloned().collect(),
    }
}

/// The module path of a file under `src/`: `plan/store/mod.rs` is `plan::store`.
pub(super) fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> =
        relative.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The modules a file declares under `#[cfg(test)]` (`#[cfg(test)] mod tests;`): their files are
/// tests.
fn test_modules(source: &str, module: &[String]) -> Vec<Vec<String>> {
    let tokens = tokens(source);
    (0..tokens.len())
        .filter(|&at| tokens[at] == Token::Other('#') && test_attribute(&tokens, at))
        .filter_map(|at| {
            let at = if ident(&tokens, at + 7) == Some("pub") { at + 8 } else { at + 7 };
            let name = ident(&tokens, at + 1)?;
            (ident(&tokens, at) == Some("mod") && tokens.get(at + 2) == Some(&Token::Semicolon))
                .then(|| module.iter().cloned().chain([name.to_owned()]).collect())
        })
        .collect()
}

/// The files that are not tests: those of modules declared under `#[cfg(test)]` (and `main.rs`,
/// the binary) left out.
pub(super) fn production(files: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let tests: Vec<Vec<String>> =
        files.iter().flat_map(|(file, source)| test_modules(source, &module_of(Path::new(file)))).collect();
    files
        .iter()
        .filter(|(file, _)| {
            let module = module_of(Path::new(file));
            !file.ends_with("main.rs") && !tests.iter().any(|test| module.starts_with(test))
        })
        .map(|(file, source)| (file.clone(), source.clone()))
        .collect()
}

/// Every production file's imports, as files: from a file to the files it names.
pub fn graph(files: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let files = production(files);
    let by_module: BTreeMap<Vec<String>, &String> =
        files.keys().map(|f| (module_of(Path::new(f)), f)).collect();
    files
        .iter()
        .map(|(file, source)| {
            let module = module_of(Path::new(file));
            let named = references(source, &module)
                .into_iter()
                .filter_map(|path| {
                    (1..=path.len()).rev().find_map(|n| by_module.get(&path[..n])).map(|f| (*f).clone())
                })
                .filter(|f| f != file)
                .collect();
            (file.clone(), named)
        })
        .collect()
}

/// The imports between siblings: each file's import lifted to the two modules under the deepest
/// parent the two files share (`plan::money::pricing` → `plan::tracking::calendar`), named by module path; an import
/// between a module and one of its own submodules is left out.
pub fn between_siblings(files: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut rooms: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, imports) in files {
        let from = module_of(Path::new(file));
        for import in imports {
            let to = module_of(Path::new(import));
            let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if shared == from.len() || shared == to.len() {
                continue;
            }
            rooms.entry(from[..=shared].join("::")).or_default().insert(to[..=shared].join("::"));
        }
    }
    rooms
}

/// The circles of a graph: its strongly connected groups of more than one node (Tarjan's).
pub fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<Vec<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, file: &'g str) {
            let n = self.index.len();
            self.index.insert(file, n);
            self.low.insert(file, n);
            self.stack.push(file);
            for next in self.graph.get(file).into_iter().flatten() {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[file].min(self.low[next]);
                    self.low.insert(file, low);
                } else if self.stack.contains(&next) {
                    let low = self.low[file].min(self.index[next]);
                    self.low.insert(file, low);
                }
            }
            if self.low[file] == self.index[file] {
                let mut group = Vec::new();
                while let Some(top) = self.stack.pop() {
                    group.push(top.to_owned());
                    if top == file {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk =
        Walk { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for file in graph.keys() {
        if !walk.index.contains_key(file.as_str()) {
            walk.visit(file);
        }
    }
    walk.found
}

/// Every file of the server's crates — the ground floor (`socio-base`), the domains
/// (`socio-domains`), the conversation (`socio-conversation`) and the server — by its path under
/// its crate's `src` (`plan/mod.rs` is `crate::plan`, as the server re-exports it). The lower
/// crates' `lib.rs` are left out: they name their own crates, and the server's lists them all.
pub(super) fn read_workspace() -> BTreeMap<String, String> {
    let server = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = BTreeMap::new();
    for lower in ["../base/src", "../domains/src", "../conversation/src"] {
        let root = server.join(lower);
        read(&root, &root, &mut out);
        out.remove("lib.rs");
    }
    let root = server.join("src");
    read(&root, &root, &mut out);
    out
}

pub(super) fn read(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.insert(relative, fs::read_to_string(&path).unwrap());
        }
    }
}

fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(f, s)| ((*f).to_owned(), (*s).to_owned())).collect()
}

#[test]
fn the_reader_follows_use_trees_paths_and_child_modules_but_not_tests_or_comments() {
    let graph = graph(&files(&[
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;"),
        (
            "a/mod.rs",
            "//! uses crate::c in a comment\npub mod x;\nuse self::x::Thing;\nfn f() { let s = \"crate::c\"; }\n#[cfg(test)]\nmod tests { use crate::c; }",
        ),
        ("a/x.rs", "use super::{super::b::{self, Y}, z as _};\nfn g() -> crate::c::Z { todo!() }"),
        ("b.rs", "pub mod inner { fn h() { super::super::a::x::go(); } }"),
        (
            "c.rs",
            "#[cfg(test)]\nfn only_in_tests() { crate::a::f(); }\nconst C: char = '{';\n#[cfg(test)]\nmod tests;",
        ),
        ("c/tests.rs", "use crate::b::inner;"),
    ]));
    assert!(!graph.contains_key("c/tests.rs"), "a test module's file is a test");
    let edges = |file: &str| graph[file].iter().map(String::as_str).collect::<Vec<_>>();
    assert_eq!(edges("a/mod.rs"), ["a/x.rs"]);
    assert_eq!(edges("a/x.rs"), ["a/mod.rs", "b.rs", "c.rs"]);
    assert_eq!(edges("b.rs"), ["a/x.rs"]);
    assert!(edges("c.rs").is_empty());
    assert_eq!(edges("lib.rs"), Vec::<&str>::new());
}

#[test]
fn a_ring_of_three_files_is_a_circle_and_a_chain_is_not() {
    let ring = graph(&files(&[
        ("lib.rs", "pub mod a; pub mod b; pub mod c; pub mod d;"),
        ("a.rs", "use crate::b::B;"),
        ("b.rs", "use crate::c::C;"),
        ("c.rs", "use crate::a::A;"),
        ("d.rs", "use crate::a::A;"),
    ]));
    assert_eq!(circles(&between_siblings(&ring)), [["a", "b", "c"]]);
    let chain = graph(&files(&[
        ("lib.rs", ""),
        ("a.rs", "use crate::b::B;"),
        ("b.rs", "use crate::c::C;"),
        ("c.rs", ""),
    ]));
    assert!(circles(&between_siblings(&chain)).is_empty());
}

#[test]
fn a_module_and_its_children_are_one_room_but_two_folders_leaning_on_each_other_are_a_circle() {
    let nested = graph(&files(&[
        ("lib.rs", "pub mod a; pub mod b;"),
        ("a/mod.rs", "mod x; mod y; pub use self::x::X; pub struct Shared;"),
        ("a/x.rs", "use super::{Shared, y::Y};"),
        ("a/y.rs", "use super::Shared;"),
        ("b.rs", "use crate::a::X;"),
    ]));
    assert!(circles(&between_siblings(&nested)).is_empty());
    let leaning = graph(&files(&[
        ("lib.rs", "pub mod a; pub mod b;"),
        ("a/mod.rs", "pub mod x; pub mod y;"),
        ("a/x.rs", "use crate::b::B;"),
        ("a/y.rs", ""),
        ("b.rs", "use crate::a::y::Y;"),
    ]));
    assert_eq!(between_siblings(&leaning)["b"].iter().collect::<Vec<_>>(), ["a"]);
    assert_eq!(circles(&between_siblings(&leaning)), [["a", "b"]]);
}

#[test]
fn no_module_of_the_server_comes_back_to_itself_through_its_imports() {
    let sources = read_workspace();
    let files = graph(&sources);
    let graph = between_siblings(&files);
    let found: Vec<String> = circles(&graph)
        .into_iter()
        .map(|group| {
            let members: BTreeSet<&String> = group.iter().collect();
            let lines: Vec<String> = group
                .iter()
                .map(|module| {
                    let inside: Vec<&str> =
                        graph[module].iter().filter(|m| members.contains(m)).map(String::as_str).collect();
                    format!("  {module} -> {}", inside.join(", "))
                })
                .collect();
            lines.join("\n")
        })
        .collect();
    assert!(
        found.is_empty(),
        "modules that import each other in a circle (break one import of each):\n{}",
        found.join("\n\n")
    );
}
