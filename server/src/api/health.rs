//! Health over HTTP: `/healthz` says the process is up; `/readyz` says it can reach its database
//! (503 otherwise), so a load balancer stops sending traffic to a replica that cannot serve it;
//! `/metrics` is Prometheus' scrape, with the job queue read at that moment.

use std::sync::Arc;

use axum::{extract::State, http::StatusCode, response::IntoResponse};

use crate::{
    db::{Db, jobs},
    telemetry::metrics::{self, QueueDepth},
};

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

/// Prometheus' text exposition format. The queue's figures are left out, not invented, when the
/// database cannot be read.
pub async fn metrics(State((db, kinds)): State<(Db, Arc<[&'static str]>)>) -> impl IntoResponse {
    let queue = match jobs::depth(&db, &kinds).await {
        Ok(depths) => depths
            .into_iter()
            .map(|d| QueueDepth {
                kind: d.kind,
                due: d.due,
                running: d.running,
                oldest_due: std::time::Duration::from_millis(d.oldest_due_ms as u64),
            })
            .collect(),
        Err(err) => {
            tracing::warn!(error = %err, "the job queue could not be read for the metrics");
            Vec::new()
        }
    };
    ([(http::header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], metrics::render(&queue))
}
