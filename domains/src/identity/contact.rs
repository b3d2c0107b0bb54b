//! What WhatsApp shows of a person: a phone number, a business-scoped user id (BSUID), or both,
//! and a username when they adopted one (Meta's "Business-scoped user IDs" page). A person is one
//! account whatever of these a delivery carries: `users::register_contact` finds them by the
//! BSUID or by the phone's key, and fills in what the account did not know yet.

use crate::whatsapp::payload::{self, Sender};

use super::phone::PhoneNumber;

/// A business-scoped user id as Meta writes it (`BR.1502576394655843`): stable for our business,
/// new when the person changes number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bsuid(String);

impl Bsuid {
    pub fn parse(text: &str) -> Option<Self> {
        payload::bsuid(text).map(Self)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A WhatsApp identity as delivered: at least one of phone and BSUID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contact {
    pub phone: Option<PhoneNumber>,
    pub bsuid: Option<Bsuid>,
    pub username: Option<String>,
}

impl Contact {
    /// The sender of a delivered message; None when it names neither a valid number nor a BSUID.
    pub fn from_sender(sender: &Sender) -> Option<Self> {
        let phone = sender.wa_id.as_deref().and_then(|w| PhoneNumber::from_wa_id(w).ok());
        let bsuid = sender.user_id.as_deref().and_then(Bsuid::parse);
        let username = sender.username.as_deref().map(clean_username).filter(|u| !u.is_empty());
        (phone.is_some() || bsuid.is_some()).then_some(Self { phone, bsuid, username })
    }

    /// Someone known only by a phone number (typed, or an older delivery).
    pub fn phone(phone: PhoneNumber) -> Self {
        Self { phone: Some(phone), bsuid: None, username: None }
    }

    /// For logs: the masked number, else the BSUID's country.
    pub fn masked(&self) -> String {
        match (&self.phone, &self.bsuid) {
            (Some(phone), _) => phone.masked(),
            (None, Some(bsuid)) => format!("{}.…", bsuid.as_str().split('.').next().unwrap_or_default()),
            (None, None) => String::new(),
        }
    }
}

/// A username as people write it: `@` first, no spaces or control characters, at most 64
/// characters.
pub fn clean_username(raw: &str) -> String {
    let bare: String = raw
        .trim()
        .trim_start_matches('@')
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .take(63)
        .collect();
    if bare.is_empty() { bare } else { format!("@{bare}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sender_is_a_contact_when_it_names_a_number_or_a_business_scoped_id() {
        let bia =
            Sender { wa_id: None, user_id: Some("BR.15025".into()), username: Some("bia.doces".into()) };
        let contact = Contact::from_sender(&bia).unwrap();
        assert_eq!((contact.phone, contact.username.as_deref()), (None, Some("@bia.doces")));
        assert!(Contact::from_sender(&Sender::default()).is_none());
        let invalid = Sender { wa_id: Some("12".into()), user_id: Some("nope".into()), username: None };
        assert!(Contact::from_sender(&invalid).is_none());
    }
}
