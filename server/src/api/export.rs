//! LGPD export: a complete, machine-readable copy of one user's data — profile, subscriptions,
//! plan (JSON and Markdown) and messages — behind a link `privacy::Privacy` signed, that expires
//! in 15 minutes, serves once, only while the session and role that asked stand, and only ever
//! that user's export. The signature is the link's only key, so it can be opened in a new tab.

use axum::{
    extract::{Path, Query, State},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::{Value as Json, json};

use super::{protos::plan::plan_proto, timestamp};
use crate::{
    conversation::messages::Author,
    locale::Language,
    plan::document,
    privacy::{Collected, LinkClaim, Privacy},
    proto::json::to_json,
};

/// The export adapter: the copy's JSON, served to whoever holds a link the privacy service signed.
#[derive(Clone)]
pub struct Exports {
    privacy: Privacy,
}

impl Exports {
    pub fn new(privacy: Privacy) -> Self {
        Self { privacy }
    }

    /// The person's data as the export's JSON; None when there is no such person.
    async fn collect(&self, user_id: &str) -> Result<Option<Json>, crate::error::AppError> {
        Ok(self.privacy.collect(user_id).await?.map(|data| export_json(&data)))
    }
}

/// The machine-readable copy: profile, subscriptions, plan (JSON and Markdown), months, messages.
fn export_json(data: &Collected) -> Json {
    let Collected { user, subscriptions, plan, messages, months, forecast, at } = data;
    let subscriptions: Vec<Json> = subscriptions
        .iter()
        .map(|s| {
            json!({
                "plan": s.plan_type,
                "interval": s.interval,
                "provider": s.provider,
                "status": s.status,
                "amountCents": s.amount_cents,
                "source": s.source,
                "createdAt": timestamp(s.created_at).to_string(),
            })
        })
        .collect();
    let conversation: Vec<Json> = messages
        .iter()
        .map(|m| {
            json!({
                "id": m.id,
                "type": if m.author == Author::User { "user" } else { "assistant" },
                "kind": m.kind.as_str(),
                "content": m.content,
                "status": m.status,
                "timestamp": timestamp(m.created_at).to_string(),
            })
        })
        .collect();
    let markdown = |p| document::to_markdown(&document::model(p, user, user.language, None, *at));
    json!({
        "exportedAt": timestamp(*at).to_string(),
        "monthResults": crate::plan::tracking::results::as_json(months, forecast.as_ref()),
        "user": to_json(&super::user_proto(user)),
        "subscriptions": subscriptions,
        "businessPlan": plan.as_ref().map(|p| to_json(&plan_proto(p))),
        "businessPlanMarkdown": plan.as_ref().map(markdown),
        "messages": conversation,
    })
}

#[derive(Deserialize)]
pub struct LinkQuery {
    #[serde(default)]
    expires: i64,
    #[serde(default)]
    signature: String,
    /// The link's row (`export_links`).
    #[serde(default)]
    link: String,
}

/// `GET /api/admin/exports/{user_id}?expires&signature`
pub async fn download(
    State(exports): State<Exports>,
    Path(user_id): Path<String>,
    Query(link): Query<LinkQuery>,
) -> Response {
    let lang = Language::default();
    if !exports.privacy.signed(&user_id, &link.link, link.expires, &link.signature) {
        tracing::warn!(target: "security", event = "export_link_refused", "an export link with a bad signature");
        return (StatusCode::FORBIDDEN, say!(lang, "api-export-invalid-link")).into_response();
    }
    if link.expires < exports.privacy.now_ms() {
        return (StatusCode::GONE, say!(lang, "api-export-this-link-has-expired")).into_response();
    }
    let refused = |status: StatusCode, message: String| (status, message).into_response();
    match exports.privacy.claim_link(&link.link, &user_id).await {
        Ok(LinkClaim::Serve) => {}
        Ok(LinkClaim::Used) => {
            tracing::warn!(target: "security", event = "export_link_reused", "an export link was used again");
            return refused(StatusCode::GONE, say!(lang, "api-export-this-link-was-used-already"));
        }
        Ok(LinkClaim::Gone) => {
            return refused(StatusCode::GONE, say!(lang, "api-export-this-link-has-expired-2"));
        }
        Ok(LinkClaim::AskerGone) => {
            tracing::warn!(target: "security", event = "export_link_asker_gone", "an export link outlived its session or role");
            return refused(StatusCode::FORBIDDEN, say!(lang, "api-export-this-link-is-no-longer"));
        }
        Err(err) => {
            tracing::error!(error = %err, "an export link could not be checked");
            return (StatusCode::SERVICE_UNAVAILABLE, "try again").into_response();
        }
    }
    let collected = exports.collect(&user_id).await;
    if !matches!(collected, Ok(Some(_))) {
        // Nothing was served: the link may be used again.
        let _ = exports.privacy.release_link(&link.link).await;
    }
    match collected {
        Ok(Some(data)) => {
            let mut response =
                (StatusCode::OK, serde_json::to_string_pretty(&data).unwrap_or_default()).into_response();
            let headers = response.headers_mut();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            if let Ok(value) =
                HeaderValue::from_str(&format!("attachment; filename=\"socio-export-{user_id}.json\""))
            {
                headers.insert(header::CONTENT_DISPOSITION, value);
            }
            response
        }
        Ok(None) => (StatusCode::NOT_FOUND, "not found").into_response(),
        Err(err) => {
            tracing::error!(error = %err, "an export could not be built");
            (StatusCode::INTERNAL_SERVER_ERROR, "try again").into_response()
        }
    }
}
