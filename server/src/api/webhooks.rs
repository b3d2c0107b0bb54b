//! Meta's WhatsApp webhook: the subscription handshake (GET) and deliveries (POST). A delivery is
//! answered 200 only once its messages are durably stored and their replies scheduled; a bad or
//! missing signature is 401 with nothing stored; a database outage is 503, so Meta delivers it
//! again. A correctly signed delivery is never answered 4xx: Meta would retry it, and every message
//! in it, for days. What cannot be read in it is logged (and kept as `unsupported` where we can tell
//! who sent it, `payload`); a body that is not even JSON is acknowledged and logged. Without a
//! signature to check (dev mode), such a body is a 400.

use std::collections::HashMap;

use axum::{
    body::Bytes,
    extract::{Query, State},
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};

use crate::{
    billing::stripe_events::{EventOutcome, StripeWebhooks},
    config::Secret,
    conversation::inbox::Inbox,
    whatsapp::{payload, signature},
};

#[derive(Clone)]
pub struct WhatsAppWebhook {
    pub inbox: Inbox,
    /// Verifies `X-Hub-Signature-256`; required in cloud mode, optional in dev.
    pub app_secret: Option<Secret>,
    pub verify_token: Option<Secret>,
}

/// `GET /api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=T&hub.challenge=C`
pub async fn handshake(
    State(hook): State<WhatsAppWebhook>,
    Query(params): Query<HashMap<String, String>>,
) -> Response {
    let param = |key: &str| params.get(key).map(String::as_str).unwrap_or_default();
    let token_matches = hook
        .verify_token
        .as_ref()
        .is_some_and(|t| signature::same_secret(t.expose(), param("hub.verify_token")));
    if param("hub.mode") == "subscribe" && token_matches {
        (StatusCode::OK, param("hub.challenge").to_owned()).into_response()
    } else {
        tracing::warn!("refused a WhatsApp webhook handshake with a wrong verify token");
        (StatusCode::FORBIDDEN, "forbidden").into_response()
    }
}

/// `POST /api/webhooks/whatsapp`
pub async fn receive(State(hook): State<WhatsAppWebhook>, headers: HeaderMap, body: Bytes) -> Response {
    if let Some(secret) = &hook.app_secret {
        let header = headers.get("x-hub-signature-256").and_then(|v| v.to_str().ok());
        if !signature::verify(secret.expose().as_bytes(), &body, header) {
            tracing::warn!("refused a WhatsApp webhook with a bad or missing signature");
            return (StatusCode::UNAUTHORIZED, "invalid signature").into_response();
        }
    }
    let inbound = match payload::parse(&body) {
        Ok(inbound) => inbound,
        Err(err) if hook.app_secret.is_some() => {
            tracing::error!(error = %err, bytes = body.len(), "a signed WhatsApp delivery could not be read at all: acknowledged so that Meta does not retry it");
            return (StatusCode::OK, "ok").into_response();
        }
        Err(err) => {
            tracing::warn!(error = %err, "refused a malformed WhatsApp webhook");
            return (StatusCode::BAD_REQUEST, "malformed payload").into_response();
        }
    };
    if inbound.unreadable > 0 {
        tracing::warn!(count = inbound.unreadable, "WhatsApp items without a readable sender were skipped");
    }
    match hook.inbox.receive(&inbound).await {
        Ok(receipt) => {
            tracing::debug!(?receipt, "WhatsApp delivery stored");
            (StatusCode::OK, "ok").into_response()
        }
        Err(err) => {
            tracing::error!(error = %err, "could not store a WhatsApp delivery; Meta will retry");
            (StatusCode::SERVICE_UNAVAILABLE, "try again").into_response()
        }
    }
}

/// `POST /api/webhooks/stripe`: signed deliveries, each event handled once, objects re-fetched
/// before acting (`billing::stripe_events::StripeWebhooks`).
pub async fn stripe(State(hook): State<StripeWebhooks>, headers: HeaderMap, body: Bytes) -> Response {
    let header = headers.get("stripe-signature").and_then(|v| v.to_str().ok());
    match hook.deliver(&body, header).await {
        EventOutcome::BadSignature => {
            tracing::warn!(target: "security", event = "stripe_signature_refused", "refused a Stripe webhook with a bad, stale or missing signature");
            (StatusCode::BAD_REQUEST, "invalid signature").into_response()
        }
        EventOutcome::Malformed => (StatusCode::BAD_REQUEST, "malformed payload").into_response(),
        EventOutcome::AlreadyHandled => (StatusCode::OK, "already handled").into_response(),
        EventOutcome::Handled => (StatusCode::OK, "ok").into_response(),
        EventOutcome::Unavailable(err) => {
            tracing::error!(error = %err, "billing events unavailable");
            (StatusCode::SERVICE_UNAVAILABLE, "try again").into_response()
        }
        EventOutcome::Failed { kind, error } => {
            tracing::error!(error = %error, kind, "a Stripe event could not be handled; Stripe will retry");
            (StatusCode::INTERNAL_SERVER_ERROR, "try again").into_response()
        }
    }
}
