//! Sócio's domains, each reached through its services: identity (people, their numbers and
//! sessions, logging in), the business plan (its six steps, money and taxes, tracking the months,
//! the document), billing (plans, checkout, subscriptions, refunds), the system prompts, analytics,
//! the newsletter, what the landing page may claim (proof) and the admin's audit trail. A crate of
//! its own above the ground floor (`socio-base`) and below the conversation: it depends on nothing
//! above it, so an import from a domain up into the conversation, the consultant or the API does
//! not compile.

/// This crate's words ([`socio_base::words`]): `say!(lang, "key", name, other = value)`.
macro_rules! say {
    ($($arg:tt)*) => { socio_base::catalogue_say!(crate::words::CATALOGUE, $($arg)*) };
}

/// A message of this crate's catalogue named now, said later ([`socio_base::words::Said`]).
macro_rules! said {
    ($key:literal) => {
        socio_base::words::Said::new(&crate::words::CATALOGUE, $key)
    };
}

pub mod analytics;
pub mod audit;
pub mod billing;
pub mod identity;
pub mod newsletter;
pub mod plan;
pub mod prompts;
pub mod proof;
mod words;

// The ground floor, under the paths every module here names (`crate::db`, `crate::clock`…).
use socio_base::{clock, config, db, error, facts, locale, proto, whatsapp};
