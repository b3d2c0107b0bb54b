//! Sócio's conversation and its consultant: the message store, the inbox (dedupe, first contact,
//! batching), delivery, hand-offs to a person and the reminders (`conversation`); the consultant
//! that answers — the model with its tools or the offline guide — and sends the plan's PDF
//! (`consultant`, `rendering`). A crate of its own above the domains (`socio-domains`) and the
//! ground floor (`socio-base`): an import from here up into the use cases, the API or the app does
//! not compile.

/// This crate's words ([`socio_base::words`]): `say!(lang, "key", name, other = value)`.
macro_rules! say {
    ($($arg:tt)*) => { socio_base::catalogue_say!(crate::words::CATALOGUE, $($arg)*) };
}

pub mod consultant;
pub mod conversation;
pub mod rendering;
mod words;

// The floors below, under the paths every module here names (`crate::db`, `crate::plan`…).
use socio_base::{clock, config, db, error, facts, locale, proto, telemetry, whatsapp};
use socio_domains::{audit, billing, identity, plan, prompts};
