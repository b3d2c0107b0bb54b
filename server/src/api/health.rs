//! Health over HTTP: `/healthz` says the process is up; `/readyz` says it can reach its database
//! (503 otherwise), so a load balancer stops sending traffic to a replica that cannot serve it;
//! `/metrics` is Prometheus' scrape, with the job queue read at that moment: behind
//! `Authorization: Bearer <METRICS_TOKEN>` when a token is set, and not served at all in
//! production without one.

use axum::{
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};

use crate::{
    config::Secret,
    telemetry::{health::Health, metrics},
};

pub async fn healthz() -> impl IntoResponse {
    (StatusCode::OK, "ok")
}

pub async fn readyz(State(health): State<Health>) -> impl IntoResponse {
    if health.ready().await {
        (StatusCode::OK, "ready")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "database unreachable")
    }
}

/// Who may scrape `/metrics`.
#[derive(Clone)]
pub struct MetricsAccess {
    pub health: Health,
    /// Scrapes must carry it as a bearer token.
    pub token: Option<Secret>,
    /// Served without a token (development).
    pub open: bool,
}

/// Prometheus' text exposition format. The queue's figures are left out, not invented, when the
/// database cannot be read.
pub async fn metrics(State(access): State<MetricsAccess>, headers: HeaderMap) -> Response {
    match &access.token {
        Some(token) => {
            let given = headers
                .get(http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "))
                .unwrap_or_default();
            if !crate::whatsapp::signature::same_secret(token.expose(), given) {
                return (
                    StatusCode::UNAUTHORIZED,
                    [(http::header::WWW_AUTHENTICATE, "Bearer")],
                    "unauthorized",
                )
                    .into_response();
            }
        }
        None if !access.open => return (StatusCode::NOT_FOUND, "not found").into_response(),
        None => {}
    }
    let queue = access.health.queue().await;
    metrics::facts_expired(crate::facts::expired_on(&access.health.today()).len());
    ([(http::header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], metrics::render(&queue))
        .into_response()
}
