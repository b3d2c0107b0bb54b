//! Who wrote: a delivery's `contacts` and a message's or status's sender read into one `Sender` —
//! the business-scoped user id (BSUID) Meta adds since April 2026, the phone number when there is
//! one, the username (`payload`'s documentation cites Meta's pages).

use serde_json::Value;

use super::*;

/// One entry of `contacts`: who the delivery is about.
pub(super) struct Contact {
    pub(super) wa_id: Option<String>,
    pub(super) user_id: Option<String>,
    pub(super) username: Option<String>,
    pub(super) name: String,
}

impl Contact {
    pub(super) fn read(raw: &Value) -> Self {
        Contact {
            wa_id: present(text_at(raw, &["wa_id"])),
            user_id: present(text_at(raw, &["user_id"])),
            username: present(text_at(raw, &["profile", "username"])),
            name: text_at(raw, &["profile", "name"]).to_owned(),
        }
    }
}

/// A phone's digits as WhatsApp writes them (`wa_id`), or nothing.
pub(super) fn wa_id(text: &str) -> Option<String> {
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
pub(super) fn sender(raw: &Value, contacts: &[Contact]) -> (Sender, String) {
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
