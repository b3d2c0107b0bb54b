//! Stripe: Checkout Sessions over its API (form-encoded, idempotency keys) — subscription mode for
//! the monthly plan (card, boleto), payment mode for the yearly one (card, boleto, Pix) — refunds,
//! and the webhook's `Stripe-Signature` (HMAC-SHA256 of `t.body`, 300 s tolerance, several `v1`).

use std::time::Duration;

use hmac::{Hmac, Mac};
use serde_json::Value as Json;
use sha2::Sha256;

use super::subscriptions::{CheckoutSession, Interval};
use crate::config::StripeConfig;

const TOLERANCE_S: i64 = 300;

#[derive(Clone)]
pub struct StripeClient {
    http: reqwest::Client,
    config: StripeConfig,
}

/// What Stripe answered for a new Checkout Session.
pub struct Created {
    pub id: String,
    pub url: String,
}

impl StripeClient {
    pub fn new(config: StripeConfig) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(20))
            .build()?;
        Ok(Self { http, config })
    }

    pub fn webhook_secret(&self) -> &str {
        self.config.webhook_secret.expose()
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        form: &[(String, String)],
        idempotency: Option<&str>,
    ) -> anyhow::Result<Json> {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.config.api_url))
            .basic_auth(self.config.secret_key.expose(), Some(""));
        if !form.is_empty() {
            request = request.form(form);
        }
        if let Some(key) = idempotency {
            request = request.header("Idempotency-Key", key);
        }
        let response = request.send().await?;
        let status = response.status();
        let body: Json = response.json().await.unwrap_or(Json::Null);
        anyhow::ensure!(
            status.is_success(),
            "Stripe answered {status}: {}",
            body["error"]["message"].as_str().unwrap_or_default()
        );
        Ok(body)
    }

    /// A Checkout Session for one of our sessions (its id is the idempotency key).
    pub async fn create_checkout(
        &self,
        session: &CheckoutSession,
        success_url: &str,
        cancel_url: &str,
    ) -> anyhow::Result<Created> {
        let (mode, price, methods): (&str, &str, &[&str]) = match session.interval {
            Interval::Monthly => ("subscription", &self.config.price_pro_monthly, &["card", "boleto"]),
            Interval::Yearly => ("payment", &self.config.price_pro_yearly, &["card", "boleto", "pix"]),
        };
        let mut form: Vec<(String, String)> = vec![
            ("mode".into(), mode.into()),
            ("line_items[0][price]".into(), price.into()),
            ("line_items[0][quantity]".into(), "1".into()),
            ("client_reference_id".into(), session.id.clone()),
            ("metadata[checkout_session_id]".into(), session.id.clone()),
            ("metadata[user_id]".into(), session.user_id.clone().unwrap_or_default()),
            ("metadata[interval]".into(), session.interval.key().into()),
            ("success_url".into(), success_url.into()),
            ("cancel_url".into(), cancel_url.into()),
            ("locale".into(), "pt-BR".into()),
        ];
        for (i, method) in methods.iter().enumerate() {
            form.push((format!("payment_method_types[{i}]"), (*method).into()));
        }
        let body =
            self.call(reqwest::Method::POST, "/v1/checkout/sessions", &form, Some(&session.id)).await?;
        Ok(Created {
            id: body["id"].as_str().unwrap_or_default().to_owned(),
            url: body["url"]
                .as_str()
                .ok_or_else(|| anyhow::anyhow!("Stripe gave no checkout url"))?
                .to_owned(),
        })
    }

    /// The object as Stripe has it now (webhook payloads are re-fetched before acting).
    pub async fn checkout_session(&self, id: &str) -> anyhow::Result<Json> {
        anyhow::ensure!(id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "an invalid Stripe id");
        self.call(reqwest::Method::GET, &format!("/v1/checkout/sessions/{id}"), &[], None).await
    }

    pub async fn refund(&self, payment_intent: &str) -> anyhow::Result<()> {
        let form = vec![("payment_intent".to_owned(), payment_intent.to_owned())];
        self.call(reqwest::Method::POST, "/v1/refunds", &form, Some(&format!("refund-{payment_intent}")))
            .await
            .map(|_| ())
    }
}

/// True when `header` (`t=…,v1=…[,v1=…]`) signs `body` with `secret` within the tolerance.
pub fn verify_signature(secret: &str, body: &[u8], header: Option<&str>, now_s: i64) -> bool {
    let Some(header) = header else { return false };
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", sig)) => signatures.push(sig.to_owned()),
            _ => {}
        }
    }
    let Some(t) = timestamp else { return false };
    if (now_s - t).abs() > TOLERANCE_S {
        return false;
    }
    signatures.iter().any(|sig| {
        let Ok(expected) = hex::decode(sig) else { return false };
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else { return false };
        mac.update(t.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        mac.verify_slice(&expected).is_ok()
    })
}

/// The header Stripe would send (tests, tools).
pub fn sign(secret: &str, body: &[u8], t: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(t.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_hold_within_five_minutes_and_with_any_of_several_keys() {
        let body = br#"{"id":"evt_1"}"#;
        let header = sign("whsec_test", body, 1_000);
        assert!(verify_signature("whsec_test", body, Some(&header), 1_200));
        assert!(!verify_signature("whsec_test", body, Some(&header), 1_400), "stale");
        assert!(!verify_signature("whsec_other", body, Some(&header), 1_000));
        assert!(!verify_signature("whsec_test", b"{}", Some(&header), 1_000), "another body");
        let rotated =
            format!("{},v1={}", header.replace("v1=", "v1=00"), header.split("v1=").nth(1).unwrap());
        assert!(verify_signature("whsec_test", body, Some(&rotated), 1_000), "one good v1 among several");
        assert!(!verify_signature("whsec_test", body, None, 1_000));
    }
}
