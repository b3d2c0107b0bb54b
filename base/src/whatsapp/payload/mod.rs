//! Meta's webhook payload (`entry[].changes[].value` with `metadata`, `contacts`, `messages`,
//! `statuses`), parsed leniently — unknown fields are ignored — into what the product uses. Every
//! message keeps its raw JSON, so nothing a user sent is lost even when its type is not used yet.
//!
//! **Parsing is per item.** One message or status that is not the documented shape is kept as
//! `unsupported` (when we can tell who sent it) or skipped and logged; it never fails the others
//! of the delivery, because Meta retries a refused delivery whole (every message in it).
//!
//! **Who wrote.** Since April 2026 Meta adds a business-scoped user id (BSUID) to every delivery,
//! and a person who adopts a WhatsApp username may arrive without a phone number at all. Meta's
//! "Business-scoped user IDs" page
//! (<https://developers.facebook.com/documentation/business-messaging/whatsapp/business-scoped-user-ids/>)
//! and the webhook references for messages, statuses and system messages
//! (<https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status/>,
//! `…/messages/system/`) give the fields read here: `contacts[].user_id` (the BSUID, e.g.
//! `BR.1502576394655843`), `contacts[].profile.username`, an optional `contacts[].wa_id`;
//! `messages[].from` (optional) and `messages[].from_user_id`; `statuses[].recipient_id`
//! (optional) and `statuses[].recipient_user_id`; a `system` message `user_changed_number`
//! (`system.wa_id`, and the new BSUID in `system.user_id`) or `user_changed_user_id`. pywa's
//! `User` model reads the same fields (`wa_id` optional, `user_id`, `profile.username`).
//!
//! **What it cost.** Statuses carry `pricing {billable, pricing_model, category, type}` (Meta's
//! "Pricing" pages: per-message pricing, `PMP`, since 1 July 2025; `type` is `regular`,
//! `free_customer_service` or `free_entry_point`, and `billable` is deprecated but still sent).

mod items;
mod senders;
#[cfg(test)]
mod tests;

use serde_json::Value;

use items::{message, preference, status};
pub use senders::bsuid;
use senders::{Contact, sender, wa_id};

/// What kind of message a user sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageKind {
    Text,
    Audio,
    Image,
    Video,
    Document,
    Sticker,
    Location,
    Contacts,
    Button,
    Interactive,
    Reaction,
    /// A notice from WhatsApp about the account (`user_changed_number`, …), not something the
    /// person wrote: never answered.
    System,
    Other(String),
}

impl MessageKind {
    fn parse(kind: &str) -> Self {
        match kind {
            "text" => MessageKind::Text,
            "audio" | "voice" => MessageKind::Audio,
            "image" => MessageKind::Image,
            "video" => MessageKind::Video,
            "document" => MessageKind::Document,
            "sticker" => MessageKind::Sticker,
            "location" => MessageKind::Location,
            "contacts" => MessageKind::Contacts,
            "button" => MessageKind::Button,
            "interactive" => MessageKind::Interactive,
            "reaction" => MessageKind::Reaction,
            "system" => MessageKind::System,
            other => MessageKind::Other(other.to_owned()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            MessageKind::Text => "text",
            MessageKind::Audio => "audio",
            MessageKind::Image => "image",
            MessageKind::Video => "video",
            MessageKind::Document => "document",
            MessageKind::Sticker => "sticker",
            MessageKind::Location => "location",
            MessageKind::Contacts => "contacts",
            MessageKind::Button => "button",
            MessageKind::Interactive => "interactive",
            MessageKind::Reaction => "reaction",
            MessageKind::System => "system",
            MessageKind::Other(other) => other,
        }
    }

    /// Reads back a stored kind.
    pub fn from_stored(kind: &str) -> Self {
        Self::parse(kind)
    }

    /// Kinds whose words the consultant reads: text and the choices a user taps.
    pub fn is_readable(&self) -> bool {
        matches!(self, MessageKind::Text | MessageKind::Button | MessageKind::Interactive)
    }
}

/// Who sent a message, as WhatsApp shows them: a phone (`wa_id`), a business-scoped user id, or
/// both; a username when they adopted one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sender {
    /// The phone's digits with country code (`5511987654321`), when WhatsApp shows it.
    pub wa_id: Option<String>,
    /// The business-scoped user id (`BR.1502576394655843`), when the delivery carries it.
    pub user_id: Option<String>,
    /// The WhatsApp username (`@ana.doces`), when they adopted one.
    pub username: Option<String>,
}

impl Sender {
    /// Where a reply goes: the phone when WhatsApp shows it (Meta recommends it), else the BSUID.
    pub fn address(&self) -> Option<&str> {
        self.wa_id.as_deref().or(self.user_id.as_deref())
    }
}

/// One message a user sent.
#[derive(Clone, Debug, PartialEq)]
pub struct InboundMessage {
    /// WhatsApp's message id (`wamid…`): the dedupe key. A message without one gets a stable id
    /// derived from its content (`unread.<hash>`), so a repeated delivery is still kept once.
    pub wa_message_id: String,
    pub from: Sender,
    /// Their WhatsApp profile name, when the delivery carries it.
    pub profile_name: String,
    /// Unix milliseconds; None when Meta's timestamp is missing or unreadable.
    pub timestamp_ms: Option<i64>,
    pub kind: MessageKind,
    /// The words in it: text body, caption, tapped button, location name.
    pub text: String,
    /// The id of a reply button or list row the person tapped (`interactive.button_reply.id`).
    pub choice_id: Option<String>,
    /// Audio, image, video, document and sticker media id.
    pub media_id: Option<String>,
    /// What a `system` message says happened to the account.
    pub system: Option<SystemNotice>,
    pub raw: Value,
}

/// A `system` message: WhatsApp telling us about the account, not the person writing. Meta's
/// "System messages webhook reference"
/// (<https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/system>):
/// `{"type":"system","system":{"body":"User A changed from X to Y","wa_id":"<new>","user_id":"<new BSUID>","type":"user_changed_number"}}`,
/// without a `contacts` array; API versions before 12.0 named the new number `new_wa_id`.
/// `user_changed_user_id` reports only a new BSUID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemNotice {
    /// `user_changed_number`, `user_changed_user_id`, `customer_identity_changed`, …
    pub kind: String,
    /// For `user_changed_number`: the person's new WhatsApp id.
    pub new_wa_id: Option<String>,
    /// The person's new business-scoped user id (a number change gives them a new one).
    pub new_user_id: Option<String>,
}

/// Delivery progress of a message we sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeliveryStatus {
    Sent,
    Delivered,
    Read,
    Failed,
}

impl DeliveryStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryStatus::Sent => "sent",
            DeliveryStatus::Delivered => "delivered",
            DeliveryStatus::Read => "read",
            DeliveryStatus::Failed => "failed",
        }
    }
}

/// What Meta says a message of ours was billed as (`statuses[].pricing`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pricing {
    /// Whether Meta charges for it: `billable` when sent, else a `regular` (not free) type.
    pub billable: bool,
    /// `PMP` (per-message pricing) since July 2025; `CBP` before.
    pub model: String,
    /// `marketing`, `utility`, `authentication`, `authentication_international`, `service`, …
    pub category: String,
    /// `regular`, `free_customer_service`, `free_entry_point` (empty under the old model).
    pub kind: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusUpdate {
    pub wa_message_id: String,
    pub status: DeliveryStatus,
    /// The phone's digits, or the BSUID when we sent to one.
    pub recipient: String,
    /// Unix milliseconds; None when Meta's timestamp is missing or unreadable.
    pub timestamp_ms: Option<i64>,
    /// Meta's reason, for failures: "131047 Re-engagement message: …".
    pub error: Option<String>,
    pub pricing: Option<Pricing>,
}

/// A person told WhatsApp to stop or resume a business's marketing messages (the
/// `user_preferences` webhook field: `user_preferences[].wa_id`, `user_id` (a BSUID, since 2026),
/// `category` `marketing_messages`, `value` `stop` or `resume`, `timestamp`), per Meta's
/// "user_preferences webhook reference"
/// (developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/user_preferences).
/// We honour a stop for every proactive message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreferenceChange {
    pub from: Sender,
    /// True for `stop`, false for `resume`.
    pub stop: bool,
    /// Unix milliseconds; None when Meta's timestamp is missing or unreadable.
    pub timestamp_ms: Option<i64>,
}

/// Everything one webhook delivery carries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inbound {
    pub messages: Vec<InboundMessage>,
    pub statuses: Vec<StatusUpdate>,
    pub preferences: Vec<PreferenceChange>,
    /// Items that could not be read at all (no sender to keep them for): logged, counted.
    pub unreadable: usize,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("malformed WhatsApp webhook: {0}")]
pub struct Malformed(pub String);

/// Parses a webhook body. Deliveries that are not WhatsApp messages (other objects, other fields,
/// unknown status words) parse to nothing; only a body that is not a JSON object is Malformed —
/// anything inside it is read item by item. NUL characters (`\u0000`, which a text column cannot
/// hold and nobody means) are dropped, so the message around them is kept and answered.
pub fn parse(body: &[u8]) -> Result<Inbound, Malformed> {
    let mut body: Value = serde_json::from_slice(body).map_err(|e| Malformed(e.to_string()))?;
    if !body.is_object() {
        return Err(Malformed("not a JSON object".into()));
    }
    drop_nul_characters(&mut body);
    let mut inbound = Inbound::default();
    if body.get("object").and_then(Value::as_str) != Some("whatsapp_business_account") {
        return Ok(inbound);
    }
    let changes = items(&body, "entry").iter().flat_map(|entry| items(entry, "changes").iter());
    for change in changes {
        let value = change.get("value").unwrap_or(&Value::Null);
        match change.get("field").and_then(Value::as_str) {
            Some("messages") => {}
            Some("user_preferences") => {
                inbound.preferences.extend(items(value, "user_preferences").iter().filter_map(preference));
                continue;
            }
            _ => continue,
        }
        let contacts: Vec<Contact> = items(value, "contacts").iter().map(Contact::read).collect();
        for raw in items(value, "messages") {
            match message(raw.clone(), &contacts) {
                Some(message) => inbound.messages.push(message),
                None => {
                    tracing::warn!("a WhatsApp message without a sender we can read was skipped");
                    inbound.unreadable += 1;
                }
            }
        }
        for raw in items(value, "statuses") {
            if let Some(status) = status(raw) {
                inbound.statuses.push(status);
            }
        }
    }
    Ok(inbound)
}

/// The array under `key`, or nothing when it is missing or not an array.
pub(super) fn items<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

pub(super) fn present(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

pub(super) fn drop_nul_characters(value: &mut Value) {
    match value {
        Value::String(text) if text.contains('\0') => text.retain(|c| c != '\0'),
        Value::Array(items) => items.iter_mut().for_each(drop_nul_characters),
        Value::Object(fields) => {
            if fields.keys().any(|k| k.contains('\0')) {
                *fields = std::mem::take(fields).into_iter().map(|(k, v)| (k.replace('\0', ""), v)).collect();
            }
            fields.values_mut().for_each(drop_nul_characters);
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

pub(super) fn text_at<'a>(value: &'a Value, path: &[&str]) -> &'a str {
    path.iter().try_fold(value, |v, key| v.get(key)).and_then(Value::as_str).unwrap_or_default()
}

pub(super) fn seconds_to_ms(timestamp: &str) -> Option<i64> {
    timestamp.parse::<i64>().ok().map(|s| s.saturating_mul(1000))
}
