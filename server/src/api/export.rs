//! LGPD export: a complete, machine-readable copy of one user's data — profile, subscriptions,
//! plan (JSON and Markdown) and messages — behind a signed link that expires in 15 minutes and
//! only ever serves that user's export. The signature is the link's only key, so it can be opened
//! in a new tab.

use axum::{
    extract::{Path, Query, State},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use hmac::{Hmac, Mac};
use serde::Deserialize;
use serde_json::{Value as Json, json};
use sha2::Sha256;

use super::{protos::plan::plan_proto, timestamp};
use crate::{
    config::Secret,
    conversation::messages::Author,
    db::Db,
    locale::Language,
    plan::{Plans, document},
    privacy::{Collected, Privacy},
    proto::json::to_json,
};

pub const LINK_TTL_MS: i64 = 15 * 60 * 1000;

#[derive(Clone)]
pub struct Exports {
    pub privacy: Privacy,
    key: Vec<u8>,
    public_url: String,
}

impl Exports {
    /// The exports of the people in `db`, their links signed with a key derived from `secret`.
    pub fn new(db: Db, plans: Plans, secret: &Secret, public_url: &str) -> Self {
        let privacy = Privacy::new(db, plans);
        Self { privacy, key: secret.purpose_key("socio data exports"), public_url: public_url.to_owned() }
    }

    fn signature(&self, user_id: &str, expires: i64) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        mac.update(format!("{user_id}:{expires}").as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// A link to the user's export, valid until `expires` (Unix ms).
    pub fn link(&self, user_id: &str, expires: i64) -> String {
        format!(
            "{}/api/admin/exports/{user_id}?expires={expires}&signature={}",
            self.public_url,
            self.signature(user_id, expires)
        )
    }

    fn verify(&self, user_id: &str, expires: i64, signature: &str) -> bool {
        let Ok(given) = hex::decode(signature) else { return false };
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        mac.update(format!("{user_id}:{expires}").as_bytes());
        mac.verify_slice(&given).is_ok()
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
}

/// `GET /api/admin/exports/{user_id}?expires&signature`
pub async fn download(
    State(exports): State<Exports>,
    Path(user_id): Path<String>,
    Query(link): Query<LinkQuery>,
) -> Response {
    let lang = Language::default();
    if !exports.verify(&user_id, link.expires, &link.signature) {
        tracing::warn!(target: "security", event = "export_link_refused", "an export link with a bad signature");
        return (StatusCode::FORBIDDEN, lang.choose("Link inválido.", "Invalid link.")).into_response();
    }
    if link.expires < exports.privacy.now_ms() {
        return (
            StatusCode::GONE,
            lang.choose("Este link expirou. Gere uma nova exportação.", "This link has expired."),
        )
            .into_response();
    }
    match exports.collect(&user_id).await {
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
