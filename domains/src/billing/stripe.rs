//! Stripe: Checkout Sessions over its API (form-encoded, idempotency keys) — subscription mode for
//! the monthly plan (card, boleto), payment mode for the yearly one (card, boleto, Pix) — refunds,
//! cancelling subscriptions, and the webhook's `Stripe-Signature` (HMAC-SHA256 of `t.body`, 300 s
//! tolerance, several `v1`).
//!
//! What Stripe documents and this module relies on:
//! - A Checkout Session in `subscription` mode has `payment_intent: null` ("The ID of the
//!   PaymentIntent for Checkout Sessions in `payment` mode",
//!   <https://docs.stripe.com/api/checkout/sessions/object#checkout_session_object-payment_intent>):
//!   the first payment belongs to the subscription's first invoice, read here as the session's
//!   `subscription.latest_invoice.payment_intent` (expanded,
//!   <https://docs.stripe.com/api/expanding_objects>; `invoice.payment_intent` exists in the API
//!   version pinned below, <https://docs.stripe.com/api/invoices/object?api-version=2024-06-20>).
//! - A subscription charges until it is cancelled at Stripe: `DELETE /v1/subscriptions/{id}` ends it
//!   now (<https://docs.stripe.com/api/subscriptions/cancel>); `POST /v1/subscriptions/{id}` with
//!   `cancel_at_period_end=true` ends it when the paid period does, with no further invoice, and
//!   `customer.subscription.deleted` follows then
//!   (<https://docs.stripe.com/billing/subscriptions/cancel>).
//! - Refunds: `POST /v1/refunds` with `payment_intent` (<https://docs.stripe.com/api/refunds/create>).
//! - Every POST carries an `Idempotency-Key`, so a retry after a timeout never refunds or cancels
//!   twice (<https://docs.stripe.com/api/idempotent_requests>); the API version is pinned with
//!   `Stripe-Version` (<https://docs.stripe.com/api/versioning>).

use std::time::Duration;

use hmac::{Hmac, Mac};
use serde_json::Value as Json;
use sha2::Sha256;

use super::{checkout::CheckoutSession, subscriptions::Interval};
use crate::{config::StripeConfig, error::AppError};

const TOLERANCE_S: i64 = 300;

/// The API version whose object shapes this module reads.
pub const API_VERSION: &str = "2024-06-20";

/// Why a call to Stripe did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StripeError {
    /// Stripe answered and said no (a 4xx): retrying the same request will not help.
    #[error("Stripe refused: {0}")]
    Refused(String),
    /// Stripe could not be reached, timed out or failed (5xx, 429): safe to retry.
    #[error("Stripe is unavailable: {0}")]
    Unavailable(String),
}

impl From<reqwest::Error> for StripeError {
    fn from(err: reqwest::Error) -> Self {
        StripeError::Unavailable(err.to_string())
    }
}

impl From<StripeError> for AppError {
    fn from(err: StripeError) -> Self {
        match err {
            StripeError::Refused(why) => AppError::PaymentsRefused(why),
            StripeError::Unavailable(why) => AppError::PaymentsUnavailable(why),
        }
    }
}

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
    ) -> Result<Json, StripeError> {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.config.api_url))
            .basic_auth(self.config.secret_key.expose(), Some(""))
            .header("Stripe-Version", API_VERSION);
        if !form.is_empty() {
            request = request.form(form);
        }
        if let Some(key) = idempotency {
            request = request.header("Idempotency-Key", key);
        }
        let response = request.send().await?;
        let status = response.status();
        let body: Json = response.json().await.unwrap_or(Json::Null);
        if status.is_success() {
            return Ok(body);
        }
        let why = format!(
            "{status} {}: {}",
            body["error"]["code"].as_str().unwrap_or_default(),
            body["error"]["message"].as_str().unwrap_or_default()
        );
        if status.is_server_error() || status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            Err(StripeError::Unavailable(why))
        } else {
            Err(StripeError::Refused(why))
        }
    }

    fn checked_id(id: &str) -> Result<&str, StripeError> {
        if !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            Ok(id)
        } else {
            Err(StripeError::Refused(format!("{id:?} is not a Stripe id")))
        }
    }

    /// A Checkout Session for one of our sessions (its id is the idempotency key).
    pub async fn create_checkout(
        &self,
        session: &CheckoutSession,
        success_url: &str,
        cancel_url: &str,
    ) -> Result<Created, StripeError> {
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
        if session.interval == Interval::Monthly {
            // Copied onto the subscription, so its events name our session too.
            form.push(("subscription_data[metadata][checkout_session_id]".into(), session.id.clone()));
        }
        let body =
            self.call(reqwest::Method::POST, "/v1/checkout/sessions", &form, Some(&session.id)).await?;
        Ok(Created {
            id: body["id"].as_str().unwrap_or_default().to_owned(),
            url: body["url"]
                .as_str()
                .ok_or_else(|| StripeError::Unavailable("Stripe gave no checkout url".into()))?
                .to_owned(),
        })
    }

    /// The session as Stripe has it now (webhook payloads are re-fetched before acting), with its
    /// subscription and that subscription's first invoice expanded (payment mode: its payment and
    /// that payment's charge, for the receipt).
    pub async fn checkout_session(&self, id: &str) -> Result<PaidSession, StripeError> {
        let id = Self::checked_id(id)?;
        let path = format!(
            "/v1/checkout/sessions/{id}?expand[]=subscription.latest_invoice&expand[]=payment_intent.latest_charge"
        );
        let body = self.call(reqwest::Method::GET, &path, &[], None).await?;
        Ok(PaidSession::read(&body))
    }

    /// The payment of a subscription's latest invoice: within the guarantee, its first one.
    pub async fn latest_payment(&self, subscription: &str) -> Result<Option<String>, StripeError> {
        let subscription = Self::checked_id(subscription)?;
        let path = format!("/v1/subscriptions/{subscription}?expand[]=latest_invoice");
        let body = self.call(reqwest::Method::GET, &path, &[], None).await?;
        Ok(id_of(&body["latest_invoice"]["payment_intent"]))
    }

    /// How a payment was paid (`card`, `boleto`, `pix`), from its charge's
    /// `payment_method_details.type` (<https://docs.stripe.com/api/charges/object#charge_object-payment_method_details-type>),
    /// the PaymentIntent's `latest_charge` expanded; `None` before any charge.
    pub async fn payment_method(&self, payment_intent: &str) -> Result<Option<String>, StripeError> {
        let payment_intent = Self::checked_id(payment_intent)?;
        let path = format!("/v1/payment_intents/{payment_intent}?expand[]=latest_charge");
        let body = self.call(reqwest::Method::GET, &path, &[], None).await?;
        Ok(body["latest_charge"]["payment_method_details"]["type"].as_str().map(str::to_owned))
    }

    /// Refunds a payment in full. A payment refunded before (a retry after the idempotency key's
    /// 24 hours) counts as refunded.
    pub async fn refund(&self, payment_intent: &str) -> Result<(), StripeError> {
        let payment_intent = Self::checked_id(payment_intent)?;
        let form = vec![("payment_intent".to_owned(), payment_intent.to_owned())];
        let key = format!("refund-{payment_intent}");
        match self.call(reqwest::Method::POST, "/v1/refunds", &form, Some(&key)).await {
            Err(StripeError::Refused(why)) if why.contains("charge_already_refunded") => Ok(()),
            other => other.map(|_| ()),
        }
    }

    /// Ends a subscription now: no further invoice.
    pub async fn cancel_now(&self, subscription: &str) -> Result<(), StripeError> {
        let subscription = Self::checked_id(subscription)?;
        let key = format!("cancel-{subscription}");
        self.call(reqwest::Method::DELETE, &format!("/v1/subscriptions/{subscription}"), &[], Some(&key))
            .await
            .map(|_| ())
    }

    /// Ends a subscription when its paid period does: no further invoice, and
    /// `customer.subscription.deleted` then.
    pub async fn cancel_at_period_end(&self, subscription: &str) -> Result<(), StripeError> {
        let subscription = Self::checked_id(subscription)?;
        let form = vec![("cancel_at_period_end".to_owned(), "true".to_owned())];
        let key = format!("cancel-at-period-end-{subscription}");
        self.call(reqwest::Method::POST, &format!("/v1/subscriptions/{subscription}"), &form, Some(&key))
            .await
            .map(|_| ())
    }
}

/// An id where Stripe may put an id or the expanded object.
fn id_of(value: &Json) -> Option<String> {
    value.as_str().or_else(|| value["id"].as_str()).filter(|id| !id.is_empty()).map(str::to_owned)
}

/// What a Checkout Session says about its payment, read from Stripe's shape: `payment_intent` in
/// payment mode; in subscription mode `null`, the payment being the first invoice's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaidSession {
    pub id: String,
    /// Our checkout session (`client_reference_id`).
    pub ours: String,
    pub paid: bool,
    pub customer: Option<String>,
    pub subscription: Option<String>,
    /// The payment to refund within the guarantee.
    pub payment: Option<String>,
    /// Where the person sees the receipt: the first invoice's hosted page in subscription mode
    /// (`hosted_invoice_url`, null until the invoice is finalised,
    /// <https://docs.stripe.com/api/invoices/object#invoice_object-hosted_invoice_url>), the charge's
    /// `receipt_url` in payment mode ("the URL to view the receipt for this charge … kept up-to-date
    /// … including any refunds", <https://docs.stripe.com/api/charges/object#charge_object-receipt_url>,
    /// reached as `payment_intent.latest_charge`). Only an `https` address is kept: it becomes a link.
    pub receipt: Option<String>,
}

impl PaidSession {
    pub fn read(session: &Json) -> Self {
        let receipt = session["subscription"]["latest_invoice"]["hosted_invoice_url"]
            .as_str()
            .or_else(|| session["payment_intent"]["latest_charge"]["receipt_url"].as_str())
            .filter(|url| url.starts_with("https://") && !url.contains(char::is_whitespace))
            .map(str::to_owned);
        let payment = id_of(&session["payment_intent"])
            .or_else(|| id_of(&session["subscription"]["latest_invoice"]["payment_intent"]));
        Self {
            id: session["id"].as_str().unwrap_or_default().to_owned(),
            ours: session["client_reference_id"].as_str().unwrap_or_default().to_owned(),
            paid: session["payment_status"] == "paid",
            customer: id_of(&session["customer"]),
            subscription: id_of(&session["subscription"]),
            payment,
            receipt,
        }
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
    fn a_subscription_session_pays_through_its_first_invoice_and_a_payment_session_directly() {
        let monthly = serde_json::json!({"id": "cs_1", "client_reference_id": "ours", "payment_status": "paid",
            "customer": "cus_1", "payment_intent": null,
            "subscription": {"id": "sub_1", "latest_invoice": {"id": "in_1", "payment_intent": "pi_first"}}});
        let read = PaidSession::read(&monthly);
        assert_eq!(read.subscription.as_deref(), Some("sub_1"));
        assert_eq!(read.payment.as_deref(), Some("pi_first"));
        let yearly = serde_json::json!({"id": "cs_2", "payment_status": "paid", "payment_intent": "pi_y", "subscription": null});
        let read = PaidSession::read(&yearly);
        assert_eq!((read.subscription, read.payment.as_deref()), (None, Some("pi_y")));
        let unexpanded = serde_json::json!({"id": "cs_3", "payment_status": "unpaid", "payment_intent": null, "subscription": "sub_3"});
        let read = PaidSession::read(&unexpanded);
        assert_eq!((read.paid, read.subscription.as_deref(), read.payment), (false, Some("sub_3"), None));
    }

    #[test]
    fn the_receipt_is_the_first_invoice_s_page_or_the_charge_s_receipt_and_only_an_https_address() {
        let monthly = serde_json::json!({"id": "cs_1", "payment_intent": null, "subscription": {"id": "sub_1",
            "latest_invoice": {"id": "in_1", "hosted_invoice_url": "https://invoice.stripe.com/i/acct/in_1"}}});
        assert_eq!(
            PaidSession::read(&monthly).receipt.as_deref(),
            Some("https://invoice.stripe.com/i/acct/in_1")
        );
        let yearly = serde_json::json!({"id": "cs_2", "subscription": null, "payment_intent": {"id": "pi_2",
            "latest_charge": {"id": "ch_2", "receipt_url": "https://pay.stripe.com/receipts/payment/ch_2"}}});
        let read = PaidSession::read(&yearly);
        assert_eq!(read.receipt.as_deref(), Some("https://pay.stripe.com/receipts/payment/ch_2"));
        assert_eq!(read.payment.as_deref(), Some("pi_2"), "an expanded payment is still its id");
        let draft = serde_json::json!({"id": "cs_3", "subscription": {"id": "sub_3", "latest_invoice": {"id": "in_3", "hosted_invoice_url": null}}});
        assert_eq!(PaidSession::read(&draft).receipt, None, "not finalised yet");
        let odd = serde_json::json!({"id": "cs_4", "payment_intent": {"id": "pi_4", "latest_charge": {"receipt_url": "javascript:alert(1)"}}});
        assert_eq!(PaidSession::read(&odd).receipt, None);
    }

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
