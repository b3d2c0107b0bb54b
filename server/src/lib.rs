//! Sócio's server: one port serving gRPC, gRPC-Web, REST (`/api`), the webhooks and the web app,
//! over SQLite or PostgreSQL. Its layers are listed once, in `layers::LAYERS` (a test keeps every
//! import pointing down), and drawn in docs/ARCHITECTURE.md, "Layers: imports point down".

pub mod administration;
pub mod api;
pub mod app;
pub mod consultant;
pub mod conversation;
pub mod erasure;
pub mod layers;
pub mod privacy;
pub mod rendering;

// The ground floor and the domains, crates of their own (socio-base, socio-domains): the paths
// `crate::db`, `crate::plan`… stay.
pub use socio_base::{clock, config, connections, db, error, facts, locale, proto, telemetry, whatsapp};
pub use socio_domains::{analytics, audit, billing, identity, newsletter, plan, prompts, proof};
