//! Meta's webhook payload (`entry[].changes[].value` with `metadata`, `contacts`, `messages`,
//! `statuses`), parsed leniently — unknown fields are ignored — into what the product uses. Every
//! message keeps its raw JSON, so nothing a user sent is lost even when its type is not used yet.

use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct Webhook {
    #[serde(default)]
    object: String,
    #[serde(default)]
    entry: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    #[serde(default)]
    changes: Vec<Change>,
}

#[derive(Deserialize)]
struct Change {
    #[serde(default)]
    field: String,
    #[serde(default)]
    value: Value,
}

#[derive(Deserialize, Default)]
struct ChangeValue {
    #[serde(default)]
    contacts: Vec<Contact>,
    #[serde(default)]
    messages: Vec<Value>,
    #[serde(default)]
    statuses: Vec<RawStatus>,
}

#[derive(Deserialize)]
struct Contact {
    #[serde(default)]
    wa_id: String,
    profile: Option<Profile>,
}

#[derive(Deserialize)]
struct Profile {
    #[serde(default)]
    name: String,
}

#[derive(Deserialize)]
struct RawStatus {
    id: String,
    status: String,
    #[serde(default)]
    recipient_id: String,
    #[serde(default)]
    timestamp: String,
    #[serde(default)]
    errors: Vec<RawError>,
}

#[derive(Deserialize)]
struct RawError {
    #[serde(default)]
    code: i64,
    #[serde(default)]
    title: String,
    #[serde(default)]
    message: String,
    error_data: Option<ErrorData>,
}

#[derive(Deserialize)]
struct ErrorData {
    #[serde(default)]
    details: String,
}

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

/// One message a user sent.
#[derive(Clone, Debug, PartialEq)]
pub struct InboundMessage {
    /// WhatsApp's message id (`wamid…`): the dedupe key.
    pub wa_message_id: String,
    /// The sender's WhatsApp id: their number's digits.
    pub from: String,
    /// Their WhatsApp profile name, when the delivery carries it.
    pub profile_name: String,
    /// Unix milliseconds.
    pub timestamp_ms: i64,
    pub kind: MessageKind,
    /// The words in it: text body, caption, tapped button, location name.
    pub text: String,
    /// Audio, image, video, document and sticker media id.
    pub media_id: Option<String>,
    /// What a `system` message says happened to the account.
    pub system: Option<SystemNotice>,
    pub raw: Value,
}

/// A `system` message: WhatsApp telling us about the account, not the person writing. Meta's
/// "System messages webhook reference"
/// (<https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/system>):
/// `{"type":"system","system":{"body":"User A changed from X to Y","wa_id":"<new>","type":"user_changed_number"}}`,
/// without a `contacts` array; API versions before 12.0 named the new number `new_wa_id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemNotice {
    /// `user_changed_number`, `customer_identity_changed`, …
    pub kind: String,
    /// For `user_changed_number`: the person's new WhatsApp id.
    pub new_wa_id: Option<String>,
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusUpdate {
    pub wa_message_id: String,
    pub status: DeliveryStatus,
    pub recipient: String,
    pub timestamp_ms: i64,
    /// Meta's reason, for failures: "131047 Re-engagement message: …".
    pub error: Option<String>,
}

/// Everything one webhook delivery carries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inbound {
    pub messages: Vec<InboundMessage>,
    pub statuses: Vec<StatusUpdate>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("malformed WhatsApp webhook: {0}")]
pub struct Malformed(pub String);

/// Parses a webhook body. Deliveries that are not WhatsApp messages (other objects, other fields,
/// unknown status words) parse to nothing; a body that is not the documented shape is Malformed.
/// NUL characters (`\u0000`, which a text column cannot hold and nobody means) are dropped, so
/// the message around them is kept and answered.
pub fn parse(body: &[u8]) -> Result<Inbound, Malformed> {
    let mut body: Value = serde_json::from_slice(body).map_err(|e| Malformed(e.to_string()))?;
    drop_nul_characters(&mut body);
    let webhook: Webhook = serde_json::from_value(body).map_err(|e| Malformed(e.to_string()))?;
    let mut inbound = Inbound::default();
    if webhook.object != "whatsapp_business_account" {
        return Ok(inbound);
    }
    for change in webhook.entry.into_iter().flat_map(|e| e.changes) {
        if change.field != "messages" {
            continue;
        }
        let value: ChangeValue =
            serde_json::from_value(change.value).map_err(|e| Malformed(e.to_string()))?;
        for raw in value.messages {
            inbound.messages.push(message(raw, &value.contacts)?);
        }
        inbound.statuses.extend(value.statuses.into_iter().filter_map(status));
    }
    Ok(inbound)
}

fn drop_nul_characters(value: &mut Value) {
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

fn text_at<'a>(value: &'a Value, path: &[&str]) -> &'a str {
    path.iter().try_fold(value, |v, key| v.get(key)).and_then(Value::as_str).unwrap_or_default()
}

fn seconds_to_ms(timestamp: &str) -> i64 {
    timestamp.parse::<i64>().map(|s| s.saturating_mul(1000)).unwrap_or_else(|_| crate::db::now_ms())
}

fn message(raw: Value, contacts: &[Contact]) -> Result<InboundMessage, Malformed> {
    let id = text_at(&raw, &["id"]).to_owned();
    let from = text_at(&raw, &["from"]).to_owned();
    if id.is_empty() || id.len() > 256 || from.is_empty() || from.len() > 20 {
        return Err(Malformed("a message without a valid id or sender".into()));
    }
    let kind = MessageKind::parse(text_at(&raw, &["type"]));
    let text = match &kind {
        MessageKind::Text => text_at(&raw, &["text", "body"]).to_owned(),
        MessageKind::Image | MessageKind::Video | MessageKind::Document => {
            text_at(&raw, &[kind.as_str(), "caption"]).to_owned()
        }
        MessageKind::Button => text_at(&raw, &["button", "text"]).to_owned(),
        MessageKind::Interactive => {
            let reply =
                raw.get("interactive").and_then(|i| i.get("button_reply").or_else(|| i.get("list_reply")));
            reply.map(|r| text_at(r, &["title"]).to_owned()).unwrap_or_default()
        }
        MessageKind::Location => {
            let name = text_at(&raw, &["location", "name"]);
            let address = text_at(&raw, &["location", "address"]);
            [name, address].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join(", ")
        }
        MessageKind::Reaction => text_at(&raw, &["reaction", "emoji"]).to_owned(),
        MessageKind::System => text_at(&raw, &["system", "body"]).to_owned(),
        MessageKind::Audio | MessageKind::Sticker | MessageKind::Contacts | MessageKind::Other(_) => {
            String::new()
        }
    };
    let media_id = match &kind {
        MessageKind::Audio
        | MessageKind::Image
        | MessageKind::Video
        | MessageKind::Document
        | MessageKind::Sticker => {
            Some(text_at(&raw, &[kind.as_str(), "id"]).to_owned()).filter(|id| !id.is_empty())
        }
        MessageKind::Text
        | MessageKind::Location
        | MessageKind::Contacts
        | MessageKind::Button
        | MessageKind::Interactive
        | MessageKind::Reaction
        | MessageKind::System
        | MessageKind::Other(_) => None,
    };
    let system = (kind == MessageKind::System).then(|| {
        let new_wa_id = [text_at(&raw, &["system", "wa_id"]), text_at(&raw, &["system", "new_wa_id"])]
            .into_iter()
            .find(|id| !id.is_empty())
            .map(str::to_owned);
        SystemNotice { kind: text_at(&raw, &["system", "type"]).to_owned(), new_wa_id }
    });
    let profile_name = contacts
        .iter()
        .find(|c| c.wa_id == from)
        .or(contacts.first())
        .and_then(|c| c.profile.as_ref())
        .map(|p| p.name.clone())
        .unwrap_or_default();
    Ok(InboundMessage {
        wa_message_id: id,
        from,
        profile_name,
        timestamp_ms: seconds_to_ms(text_at(&raw, &["timestamp"])),
        kind,
        text: text.chars().take(4096).collect(),
        media_id,
        system,
        raw,
    })
}

fn status(raw: RawStatus) -> Option<StatusUpdate> {
    let status = match raw.status.as_str() {
        "sent" => DeliveryStatus::Sent,
        "delivered" => DeliveryStatus::Delivered,
        "read" => DeliveryStatus::Read,
        "failed" => DeliveryStatus::Failed,
        _ => return None,
    };
    let error = raw.errors.first().map(|e| {
        let details = e.error_data.as_ref().map(|d| d.details.as_str()).filter(|d| !d.is_empty());
        let title = if e.title.is_empty() { &e.message } else { &e.title };
        match details {
            Some(details) => format!("{} {title}: {details}", e.code),
            None => format!("{} {title}", e.code),
        }
    });
    Some(StatusUpdate {
        wa_message_id: raw.id,
        status,
        recipient: raw.recipient_id,
        timestamp_ms: seconds_to_ms(&raw.timestamp),
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        let path = format!("{}/tests/fixtures/whatsapp/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|_| panic!("fixture {path}"))
    }

    #[test]
    fn a_text_message_carries_sender_profile_name_and_words() {
        let inbound = parse(&fixture("inbound-text.json")).unwrap();
        let [message] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
        assert_eq!(message.from, "5511987654321");
        assert_eq!(message.profile_name, "Ana Lima");
        assert_eq!(message.kind, MessageKind::Text);
        assert_eq!(message.text, "Oi! Quero abrir uma padaria.");
        assert_eq!(message.timestamp_ms, 1_795_253_580_000);
        assert!(message.wa_message_id.starts_with("wamid."));
    }

    #[test]
    fn nul_characters_are_dropped_and_the_message_kept() {
        let body = String::from_utf8(fixture("inbound-text.json"))
            .unwrap()
            .replace("Quero abrir", "Quero\\u0000 abrir")
            .replace("Ana Lima", "Ana\\u0000 Lima");
        assert!(body.contains("\\u0000"));
        let inbound = parse(body.as_bytes()).unwrap();
        assert_eq!(inbound.messages[0].text, "Oi! Quero abrir uma padaria.");
        assert_eq!(inbound.messages[0].profile_name, "Ana Lima");
        assert!(!inbound.messages[0].raw.to_string().contains("\\u0000"), "nor in what is kept raw");
    }

    #[test]
    fn a_voice_note_keeps_its_media_id() {
        let inbound = parse(&fixture("inbound-audio.json")).unwrap();
        assert_eq!(inbound.messages[0].kind, MessageKind::Audio);
        assert_eq!(inbound.messages[0].media_id.as_deref(), Some("1286470822462521"));
    }

    #[test]
    fn images_keep_their_caption_and_button_replies_their_title() {
        let inbound = parse(&fixture("inbound-image-and-button.json")).unwrap();
        assert_eq!(inbound.messages.len(), 2);
        assert_eq!(
            (inbound.messages[0].kind.clone(), inbound.messages[0].text.as_str()),
            (MessageKind::Image, "Meu cardápio")
        );
        assert_eq!(
            (inbound.messages[1].kind.clone(), inbound.messages[1].text.as_str()),
            (MessageKind::Interactive, "Ver progresso")
        );
    }

    #[test]
    fn statuses_are_parsed_with_meta_s_reason_for_failures() {
        let delivered = parse(&fixture("status-delivered.json")).unwrap();
        assert!(delivered.messages.is_empty());
        assert_eq!(delivered.statuses[0].status, DeliveryStatus::Delivered);
        let failed = parse(&fixture("status-failed.json")).unwrap();
        let error = failed.statuses[0].error.as_deref().unwrap();
        assert!(error.starts_with("131047 Re-engagement message"), "{error}");
    }

    #[test]
    fn a_number_change_is_a_system_notice_with_the_new_number_and_no_contacts() {
        let inbound = parse(&fixture("inbound-system-user-changed-number.json")).unwrap();
        let [message] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
        assert_eq!(message.kind, MessageKind::System);
        assert_eq!(message.from, "553187654321");
        assert_eq!(message.profile_name, "", "system messages carry no contacts");
        let notice = message.system.as_ref().unwrap();
        assert_eq!(notice.kind, "user_changed_number");
        assert_eq!(notice.new_wa_id.as_deref(), Some("5531976543210"));
        assert!(!message.kind.is_readable());
    }

    #[test]
    fn a_type_the_cloud_api_cannot_show_is_still_something_the_person_sent() {
        let inbound = parse(&fixture("inbound-unsupported.json")).unwrap();
        let [message] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
        assert_eq!(message.kind, MessageKind::Other("unsupported".into()));
        assert_eq!(message.system, None);
        assert_eq!(message.profile_name, "Ana Lima");
    }

    #[test]
    fn other_objects_and_fields_parse_to_nothing() {
        assert_eq!(parse(br#"{"object":"page","entry":[]}"#).unwrap(), Inbound::default());
        let other_field = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"account_update","value":{"x":1}}]}]}"#;
        assert_eq!(parse(other_field).unwrap(), Inbound::default());
    }

    #[test]
    fn malformed_bodies_are_refused() {
        assert!(parse(b"not json").is_err());
        assert!(parse(b"[1,2]").is_err());
        let no_id = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"messages":[{"from":"55119"}]}}]}]}"#;
        assert!(parse(no_id).is_err());
    }
}
