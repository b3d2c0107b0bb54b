//! `X-Hub-Signature-256`: Meta signs each webhook body with the app secret (HMAC-SHA256, hex).
//! Verification runs over the raw bytes, in constant time.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// True when `header` is `sha256=<hex>` of `body` keyed with `secret`.
pub fn verify(secret: &[u8], body: &[u8], header: Option<&str>) -> bool {
    let Some(hex_digest) = header.and_then(|h| h.trim().strip_prefix("sha256=")) else {
        return false;
    };
    let Ok(expected) = hex::decode(hex_digest) else {
        return false;
    };
    let Ok(mut mac) = HmacSha256::new_from_slice(secret) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&expected).is_ok()
}

/// The header value Meta would send for `body`.
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// Compares two secrets without leaking where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (Ok(mut mac_a), Ok(mut mac_b)) =
        (HmacSha256::new_from_slice(b"compare"), HmacSha256::new_from_slice(b"compare"))
    else {
        return false;
    };
    mac_a.update(a.as_bytes());
    mac_b.update(b.as_bytes());
    mac_a.verify_slice(&mac_b.finalize().into_bytes()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_signed_with_the_app_secret_verifies() {
        let header = sign(b"app-secret", b"{\"object\":1}");
        assert!(verify(b"app-secret", b"{\"object\":1}", Some(&header)));
    }

    #[test]
    fn a_changed_body_another_secret_or_a_missing_header_does_not() {
        let header = sign(b"app-secret", b"body");
        assert!(!verify(b"app-secret", b"body!", Some(&header)));
        assert!(!verify(b"other", b"body", Some(&header)));
        assert!(!verify(b"app-secret", b"body", None));
        assert!(!verify(b"app-secret", b"body", Some("sha256=zz")));
        assert!(!verify(b"app-secret", b"body", Some(header.trim_start_matches("sha256="))));
    }

    #[test]
    fn secrets_compare_equal_only_when_identical() {
        assert!(same_secret("token", "token"));
        assert!(!same_secret("token", "token2"));
    }
}
