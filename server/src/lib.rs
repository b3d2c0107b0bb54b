//! Sócio's server: one port serving gRPC, gRPC-Web, REST (`/api`), the webhooks and the web app,
//! over SQLite or PostgreSQL. Its layers are listed once, in `layers::LAYERS` (a test keeps every
//! import pointing down), and drawn in docs/ARCHITECTURE.md, "Layers: imports point down".

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

pub mod administration;
pub mod api;
pub mod app;
pub mod erasure;
pub mod layers;
pub mod privacy;
mod words;

// The floors below, crates of their own (socio-base, socio-domains, socio-conversation): the
// paths `crate::db`, `crate::plan`, `crate::conversation`… stay.
pub use socio_base::{clock, config, connections, db, error, facts, locale, proto, telemetry, whatsapp};
pub use socio_conversation::{consultant, conversation, rendering};
pub use socio_domains::{analytics, audit, billing, identity, newsletter, plan, prompts, proof};
