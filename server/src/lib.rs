//! Sócio's server: one port serving gRPC, gRPC-Web, REST (`/api`), the webhooks and the web app,
//! over SQLite or PostgreSQL. Its layers are listed once, in `layers::LAYERS` (a test keeps every
//! import pointing down), and drawn in docs/ARCHITECTURE.md, "Layers: imports point down".

pub mod administration;
pub mod analytics;
pub mod api;
pub mod app;
pub mod audit;
pub mod billing;
pub mod consultant;
pub mod conversation;
pub mod erasure;
pub mod identity;
pub mod layers;
pub mod newsletter;
pub mod plan;
pub mod privacy;
pub mod prompts;
pub mod proof;
pub mod rendering;

// The ground floor, its own crate (socio-base): the paths `crate::db`, `crate::clock`… stay.
pub use socio_base::{clock, config, connections, db, error, facts, locale, proto, telemetry, whatsapp};
