//! The test that keeps every domain's door its service: no public free function outside `db/`
//! takes the `Db`. A function that does is a second way in — it opens its own connections and
//! transactions behind the service's back — so such steps are private to their domain
//! (`pub(in crate::<domain>)`) and callers above go through the service, which owns its
//! transactions; a step inside a caller's transaction takes that transaction (`&mut Tx`) instead.

use std::{collections::BTreeMap, path::Path};

use super::circles::{Token, production, read, tokens};

/// The public free functions (`pub fn` or `pub(crate) fn` outside any block) of a file that take
/// the `Db` among their parameters.
fn public_free_functions_taking_the_db(source: &str) -> Vec<String> {
    let tokens = tokens(source);
    let ident = |at: usize| match tokens.get(at) {
        Some(Token::Ident(name)) => Some(name.as_str()),
        _ => None,
    };
    let mut found = Vec::new();
    let mut depth = 0;
    for at in 0..tokens.len() {
        match &tokens[at] {
            Token::Open => depth += 1,
            Token::Close => depth -= 1,
            Token::Ident(pub_) if pub_ == "pub" && depth == 0 => {
                // `pub`, or `pub(crate)`; `pub(super)` and `pub(in …)` keep it inside.
                let mut next = at + 1;
                if tokens.get(next) == Some(&Token::Other('(')) {
                    if ident(next + 1) != Some("crate") {
                        continue;
                    }
                    next += 3;
                }
                while matches!(ident(next), Some("async" | "const" | "unsafe")) {
                    next += 1;
                }
                if ident(next) != Some("fn") {
                    continue;
                }
                let name = ident(next + 1).unwrap_or_default().to_owned();
                // The parameters: from the first `(` to its match.
                let Some(open) = (next..tokens.len()).find(|&i| tokens[i] == Token::Other('(')) else {
                    continue;
                };
                let mut parens = 0;
                for token in &tokens[open..] {
                    match token {
                        Token::Other('(') => parens += 1,
                        Token::Other(')') => {
                            parens -= 1;
                            if parens == 0 {
                                break;
                            }
                        }
                        Token::Ident(ty) if ty == "Db" => {
                            found.push(name.clone());
                            break;
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    found
}

#[test]
fn the_reader_finds_public_free_functions_that_take_the_db_and_nothing_else() {
    let source = "pub async fn list(db: &Db, id: &str) -> Result<(), E> { todo!() }\n\
                  pub(crate) fn count(x: i64, db: Db) {}\n\
                  pub(in crate::plan) async fn inner(db: &Db) {}\n\
                  pub(super) fn up(db: &Db) {}\n\
                  fn private(db: &Db) {}\n\
                  pub fn on_a_transaction(tx: &mut Tx) {}\n\
                  pub fn returns(x: i64) -> Db { todo!() }\n\
                  impl Service { pub fn new(db: Db) -> Self { todo!() } }";
    assert_eq!(public_free_functions_taking_the_db(source), ["list", "count"]);
}

#[test]
fn no_public_free_function_outside_db_takes_the_db() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    read(&root, &root, &mut files);
    let found: Vec<String> = production(&files)
        .iter()
        .filter(|(file, _)| !file.starts_with("db/"))
        .flat_map(|(file, source)| {
            public_free_functions_taking_the_db(source).into_iter().map(move |name| format!("{file}: {name}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "free functions that open a second way into a domain (make them private to it and call its service):\n{}",
        found.join("\n")
    );
}
