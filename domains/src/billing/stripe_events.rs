//! Stripe's webhook events, parsed into what billing acts on and handled here. Events can repeat
//! and arrive in any order (<https://docs.stripe.com/webhooks#event-ordering>): the first invoice's
//! `invoice.paid` often comes before `checkout.session.completed`
//! (<https://docs.stripe.com/billing/subscriptions/webhooks>), so the session's completion re-reads
//! the session from Stripe with its subscription and first invoice, and an invoice for a
//! subscription not known yet changes nothing.

use serde_json::Value as Json;

use super::{
    checkout, renewals,
    stripe::{PaidSession, StripeClient, StripeError},
    subscriptions::ProviderIds,
};
use crate::{db::Db, error::AppError};

/// What one event asks of billing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StripeEvent {
    /// A Checkout Session finished (or its boleto was paid later): re-read it and activate if paid.
    SessionCompleted { session: String },
    /// A Checkout Session expired or its delayed payment failed: ours closes unpaid.
    SessionFailed { ours: String },
    /// An invoice of a subscription was paid, for the period ending then (Unix ms).
    InvoicePaid { subscription: String, period_end: Option<i64> },
    /// A renewal could not be charged.
    InvoicePaymentFailed { subscription: String },
    /// The subscription ended at Stripe (cancelled at period end, or unpaid).
    SubscriptionEnded { subscription: String },
    /// Stripe marked the subscription past due.
    SubscriptionPastDue { subscription: String },
    /// Anything else: acknowledged, nothing to do.
    Ignored,
}

impl StripeEvent {
    /// Reads an event's `type` and `data.object`.
    pub fn parse(event: &Json) -> Self {
        let object = &event["data"]["object"];
        let text = |v: &Json| v.as_str().filter(|s| !s.is_empty()).map(str::to_owned);
        // `invoice.subscription` in the pinned API version; newer ones moved it under `parent`.
        let invoice_subscription = || {
            text(&object["subscription"])
                .or_else(|| text(&object["subscription"]["id"]))
                .or_else(|| text(&object["parent"]["subscription_details"]["subscription"]))
        };
        match event["type"].as_str().unwrap_or_default() {
            "checkout.session.completed" | "checkout.session.async_payment_succeeded" => text(&object["id"])
                .map(|session| StripeEvent::SessionCompleted { session })
                .unwrap_or(StripeEvent::Ignored),
            "checkout.session.expired" | "checkout.session.async_payment_failed" => {
                text(&object["client_reference_id"])
                    .map(|ours| StripeEvent::SessionFailed { ours })
                    .unwrap_or(StripeEvent::Ignored)
            }
            "invoice.paid" => invoice_subscription()
                .map(|subscription| StripeEvent::InvoicePaid {
                    subscription,
                    period_end: object["lines"]["data"][0]["period"]["end"].as_i64().map(|s| s * 1000),
                })
                .unwrap_or(StripeEvent::Ignored),
            "invoice.payment_failed" => invoice_subscription()
                .map(|subscription| StripeEvent::InvoicePaymentFailed { subscription })
                .unwrap_or(StripeEvent::Ignored),
            "customer.subscription.deleted" => text(&object["id"])
                .map(|subscription| StripeEvent::SubscriptionEnded { subscription })
                .unwrap_or(StripeEvent::Ignored),
            "customer.subscription.updated" => match (object["status"].as_str(), text(&object["id"])) {
                (Some("past_due"), Some(subscription)) => StripeEvent::SubscriptionPastDue { subscription },
                (Some("canceled" | "unpaid"), Some(subscription)) => {
                    StripeEvent::SubscriptionEnded { subscription }
                }
                _ => StripeEvent::Ignored,
            },
            _ => StripeEvent::Ignored,
        }
    }
}

/// Why an event could not be handled now (Stripe delivers it again).
#[derive(Debug, thiserror::Error)]
pub enum HandlingError {
    #[error(transparent)]
    Stripe(#[from] StripeError),
    #[error(transparent)]
    App(#[from] AppError),
}

/// Carries out one event. `fix_payment_url` is where a person whose renewal failed is sent.
pub(in crate::billing) async fn handle(
    db: &Db,
    stripe: &StripeClient,
    event: &StripeEvent,
    fix_payment_url: &str,
) -> Result<(), HandlingError> {
    match event {
        StripeEvent::SessionCompleted { session } => {
            let session: PaidSession = stripe.checkout_session(session).await?;
            if session.paid && !session.ours.is_empty() {
                let ids = ProviderIds {
                    customer: session.customer.clone(),
                    subscription: session.subscription.clone(),
                    payment: session.payment.clone(),
                    receipt: session.receipt.clone(),
                };
                checkout::complete_session(db, &session.ours, true, &ids).await?;
            }
        }
        StripeEvent::SessionFailed { ours } => {
            checkout::complete_session(db, ours, false, &ProviderIds::default()).await?;
        }
        StripeEvent::InvoicePaid { subscription, period_end } => {
            renewals::renewed(db, subscription, *period_end).await?
        }
        StripeEvent::InvoicePaymentFailed { subscription }
        | StripeEvent::SubscriptionPastDue { subscription } => {
            renewals::payment_failed(db, subscription, fix_payment_url).await?
        }
        StripeEvent::SubscriptionEnded { subscription } => {
            renewals::ended_by_provider(db, subscription).await?
        }
        StripeEvent::Ignored => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fixture(name: &str) -> Json {
        let path = format!("{}/../server/tests/fixtures/stripe/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
    }

    #[test]
    fn recorded_events_parse_into_what_billing_does() {
        assert_eq!(
            StripeEvent::parse(&fixture("checkout.session.completed.json")),
            StripeEvent::SessionCompleted {
                session: fixture("checkout.session.completed.json")["data"]["object"]["id"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            }
        );
        assert!(matches!(
            StripeEvent::parse(&fixture("invoice.payment_failed.json")),
            StripeEvent::InvoicePaymentFailed { .. }
        ));
    }

    #[test]
    fn an_invoice_names_its_subscription_in_the_old_place_or_under_parent() {
        let old = json!({"type": "invoice.paid", "data": {"object": {"subscription": "sub_1",
            "lines": {"data": [{"period": {"end": 1_800_000_000}}]}}}});
        assert_eq!(
            StripeEvent::parse(&old),
            StripeEvent::InvoicePaid { subscription: "sub_1".into(), period_end: Some(1_800_000_000_000) }
        );
        let basil = json!({"type": "invoice.paid", "data": {"object": {"subscription": null,
            "parent": {"subscription_details": {"subscription": "sub_2"}}}}});
        assert_eq!(
            StripeEvent::parse(&basil),
            StripeEvent::InvoicePaid { subscription: "sub_2".into(), period_end: None }
        );
        let one_off = json!({"type": "invoice.paid", "data": {"object": {"subscription": null}}});
        assert_eq!(StripeEvent::parse(&one_off), StripeEvent::Ignored);
        assert_eq!(StripeEvent::parse(&json!({"type": "some.future.event"})), StripeEvent::Ignored);
    }
}

/// What came of one delivery of Stripe's webhook.
#[derive(Debug)]
pub enum EventOutcome {
    /// The signature is missing, stale or not Stripe's: refused, nothing read.
    BadSignature,
    /// Signed, but not an event.
    Malformed,
    /// Handled before: acknowledged, nothing done again.
    AlreadyHandled,
    /// Handled now (and recorded, so a repeat changes nothing).
    Handled,
    /// Whether it was handled could not be read; Stripe retries.
    Unavailable(AppError),
    /// Could not be handled now; Stripe retries.
    Failed { kind: String, error: HandlingError },
}

/// Stripe's webhook as a service: a signed delivery handled once, its objects re-fetched before
/// acting. The webhook adapter holds no database.
#[derive(Clone)]
pub struct StripeWebhooks {
    db: Db,
    stripe: StripeClient,
    /// Where a person whose renewal failed is sent.
    fix_payment_url: String,
}

impl StripeWebhooks {
    pub fn new(db: Db, stripe: StripeClient, public_url: &str) -> Self {
        Self { db, stripe, fix_payment_url: format!("{public_url}/dashboard") }
    }

    /// Checks the delivery's `Stripe-Signature` against its body, then handles its event once.
    pub async fn deliver(&self, body: &[u8], signature: Option<&str>) -> EventOutcome {
        let now_secs = self.db.now_ms() / 1000;
        if !super::stripe::verify_signature(self.stripe.webhook_secret(), body, signature, now_secs) {
            return EventOutcome::BadSignature;
        }
        let Ok(event) = serde_json::from_slice::<Json>(body) else { return EventOutcome::Malformed };
        let (id, kind) =
            (event["id"].as_str().unwrap_or_default(), event["type"].as_str().unwrap_or_default());
        match renewals::seen_event(&self.db, "stripe", id).await {
            Ok(true) => return EventOutcome::AlreadyHandled,
            Ok(false) => {}
            Err(err) => return EventOutcome::Unavailable(err),
        }
        if let Err(error) =
            handle(&self.db, &self.stripe, &StripeEvent::parse(&event), &self.fix_payment_url).await
        {
            return EventOutcome::Failed { kind: kind.to_owned(), error };
        }
        if let Err(err) = renewals::record_event(&self.db, "stripe", id, kind).await {
            tracing::warn!(error = %err, "a handled Stripe event could not be recorded");
        }
        EventOutcome::Handled
    }
}
