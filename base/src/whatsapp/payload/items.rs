//! One item of a delivery at a time: a message of any type (kept as `unsupported` when its shape
//! is not one we know, so nothing a user sent is lost), a tapped button or list row, a change of
//! marketing preference, a sent message's status with what it cost.

use serde_json::Value;

use super::*;

/// One message. None only when nobody can be named as its sender; a message whose id or content
/// cannot be read is kept as `unsupported` with its raw JSON.
pub(super) fn message(raw: Value, contacts: &[Contact]) -> Option<InboundMessage> {
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
pub(super) fn tapped(raw: &Value) -> &Value {
    raw.get("interactive")
        .and_then(|i| i.get("button_reply").or_else(|| i.get("list_reply")))
        .unwrap_or(&Value::Null)
}

/// A stable id for a message that came without a readable one: a repeated delivery of the same
/// JSON gets the same id, so it is still kept once.
pub(super) fn unread_id(raw: &Value) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(raw.to_string().as_bytes());
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("unread.{hex}")
}

/// One `user_preferences[]` item about marketing messages; others (and unknown values) are nothing.
pub(super) fn preference(raw: &Value) -> Option<PreferenceChange> {
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

pub(super) fn status(raw: &Value) -> Option<StatusUpdate> {
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
