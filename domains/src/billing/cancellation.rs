//! Cancelling a subscription, at the provider first and only then here: within the 7-day guarantee
//! the first payment is refunded and a recurring subscription ended at once (the person is free and
//! told "refunded" only after both) — a boleto, which Stripe cannot refund, is ended at once and
//! refunded by Pix by hand (`manual_refunds`); later, a recurring subscription is set to end with its paid
//! period (no further invoice) and the person stays Pro until the provider says it ended. If the
//! provider refuses or cannot be reached, the error says so and nothing changes here; every call
//! carries an idempotency key, so trying again is safe.

use futures::future::BoxFuture;

use super::{
    manual_refunds::REFUND_BUSINESS_DAYS,
    stripe::{StripeClient, StripeError},
    subscriptions::{self, CancelWhen, Ending, ProviderCancelJob, Subscription},
};
use crate::{
    db::{
        Db,
        jobs::{Job, JobError, RunsJob},
    },
    error::{AppError, Resource},
};

/// What became of the money when a subscription was cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refund {
    /// Outside the guarantee: nothing is returned; Pro until the period ends.
    None,
    /// Refunded by the provider.
    Refunded,
    /// A boleto: to be refunded by Pix within `business_days` of the person's key.
    ByPix { amount_cents: i64, business_days: u32 },
}

/// Cancels the user's running subscription, saying what became of the payment.
pub(in crate::billing) async fn cancel(
    db: &Db,
    stripe: Option<&StripeClient>,
    user_id: &str,
) -> Result<(Subscription, Refund), AppError> {
    let mut conn = db.pool().acquire().await?;
    let running = subscriptions::current(&mut conn, user_id)
        .await?
        .filter(|s| s.status != "canceled")
        .ok_or(AppError::NotFound(Resource::Subscription))?;
    drop(conn);
    let refund = running.refundable(db.now_ms());
    let ending = match running.provider.as_str() {
        "stripe" => {
            let stripe =
                stripe.ok_or_else(|| AppError::PaymentsUnavailable("Stripe is not configured".into()))?;
            let ids = subscriptions::provider_ids(db, &running.id).await?;
            if refund {
                let payment = match (&ids.payment, &ids.subscription) {
                    (Some(payment), _) => Some(payment.clone()),
                    (None, Some(subscription)) => stripe.latest_payment(subscription).await?,
                    (None, None) => None,
                };
                let payment =
                    payment.ok_or_else(|| AppError::PaymentsRefused("no payment to refund".into()))?;
                // Stripe refunds no boleto: ended now, refunded by Pix by hand.
                let boleto = stripe.payment_method(&payment).await?.as_deref() == Some("boleto");
                if !boleto {
                    stripe.refund(&payment).await?;
                }
                if let Some(subscription) = &ids.subscription {
                    stripe.cancel_now(subscription).await?;
                }
                if boleto {
                    tracing::info!(user = %user_id, "a boleto cancelled under the guarantee: to refund by Pix");
                    Ending::RefundByPix { amount_cents: running.interval.amount_cents(), paid_with: "boleto" }
                } else {
                    tracing::info!(user = %user_id, "refunded under the guarantee and cancelled at Stripe");
                    Ending::Refunded
                }
            } else if let Some(subscription) = &ids.subscription {
                stripe.cancel_at_period_end(subscription).await?;
                Ending::AtPeriodEnd { provider_ends_it: true }
            } else {
                Ending::AtPeriodEnd { provider_ends_it: false }
            }
        }
        // The sandbox has nothing to refund or cancel; an admin's Pro has no payment.
        _ if refund => Ending::Refunded,
        _ => Ending::AtPeriodEnd { provider_ends_it: false },
    };
    let after = subscriptions::cancel(db, user_id, &running.id, ending).await?;
    let refund = match ending {
        Ending::Refunded => Refund::Refunded,
        Ending::RefundByPix { amount_cents, .. } => {
            Refund::ByPix { amount_cents, business_days: REFUND_BUSINESS_DAYS }
        }
        Ending::AtPeriodEnd { .. } => Refund::None,
    };
    Ok((after, refund))
}

/// The job (`subscriptions::ProviderCancelJob`) that ends a subscription at Stripe when it
/// stopped here without the person asking Stripe (replaced by a newer plan, an admin's Free,
/// erasure).
pub struct ProviderCancelHandler {
    stripe: Option<StripeClient>,
}

impl ProviderCancelHandler {
    pub fn new(stripe: Option<StripeClient>) -> Self {
        Self { stripe }
    }
}

impl RunsJob<ProviderCancelJob> for ProviderCancelHandler {
    fn run<'a>(
        &'a self,
        _job: &'a Job,
        ProviderCancelJob { subscription, when }: ProviderCancelJob,
    ) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(async move {
            let subscription = subscription.as_str();
            let stripe = self.stripe.as_ref().ok_or_else(|| {
                JobError::Permanent(format!(
                    "Stripe is not configured: {subscription} was not cancelled there"
                ))
            })?;
            let done = match when {
                CancelWhen::PeriodEnd => stripe.cancel_at_period_end(subscription).await,
                CancelWhen::Now => stripe.cancel_now(subscription).await,
            };
            done.map_err(|err| match err {
                StripeError::Unavailable(why) => JobError::Retryable(why),
                StripeError::Refused(why) => JobError::Permanent(why),
            })
        })
    }
}
