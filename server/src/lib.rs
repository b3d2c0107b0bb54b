//! Sócio's server: one port serving gRPC, gRPC-Web, REST (`/api`) and the web app, over SQLite or
//! PostgreSQL. The layers, from the top (imports only point down): `api` → the domains (`billing`,
//! …) → `db`, `config`, `error`, `locale`.

pub mod api;
pub mod app;
pub mod billing;
pub mod config;
pub mod db;
pub mod error;
pub mod locale;
pub mod proto;
pub mod telemetry;
