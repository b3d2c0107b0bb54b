//! Sócio's server: one port serving gRPC, gRPC-Web, REST (`/api`), the webhooks and the web app,
//! over SQLite or PostgreSQL. Its layers are listed once, in `layers::LAYERS` (a test keeps every
//! import pointing down), and drawn in docs/ARCHITECTURE.md, "Layers: imports point down".

pub mod administration;
pub mod api;
pub mod app;
pub mod erasure;
pub mod layers;
pub mod privacy;

// The floors below, crates of their own (socio-base, socio-domains, socio-conversation): the
// paths `crate::db`, `crate::plan`, `crate::conversation`… stay.
pub use socio_base::{clock, config, connections, db, error, facts, locale, proto, telemetry, whatsapp};
pub use socio_conversation::{consultant, conversation, rendering};
pub use socio_domains::{analytics, audit, billing, identity, newsletter, plan, prompts, proof};
