//! Development mode only (`WHATSAPP_MODE=dev`, refused in production): the outbox of everything
//! the product sent to a number, and an inbound endpoint that feeds a message through exactly the
//! same inbox as a signed webhook. The simulator page `/dev/whatsapp` is built on these two. A
//! simulated person may have a number, a business-scoped user id and a username, or — as WhatsApp
//! shows people who adopted a username — no number at all.

use axum::{
    Json,
    extract::{Query, State},
    http::HeaderMap,
    response::Response,
};
use serde::Deserialize;
use serde_json::json;

use super::{rest::envelope, timestamp};
use crate::{
    conversation::inbox::Inbox,
    error::{AppError, Problem},
    identity::{contact::clean_username, phone::PhoneNumber},
    locale::Language,
    whatsapp::{
        outbox::DevOutbox,
        payload::{self, Inbound, InboundMessage, MessageKind, Sender},
    },
};

/// The format of a business-scoped user id, for a field that is not one.
const BSUID_FORMAT: Problem = Problem::Format(said!("api-dev-format-a-whatsapp-user-id-br"));

const MAX_TEXT_CHARS: usize = 4096;
const MAX_NAME_CHARS: usize = 120;

#[derive(Clone)]
pub struct DevWhatsApp {
    pub outbox: DevOutbox,
    pub inbox: Inbox,
}

/// The simulator answers only requests addressed to this machine (or to `PUBLIC_URL`'s host): a
/// page on `attacker.example` whose name an attacker points at 127.0.0.1 (DNS rebinding) reaches
/// our loopback port from the victim's browser, but with its own name in `Host` — refused (403),
/// so it reads no login code.
pub async fn addressed_here(
    allowed: std::sync::Arc<Vec<String>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = request
        .headers()
        .get(axum::http::header::HOST)
        .and_then(|v| v.to_str().ok())
        .or_else(|| request.uri().host())
        .map(host_without_port);
    if host.as_ref().is_some_and(|h| allowed.iter().any(|a| a == h)) {
        return next.run(request).await;
    }
    tracing::warn!(target: "security", event = "dev_host_refused", host = ?host, "a dev endpoint was asked for under another name");
    envelope::error(AppError::PermissionDenied, language(request.headers()))
}

/// The hosts the simulator answers to: this machine's names and `PUBLIC_URL`'s host.
pub fn local_hosts(public_url: &str) -> Vec<String> {
    let mut hosts = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "[::1]".to_owned()];
    if let Some(host) =
        url::Url::parse(public_url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase))
    {
        hosts.push(host);
    }
    hosts
}

/// `Host: localhost:8080` → `localhost`; `[::1]:8080` → `[::1]`; lower case.
fn host_without_port(host: &str) -> String {
    let host = host.trim().to_ascii_lowercase();
    if host.starts_with('[') {
        return host.split_once(']').map_or(host.clone(), |(h, _)| format!("{h}]"));
    }
    host.split_once(':').map_or(host.clone(), |(h, _)| h.to_owned())
}

fn language(headers: &HeaderMap) -> Language {
    Language::from_accept_language(headers.get("accept-language").and_then(|v| v.to_str().ok()))
}

#[derive(Deserialize)]
pub struct OutboxQuery {
    #[serde(default)]
    phone: String,
    /// A business-scoped user id, for a person without a visible number.
    #[serde(default, rename = "userId")]
    user_id: String,
}

/// The outbox's name for whom a query asks about: the number (E.164), else the BSUID.
fn outbox_address(phone: &str, user_id: &str) -> Result<String, AppError> {
    if phone.trim().is_empty() && !user_id.trim().is_empty() {
        return payload::bsuid(user_id).ok_or_else(|| AppError::invalid("userId", BSUID_FORMAT));
    }
    Ok(PhoneNumber::parse_field("phone", phone)?.e164().to_owned())
}

/// `GET /api/dev/whatsapp/outbox?phone=+55…` (or `?userId=BR.…`)
pub async fn outbox(
    State(dev): State<DevWhatsApp>,
    headers: HeaderMap,
    Query(query): Query<OutboxQuery>,
) -> Response {
    let delivered = async {
        let address = outbox_address(&query.phone, &query.user_id)?;
        let delivered = dev.outbox.delivered_to(&address).await?;
        let messages: Vec<_> = delivered
            .into_iter()
            .map(|m| {
                let file = m.file_name.as_ref().map(|name| {
                    json!({"fileName": name, "url": format!("/api/dev/whatsapp/outbox/files/{}", m.seq)})
                });
                json!({"to": m.to, "text": m.text, "kind": m.kind, "createdAt": timestamp(m.created_at).to_string(),
                       "document": file, "choices": m.choices})
            })
            .collect();
        let typing = dev.outbox.typing(&address).await?;
        Ok(json!({ "messages": messages, "typing": typing }))
    };
    envelope::answer(language(&headers), delivered.await)
}

/// `GET /api/dev/whatsapp/outbox/files/{seq}`: a file the product sent, to download as the phone
/// would.
pub async fn outbox_file(
    State(dev): State<DevWhatsApp>,
    headers: HeaderMap,
    axum::extract::Path(seq): axum::extract::Path<i64>,
) -> Response {
    use axum::response::IntoResponse;
    match dev.outbox.file(seq).await {
        Ok(Some((name, bytes))) => {
            let disposition = format!("attachment; filename=\"{}\"", name.replace(['"', '\\'], ""));
            let mime = if name.ends_with(".pdf") { "application/pdf" } else { "application/octet-stream" };
            (
                [
                    (http::header::CONTENT_TYPE, mime.to_owned()),
                    (http::header::CONTENT_DISPOSITION, disposition),
                ],
                bytes,
            )
                .into_response()
        }
        Ok(None) => envelope::error(AppError::NotFound(crate::error::Resource::File), language(&headers)),
        Err(error) => envelope::error(error, language(&headers)),
    }
}

#[derive(Deserialize)]
pub struct SimulatedMessage {
    /// The number; may be empty for a person WhatsApp shows only by username.
    #[serde(default)]
    from: String,
    /// Their business-scoped user id (`BR.…`).
    #[serde(default, rename = "userId")]
    user_id: String,
    /// Their WhatsApp username (`@ana.doces`).
    #[serde(default)]
    username: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    text: String,
    /// A tap on answers we offered: the choice's id; `text` is its title. Delivered as Meta
    /// delivers a tap (`interactive` with `button_reply`, or `list_reply` when `list` is true).
    #[serde(default)]
    choice: Option<String>,
    #[serde(default)]
    list: bool,
}

/// `POST /api/dev/whatsapp/inbound {"from"|"userId", "username"?, "name","text"[, "choice", "list"]}`
pub async fn inbound(
    State(dev): State<DevWhatsApp>,
    headers: HeaderMap,
    body: Option<Json<SimulatedMessage>>,
) -> Response {
    let received = async {
        let Json(message) =
            body.ok_or_else(|| AppError::MalformedBody("expected {\"from\", \"name\", \"text\"}".into()))?;
        let inbound = simulated(&message, dev.outbox.now_ms())?;
        dev.inbox.receive(&inbound).await?;
        Ok(json!({ "messageId": inbound.messages[0].wa_message_id }))
    };
    envelope::answer(language(&headers), received.await)
}

/// The message as Meta would have delivered it.
fn simulated(message: &SimulatedMessage, now: i64) -> Result<Inbound, AppError> {
    // As from Meta's webhook: NUL characters, which a text column cannot hold, are dropped on both
    // engines (`payload::parse` does the same).
    let without_nul = |text: &str| text.replace('\0', "");
    let message = &SimulatedMessage {
        from: without_nul(&message.from),
        user_id: without_nul(&message.user_id),
        username: without_nul(&message.username),
        name: without_nul(&message.name),
        text: without_nul(&message.text),
        choice: message.choice.as_deref().map(without_nul),
        list: message.list,
    };
    let phone = match (message.from.trim(), message.user_id.trim()) {
        ("", "") => return Err(AppError::invalid("from", Problem::Required)),
        ("", _) => None,
        (from, _) => Some(PhoneNumber::parse_field("from", from)?),
    };
    let user_id = match message.user_id.trim() {
        "" => None,
        id => Some(payload::bsuid(id).ok_or_else(|| AppError::invalid("userId", BSUID_FORMAT))?),
    };
    let username = Some(clean_username(&message.username)).filter(|u| !u.is_empty());
    let from = Sender { wa_id: phone.as_ref().map(|p| p.digits().to_owned()), user_id, username };
    let text = message.text.trim();
    if text.is_empty() {
        return Err(AppError::invalid("text", Problem::Required));
    }
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(AppError::invalid("text", Problem::TooLong { max: MAX_TEXT_CHARS }));
    }
    if message.name.chars().count() > MAX_NAME_CHARS {
        return Err(AppError::invalid("name", Problem::TooLong { max: MAX_NAME_CHARS }));
    }
    let wa_message_id = format!("wamid.dev.{}", uuid::Uuid::new_v4().simple());
    let (kind, raw) = match &message.choice {
        Some(id) => {
            let reply = if message.list { "list_reply" } else { "button_reply" };
            let interactive = json!({ "type": reply, reply: { "id": id, "title": text } });
            let raw = json!({"from": from.wa_id, "from_user_id": from.user_id, "id": wa_message_id,
                             "timestamp": (now / 1000).to_string(), "type": "interactive", "interactive": interactive});
            (MessageKind::Interactive, raw)
        }
        None => {
            let raw = json!({"from": from.wa_id, "from_user_id": from.user_id, "id": wa_message_id,
                             "timestamp": (now / 1000).to_string(), "type": "text", "text": { "body": text }});
            (MessageKind::Text, raw)
        }
    };
    Ok(Inbound {
        messages: vec![InboundMessage {
            wa_message_id,
            from,
            profile_name: message.name.trim().to_owned(),
            timestamp_ms: Some(now),
            kind,
            text: text.to_owned(),
            choice_id: message.choice.clone(),
            media_id: None,
            system: None,
            raw,
        }],
        statuses: Vec::new(),
        preferences: Vec::new(),
        unreadable: 0,
    })
}
