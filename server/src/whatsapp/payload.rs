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

use serde_json::Value;

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
fn items<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// One entry of `contacts`: who the delivery is about.
struct Contact {
    wa_id: Option<String>,
    user_id: Option<String>,
    username: Option<String>,
    name: String,
}

impl Contact {
    fn read(raw: &Value) -> Self {
        Contact {
            wa_id: present(text_at(raw, &["wa_id"])),
            user_id: present(text_at(raw, &["user_id"])),
            username: present(text_at(raw, &["profile", "username"])),
            name: text_at(raw, &["profile", "name"]).to_owned(),
        }
    }
}

fn present(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
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

fn seconds_to_ms(timestamp: &str) -> Option<i64> {
    timestamp.parse::<i64>().ok().map(|s| s.saturating_mul(1000))
}

/// A phone's digits as WhatsApp writes them (`wa_id`), or nothing.
fn wa_id(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty() && text.len() <= 20 && text.chars().all(|c| c.is_ascii_digit()))
        .then(|| text.to_owned())
}

/// A business-scoped user id as Meta documents it: a two-letter country code, a dot, and up to
/// 128 letters and digits (`BR.1502576394655843`; a parent BSUID has `ENT.` after the country).
pub fn bsuid(text: &str) -> Option<String> {
    let text = text.trim();
    let (country, rest) = text.split_once('.')?;
    let rest = rest.strip_prefix("ENT.").unwrap_or(rest);
    let valid = country.len() == 2
        && country.chars().all(|c| c.is_ascii_uppercase())
        && (1..=128).contains(&rest.len())
        && rest.chars().all(|c| c.is_ascii_alphanumeric());
    valid.then(|| text.to_owned())
}

/// Who sent `raw`, from its own fields and the delivery's `contacts`: the contact naming the same
/// phone or BSUID, else the only contact there is.
fn sender(raw: &Value, contacts: &[Contact]) -> (Sender, String) {
    let from = wa_id(text_at(raw, &["from"]));
    let from_user_id = bsuid(text_at(raw, &["from_user_id"]));
    let contact = contacts
        .iter()
        .find(|c| {
            (from.is_some() && c.wa_id == from) || (from_user_id.is_some() && c.user_id == from_user_id)
        })
        .or(if contacts.len() == 1 { contacts.first() } else { None });
    let sender = Sender {
        wa_id: from.or_else(|| contact.and_then(|c| c.wa_id.as_deref()).and_then(wa_id)),
        user_id: from_user_id.or_else(|| contact.and_then(|c| c.user_id.as_deref()).and_then(bsuid)),
        username: contact.and_then(|c| c.username.clone()).map(|u| u.chars().take(64).collect()),
    };
    (sender, contact.map(|c| c.name.clone()).unwrap_or_default())
}

/// One message. None only when nobody can be named as its sender; a message whose id or content
/// cannot be read is kept as `unsupported` with its raw JSON.
fn message(raw: Value, contacts: &[Contact]) -> Option<InboundMessage> {
    let (from, profile_name) = sender(&raw, contacts);
    from.address()?;
    let id = text_at(&raw, &["id"]);
    let readable_id = !id.is_empty() && id.len() <= 256;
    let wa_message_id = if readable_id { id.to_owned() } else { unread_id(&raw) };
    let kind = if readable_id && raw.is_object() {
        MessageKind::parse(text_at(&raw, &["type"]))
    } else {
        tracing::warn!("a WhatsApp message without a readable id was kept as unsupported");
        MessageKind::Other("unsupported".into())
    };
    let text = match &kind {
        MessageKind::Text => text_at(&raw, &["text", "body"]).to_owned(),
        MessageKind::Image | MessageKind::Video | MessageKind::Document => {
            text_at(&raw, &[kind.as_str(), "caption"]).to_owned()
        }
        MessageKind::Button => text_at(&raw, &["button", "text"]).to_owned(),
        MessageKind::Interactive => text_at(tapped(&raw), &["title"]).to_owned(),
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
    let choice_id = match &kind {
        MessageKind::Interactive => present(text_at(tapped(&raw), &["id"])),
        MessageKind::Button => present(text_at(&raw, &["button", "payload"])),
        _ => None,
    }
    .map(|id| id.chars().take(256).collect());
    let media_id = match &kind {
        MessageKind::Audio
        | MessageKind::Image
        | MessageKind::Video
        | MessageKind::Document
        | MessageKind::Sticker => present(text_at(&raw, &[kind.as_str(), "id"])),
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
            .find_map(wa_id);
        let new_user_id = bsuid(text_at(&raw, &["system", "user_id"]));
        SystemNotice { kind: text_at(&raw, &["system", "type"]).to_owned(), new_wa_id, new_user_id }
    });
    Some(InboundMessage {
        wa_message_id,
        from,
        profile_name,
        timestamp_ms: seconds_to_ms(text_at(&raw, &["timestamp"])),
        kind,
        text: text.chars().take(4096).collect(),
        choice_id,
        media_id,
        system,
        raw,
    })
}

/// The reply a person tapped: `interactive.button_reply` or `interactive.list_reply`.
fn tapped(raw: &Value) -> &Value {
    raw.get("interactive")
        .and_then(|i| i.get("button_reply").or_else(|| i.get("list_reply")))
        .unwrap_or(&Value::Null)
}

/// A stable id for a message that came without a readable one: a repeated delivery of the same
/// JSON gets the same id, so it is still kept once.
fn unread_id(raw: &Value) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(raw.to_string().as_bytes());
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("unread.{hex}")
}

/// One `user_preferences[]` item about marketing messages; others (and unknown values) are nothing.
fn preference(raw: &Value) -> Option<PreferenceChange> {
    if text_at(raw, &["category"]) != "marketing_messages" {
        return None;
    }
    let stop = match text_at(raw, &["value"]) {
        "stop" => true,
        "resume" => false,
        _ => return None,
    };
    let from = Sender {
        wa_id: wa_id(text_at(raw, &["wa_id"])),
        user_id: bsuid(text_at(raw, &["user_id"])),
        username: None,
    };
    (from.wa_id.is_some() || from.user_id.is_some()).then(|| PreferenceChange {
        from,
        stop,
        // A number in the reference's example, a string in the messages field: either is read.
        timestamp_ms: match &raw["timestamp"] {
            Value::Number(n) => n.as_i64().map(|s| s.saturating_mul(1000)),
            other => seconds_to_ms(other.as_str().unwrap_or_default()),
        },
    })
}

fn status(raw: &Value) -> Option<StatusUpdate> {
    let id = text_at(raw, &["id"]);
    if id.is_empty() || id.len() > 256 {
        tracing::warn!("a WhatsApp status without a readable message id was skipped");
        return None;
    }
    let status = match text_at(raw, &["status"]) {
        "sent" => DeliveryStatus::Sent,
        "delivered" => DeliveryStatus::Delivered,
        "read" => DeliveryStatus::Read,
        "failed" => DeliveryStatus::Failed,
        _ => return None,
    };
    let error = items(raw, "errors").first().map(|e| {
        let code = e.get("code").and_then(Value::as_i64).unwrap_or_default();
        let details = present(text_at(e, &["error_data", "details"]));
        let title = present(text_at(e, &["title"])).unwrap_or_else(|| text_at(e, &["message"]).to_owned());
        match details {
            Some(details) => format!("{code} {title}: {details}"),
            None => format!("{code} {title}"),
        }
    });
    let recipient = wa_id(text_at(raw, &["recipient_id"]))
        .or_else(|| bsuid(text_at(raw, &["recipient_user_id"])))
        .unwrap_or_default();
    let pricing = raw.get("pricing").filter(|p| p.is_object()).map(|p| {
        let kind = text_at(p, &["type"]).to_owned();
        let billable = p.get("billable").and_then(Value::as_bool).unwrap_or(kind == "regular");
        Pricing {
            billable,
            model: text_at(p, &["pricing_model"]).chars().take(16).collect(),
            category: text_at(p, &["category"]).chars().take(40).collect(),
            kind: kind.chars().take(40).collect(),
        }
    });
    Some(StatusUpdate {
        wa_message_id: id.to_owned(),
        status,
        recipient,
        timestamp_ms: seconds_to_ms(text_at(raw, &["timestamp"])),
        error,
        pricing,
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
        assert_eq!(message.from.wa_id.as_deref(), Some("5511987654321"));
        assert_eq!(message.profile_name, "Ana Lima");
        assert_eq!(message.kind, MessageKind::Text);
        assert_eq!(message.text, "Oi! Quero abrir uma padaria.");
        assert_eq!(message.timestamp_ms, Some(1_795_253_580_000));
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
        assert_eq!(message.from.wa_id.as_deref(), Some("553187654321"));
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
    fn a_stop_of_marketing_messages_is_read_from_the_user_preferences_field() {
        // The shape of Meta's user_preferences webhook reference.
        let body = br#"{"object":"whatsapp_business_account","entry":[{"id":"102290129340398","changes":[{"field":"user_preferences","value":{"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"106540352242922"},"contacts":[{"profile":{"name":"Sheena Nelson"},"wa_id":"5511987654321"}],"user_preferences":[{"wa_id":"5511987654321","detail":"User requested to stop marketing messages","category":"marketing_messages","value":"stop","timestamp":1731705721},{"wa_id":"5511987654321","category":"marketing_messages","value":"maybe","timestamp":1731705722}]}}]}]}"#;
        let inbound = parse(body).unwrap();
        let [change] = inbound.preferences.as_slice() else { panic!("{inbound:?}") };
        assert!(change.stop && change.from.wa_id.as_deref() == Some("5511987654321"));
        assert!(inbound.messages.is_empty() && inbound.statuses.is_empty());
    }

    #[test]
    fn other_objects_and_fields_parse_to_nothing() {
        assert_eq!(parse(br#"{"object":"page","entry":[]}"#).unwrap(), Inbound::default());
        let other_field = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"account_update","value":{"x":1}}]}]}"#;
        assert_eq!(parse(other_field).unwrap(), Inbound::default());
    }

    #[test]
    fn only_a_body_that_is_not_a_json_object_is_malformed() {
        assert!(parse(b"not json").is_err());
        assert!(parse(b"[1,2]").is_err());
        let odd_shapes = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"contacts":"x","messages":{"a":1},"statuses":[1]}}]}]}"#;
        assert_eq!(parse(odd_shapes).unwrap(), Inbound::default());
    }

    #[test]
    fn a_message_without_an_id_is_kept_as_unsupported_once() {
        let no_id = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"messages":[{"from":"5511987654321","type":"text"}]}}]}]}"#;
        let first = parse(no_id).unwrap();
        let [message] = first.messages.as_slice() else { panic!("{first:?}") };
        assert_eq!(message.kind, MessageKind::Other("unsupported".into()));
        assert!(message.wa_message_id.starts_with("unread."));
        assert_eq!(
            parse(no_id).unwrap().messages[0].wa_message_id,
            message.wa_message_id,
            "stable across retries"
        );
    }

    #[test]
    fn a_person_with_a_username_and_no_number_is_read_by_their_business_scoped_id() {
        let inbound = parse(&fixture("inbound-username-only.json")).unwrap();
        let [message] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
        assert_eq!(message.from.wa_id, None);
        assert_eq!(message.from.user_id.as_deref(), Some("BR.1502576394655843"));
        assert_eq!(message.from.username.as_deref(), Some("@bia.doces"));
        assert_eq!(message.from.address(), Some("BR.1502576394655843"));
        assert_eq!(message.profile_name, "Bia Doces");
        assert_eq!(message.text, "Oi! Quero abrir uma doceria.");
    }

    #[test]
    fn a_mixed_batch_keeps_every_message_with_its_own_sender() {
        let inbound = parse(&fixture("inbound-mixed-batch.json")).unwrap();
        let [bia, ana, unreadable] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
        assert_eq!(
            (bia.from.wa_id.as_deref(), bia.from.user_id.as_deref()),
            (None, Some("BR.1502576394655843"))
        );
        assert_eq!(bia.profile_name, "Bia Doces");
        assert_eq!(ana.from.wa_id.as_deref(), Some("5511987654321"));
        assert_eq!(ana.from.user_id.as_deref(), Some("BR.2716354091827364"));
        assert_eq!((ana.profile_name.as_str(), ana.from.username.as_deref()), ("Ana Lima", None));
        assert_eq!(unreadable.kind, MessageKind::Other("unsupported".into()));
        assert_eq!(unreadable.from.wa_id.as_deref(), Some("5511987654321"));
    }

    #[test]
    fn a_message_with_no_sender_at_all_is_skipped_and_counted() {
        let body = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"messages":[{"id":"wamid.1","type":"text","text":{"body":"?"}}]}}]}]}"#;
        let inbound = parse(body).unwrap();
        assert!(inbound.messages.is_empty());
        assert_eq!(inbound.unreadable, 1);
    }

    #[test]
    fn statuses_say_what_meta_billed_and_name_a_business_scoped_recipient() {
        let inbound = parse(&fixture("status-billable-utility-bsuid.json")).unwrap();
        let [status] = inbound.statuses.as_slice() else { panic!("{inbound:?}") };
        assert_eq!(status.recipient, "BR.1502576394655843");
        let pricing = status.pricing.as_ref().unwrap();
        assert!(pricing.billable);
        assert_eq!(
            (pricing.model.as_str(), pricing.category.as_str(), pricing.kind.as_str()),
            ("PMP", "utility", "regular")
        );
        let free = parse(&fixture("status-delivered.json")).unwrap();
        assert!(!free.statuses[0].pricing.as_ref().unwrap().billable);
    }

    #[test]
    fn a_number_change_names_the_new_number_and_the_new_business_scoped_id() {
        let inbound = parse(&fixture("inbound-system-user-changed-number-bsuid.json")).unwrap();
        let notice = inbound.messages[0].system.clone().unwrap();
        assert_eq!(notice.new_wa_id.as_deref(), Some("5511976543210"));
        assert_eq!(notice.new_user_id.as_deref(), Some("BR.9988776655443322"));
        assert_eq!(inbound.messages[0].from.user_id.as_deref(), Some("BR.2716354091827364"));
    }

    #[test]
    fn business_scoped_ids_follow_meta_s_format() {
        assert!(bsuid("BR.1502576394655843").is_some());
        assert!(bsuid("US.ENT.11815799212886844830").is_some());
        for bad in
            ["", "5511987654321", "br.123", "BRA.123", "BR.", "BR.12-3", &format!("BR.{}", "1".repeat(129))]
        {
            assert_eq!(bsuid(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_tapped_reply_keeps_its_id() {
        let inbound = parse(&fixture("inbound-image-and-button.json")).unwrap();
        assert!(inbound.messages[1].choice_id.is_some());
    }
}
