//! The test that keeps every domain's door its service: no public free function outside `db/`
//! takes the `Db`. A function that does is a second way in — it opens its own connections and
//! transactions behind the service's back — so such steps are private to their domain
//! (`pub(in crate::<domain>)`) and callers above go through the service, which owns its
//! transactions; a step inside a caller's transaction takes that transaction (`&mut Tx`) instead.
//! And one error type runs down to the steps: no function outside `db/` names the database's own
//! error (`sqlx::Error`) in its signature; `?` turns it into the application's (`AppError`) where
//! a step meets the database.

use super::circles::{Token, production, read_workspace, tokens};

/// Where a public function stands: free (at a module's level, inline modules included) or a method
/// of an `impl` block.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    Free,
    Method,
}

/// A public function (`pub`, or `pub(crate)`; `pub(super)` and `pub(in …)` keep it inside): where
/// it stands, its name, and the tokens of its parameters.
struct Public {
    place: Place,
    name: String,
    parameters: Vec<Token>,
}

/// What a block is, by the first keyword of the item that opens it.
#[derive(Clone, Copy, PartialEq)]
enum Block {
    Module,
    Impl,
    Other,
}

fn public_functions(source: &str) -> Vec<Public> {
    let tokens = tokens(source);
    let ident = |at: usize| match tokens.get(at) {
        Some(Token::Ident(name)) => Some(name.as_str()),
        _ => None,
    };
    let mut found = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    let mut header_start = 0;
    for at in 0..tokens.len() {
        match &tokens[at] {
            Token::Open => {
                let header = &tokens[header_start..at];
                let first = header.iter().find_map(|t| match t {
                    Token::Ident(k)
                        if ["fn", "impl", "mod", "trait", "struct", "enum"].contains(&k.as_str()) =>
                    {
                        Some(k.as_str())
                    }
                    _ => None,
                });
                blocks.push(match first {
                    Some("mod") => Block::Module,
                    Some("impl") => Block::Impl,
                    _ => Block::Other,
                });
                header_start = at + 1;
            }
            Token::Close => {
                blocks.pop();
                header_start = at + 1;
            }
            Token::Semicolon => header_start = at + 1,
            Token::Ident(pub_) if pub_ == "pub" => {
                let place = if blocks.iter().all(|b| *b == Block::Module) {
                    Place::Free
                } else if blocks.last() == Some(&Block::Impl) {
                    Place::Method
                } else {
                    continue;
                };
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
                let mut close = open;
                for (i, token) in tokens.iter().enumerate().skip(open) {
                    match token {
                        Token::Other('(') => parens += 1,
                        Token::Other(')') => parens -= 1,
                        _ => {}
                    }
                    if parens == 0 {
                        close = i;
                        break;
                    }
                }
                found.push(Public { place, name, parameters: tokens[open..=close].to_vec() });
            }
            _ => {}
        }
    }
    found
}

/// The public free functions of a file that take the `Db` among their parameters.
fn public_free_functions_taking_the_db(source: &str) -> Vec<String> {
    public_functions(source)
        .into_iter()
        .filter(|f| f.place == Place::Free && f.parameters.contains(&Token::Ident("Db".into())))
        .map(|f| f.name)
        .collect()
}

/// The public free functions of a file that take a caller's connection or transaction (`Tx`,
/// `AnyConnection`): steps another domain can compose into its own transaction.
fn public_free_functions_taking_a_connection(source: &str) -> Vec<String> {
    public_functions(source)
        .into_iter()
        .filter(|f| {
            f.place == Place::Free
                && f.parameters
                    .iter()
                    .any(|t| matches!(t, Token::Ident(name) if name == "Tx" || name == "AnyConnection"))
        })
        .map(|f| f.name)
        .collect()
}

/// The functions of a file, public or not, whose signature names the database's own error
/// (`sqlx::Error`).
fn functions_returning_the_database_s_error(source: &str) -> Vec<String> {
    let tokens = tokens(source);
    let mut found = Vec::new();
    for (at, token) in tokens.iter().enumerate() {
        if *token != Token::Ident("fn".into()) {
            continue;
        }
        let Some(Token::Ident(name)) = tokens.get(at + 1) else { continue };
        let end = (at..tokens.len())
            .find(|&i| matches!(tokens[i], Token::Open | Token::Semicolon))
            .unwrap_or(tokens.len());
        if tokens[at..end].windows(3).any(|w| {
            w[0] == Token::Ident("sqlx".into()) && w[1] == Token::Path && w[2] == Token::Ident("Error".into())
        }) {
            found.push(name.clone());
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
                  impl Service { pub fn new(db: Db) -> Self { todo!() } }\n\
                  pub mod inner { pub async fn nested(db: &Db) {} }\n\
                  fn body() { struct Local; impl Local { pub fn hidden(db: &Db) {} } }";
    assert_eq!(public_free_functions_taking_the_db(source), ["list", "count", "nested"]);
}

#[test]
fn the_reader_finds_public_steps_on_a_caller_s_connection_or_transaction() {
    let source = "pub async fn on_tx(tx: &mut Tx) {}\n\
                  pub async fn on_conn(conn: &mut sqlx::AnyConnection, id: &str) {}\n\
                  pub(in crate::plan) async fn inside(tx: &mut Tx) {}\n\
                  async fn private(conn: &mut AnyConnection) {}\n\
                  pub async fn on_db(db: &Db) {}\n\
                  impl Service { pub async fn forget(&self, tx: &mut Tx) {} }";
    assert_eq!(public_free_functions_taking_a_connection(source), ["on_tx", "on_conn"]);
}

#[test]
fn the_reader_finds_every_function_whose_signature_names_the_database_s_error() {
    let source = "impl Service {\n\
                      pub async fn raw(&self) -> Result<(), sqlx::Error> { todo!() }\n\
                      pub async fn wrapped(&self) -> Result<(), AppError> { todo!() }\n\
                      async fn private(&self) -> Result<(), sqlx::Error> { todo!() }\n\
                      pub fn generic<T>(&self) -> Result<T, sqlx::Error> where T: Send { todo!() }\n\
                  }\n\
                  pub async fn step(tx: &mut Tx) -> Result<(), sqlx::Error> { todo!() }\n\
                  fn body() -> Result<(), AppError> { Err(sqlx::Error::RowNotFound.into()) }";
    assert_eq!(functions_returning_the_database_s_error(source), ["raw", "private", "generic", "step"]);
}

/// What `find` finds in each production file outside `db/`, as `file: name`.
fn outside_db(find: fn(&str) -> Vec<String>) -> Vec<String> {
    found_in(|file| !file.starts_with("db/"), find)
}

/// What `find` finds in each production file that `which` takes, as `file: what`.
fn found_in(which: fn(&str) -> bool, find: fn(&str) -> Vec<String>) -> Vec<String> {
    let files = read_workspace();
    production(&files)
        .iter()
        .filter(|(file, _)| which(file))
        .flat_map(|(file, source)| find(source).into_iter().map(move |name| format!("{file}: {name}")))
        .collect()
}

#[test]
fn no_function_outside_db_hands_up_the_database_s_error() {
    // error.rs holds the one conversion (`From<sqlx::Error> for AppError`).
    let found = found_in(
        |file| !file.starts_with("db/") && file != "error.rs",
        functions_returning_the_database_s_error,
    );
    assert!(
        found.is_empty(),
        "functions that hand the database's error up (one error type down to the steps: AppError):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_public_free_function_outside_db_takes_the_db() {
    let found = outside_db(public_free_functions_taking_the_db);
    assert!(
        found.is_empty(),
        "free functions that open a second way into a domain (make them private to it and call its service):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_public_step_outside_db_takes_a_caller_s_connection() {
    let found = outside_db(public_free_functions_taking_a_connection);
    assert!(
        found.is_empty(),
        "public steps on a caller's connection (make them private to their domain; a step another domain composes into its transaction is a method of the domain's service taking that transaction):\n{}",
        found.join("\n")
    );
}

/// The files above the domains that hold no connection of their own: the adapters and the app's
/// wiring, the use cases that span domains, and the consultant — except the guide's interview,
/// which owns its table (`guide_state`: `consultant/guide/`, `consultant/results_interview.rs`).
fn above_the_domains(file: &str) -> bool {
    let consultant = file.starts_with("consultant/")
        && !file.starts_with("consultant/guide/")
        && file != "consultant/results_interview.rs";
    file.starts_with("api/")
        || file.starts_with("app/")
        || consultant
        || ["erasure.rs", "privacy.rs", "administration.rs", "main.rs"].contains(&file)
}

/// Where a file takes a connection of the `Db` (`.pool()` or `.writer()`), as the method it called.
fn connections_taken(source: &str) -> Vec<String> {
    tokens(source)
        .windows(4)
        .filter_map(|w| match w {
            [Token::Other('.'), Token::Ident(name), Token::Other('('), Token::Other(')')]
                if name == "pool" || name == "writer" =>
            {
                Some(format!(".{name}()"))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_reader_finds_connections_taken_from_the_db() {
    let source = "let rows = q.fetch_all(db.pool()).await?; let mut w = self.db.writer().await?;\n\
                  let pool = 1; fn pool() {} db.begin().await?;";
    assert_eq!(connections_taken(source), [".pool()", ".writer()"]);
}

#[test]
fn no_connection_is_taken_above_the_domains() {
    let found = found_in(above_the_domains, connections_taken);
    assert!(
        found.is_empty(),
        "connections taken above the domains (ask the domain's service; a use case that spans domains begins its transaction with `db.begin()` and passes it to each service's `…_in`):\n{}",
        found.join("\n")
    );
}
