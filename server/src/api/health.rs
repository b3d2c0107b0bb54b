//! Health over HTTP: `/healthz` says the process is up; `/readyz` says it can reach its database
//! (503 otherwise), so a load balancer stops sending traffic to a replica that cannot serve it.

use axum::{extract::State, http::StatusCode, response::IntoResponse};

use crate::db::Db;

pub async fn healthz() -> impl IntoResponse {
    (StatusCode::OK, "ok")
}

pub async fn readyz(State(db): State<Db>) -> impl IntoResponse {
    if db.is_ready().await {
        (StatusCode::OK, "ready")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "database unreachable")
    }
}
