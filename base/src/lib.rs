//! Sócio's ground floor, which every other layer stands on and which stands on nothing of theirs:
//! the database (both engines, the single writer, the durable job queue, rate limits), the one
//! clock, the one error type and its mapping to every protocol, the two languages, the dated and
//! sourced business facts, the code generated from `proto/`, the configuration, accepting HTTP
//! connections, telemetry (logs, metrics, health) and the WhatsApp wire (Meta's payloads and
//! signature, the sender port, choices, templates). A crate of its own, so that the
//! compiler refuses an import from a layer above (none of them is a dependency here) and a change
//! above recompiles none of this.

/// This crate's words ([`words`]): `say!(lang, "key", name, other = value)`.
macro_rules! say {
    ($($arg:tt)*) => { crate::catalogue_say!(crate::words::CATALOGUE, $($arg)*) };
}

/// A message of this crate's catalogue named now, said later ([`words::Said`]).
macro_rules! said {
    ($key:literal) => {
        crate::words::Said::new(&crate::words::CATALOGUE, $key)
    };
}

pub mod clock;
pub mod config;
pub mod connections;
pub mod db;
pub mod error;
pub mod facts;
pub mod locale;
pub mod proto;
pub mod telemetry;
pub mod whatsapp;
pub mod words;
