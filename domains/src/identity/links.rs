//! Links that name a person without their number: an opaque token, signed with the server's key
//! and valid for a week, so that the checkout link the consultant sends works for someone WhatsApp
//! shows only by username (`/checkout?link=<token>`). The token is the person's id, its expiry and
//! an HMAC-SHA256 of both (truncated to 128 bits), in base64url: it cannot be forged or extended,
//! and it names nobody once the account is erased. People with a visible number keep
//! `/checkout/{phoneNumber}`.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::users::User;
use crate::config::Secret;

/// How long a link keeps working.
pub const LINK_TTL_MS: i64 = 7 * 24 * 60 * 60 * 1000;

const MAC_BYTES: usize = 16;

#[derive(Clone)]
pub struct LinkKeys {
    key: Vec<u8>,
}

impl std::fmt::Debug for LinkKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LinkKeys(…)")
    }
}

impl LinkKeys {
    /// A key of its own, derived from the server's secret (so a link is never a valid token
    /// anywhere else).
    pub fn new(secret: &Secret) -> Self {
        Self { key: secret.purpose_key("socio links v1") }
    }

    fn mac(&self, payload: &[u8]) -> Vec<u8> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        mac.update(payload);
        mac.finalize().into_bytes()[..MAC_BYTES].to_vec()
    }

    /// A token naming `user_id` until `expires_at` (Unix ms).
    pub fn sign(&self, user_id: &str, expires_at: i64) -> String {
        let mut payload = expires_at.to_be_bytes().to_vec();
        payload.extend_from_slice(user_id.as_bytes());
        let mac = self.mac(&payload);
        payload.extend_from_slice(&mac);
        URL_SAFE_NO_PAD.encode(payload)
    }

    /// A person's checkout page, signed for them for a week from `now`: `/checkout/{digits}?link=…`
    /// for someone with a number (the page shows the number; the link says it is the person
    /// themselves asking, so nobody else's asks by number hold them back), else
    /// `/checkout?link=<token>`.
    pub fn checkout_url(&self, public_url: &str, user: &User, now: i64) -> String {
        let base = public_url.trim_end_matches('/');
        let link = self.sign(&user.id, now + LINK_TTL_MS);
        match &user.phone {
            Some(phone) => format!("{base}/checkout/{}?link={link}", phone.digits()),
            None => format!("{base}/checkout?link={link}"),
        }
    }

    /// A person's checkout page to come back to (Stripe's cancel page): `/checkout/{digits}` for
    /// someone with a number, unsigned — it stays with the provider — else the signed link.
    pub fn checkout_page(&self, public_url: &str, user: &User, now: i64) -> String {
        let base = public_url.trim_end_matches('/');
        match &user.phone {
            Some(phone) => format!("{base}/checkout/{}", phone.digits()),
            None => self.checkout_url(public_url, user, now),
        }
    }

    /// The person a token names, while it is valid at `now`.
    pub fn verify(&self, token: &str, now: i64) -> Option<String> {
        if token.len() > 200 {
            return None;
        }
        let bytes = URL_SAFE_NO_PAD.decode(token.trim()).ok()?;
        if bytes.len() <= 8 + MAC_BYTES {
            return None;
        }
        let (payload, mac) = bytes.split_at(bytes.len() - MAC_BYTES);
        // Compared in constant time by the MAC itself, as the codes and the exports are.
        let mut check = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        check.update(payload);
        let same = check.verify_truncated_left(mac).is_ok();
        let expires_at = i64::from_be_bytes(payload[..8].try_into().ok()?);
        let user_id = std::str::from_utf8(&payload[8..]).ok()?;
        (same && now < expires_at).then(|| user_id.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> LinkKeys {
        LinkKeys::new(&Secret::new("a test secret that is long enough to use"))
    }

    #[test]
    fn a_link_names_its_person_until_it_expires() {
        let token = keys().sign("user-1", 1_000);
        assert_eq!(keys().verify(&token, 999).as_deref(), Some("user-1"));
        assert_eq!(keys().verify(&token, 1_000), None);
    }

    #[test]
    fn a_link_cannot_be_forged_or_extended() {
        let token = keys().sign("user-1", 1_000);
        let mut bytes = URL_SAFE_NO_PAD.decode(&token).unwrap();
        bytes[0] ^= 1; // another expiry
        assert_eq!(keys().verify(&URL_SAFE_NO_PAD.encode(&bytes), 0), None);
        let other = LinkKeys::new(&Secret::new("another secret, also long enough to use"));
        assert_eq!(other.verify(&token, 0), None);
        for junk in ["", "x", "%%%", &"A".repeat(300)] {
            assert_eq!(keys().verify(junk, 0), None);
        }
    }
}
