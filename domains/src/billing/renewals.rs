//! A subscription's life after its checkout, as the provider and the clock tell it: renewed (active
//! again until the invoice's period ends), a renewal's payment failed (past due, and the person is
//! told how to fix it on WhatsApp), ended by the provider, or expired once a cancelled period is
//! over — each moving the person's tier in the same transaction. Each provider event is handled
//! once (`billing_events`).

use sqlx::{AnyConnection, Row};

use super::subscriptions::Interval;
use crate::{
    db::{Db, jobs},
    error::AppError,
    identity::users::{Tier, Users},
    whatsapp::notices,
};

/// Ends a subscription whose paid period is over after a cancellation (the expiry job).
pub(in crate::billing) async fn expire(db: &Db, subscription_id: &str) -> Result<(), AppError> {
    let mut tx = db.begin().await?;
    let now = db.now_ms();
    let update = sqlx::query(
        "update subscriptions set status = 'canceled', updated_at = $1 where id = $2 and status <> 'canceled' \
         and cancel_at_period_end = $3 and current_period_end <= $1 returning user_id",
    )
    .bind(now)
    .bind(subscription_id)
    .bind(true);
    let user_id = changed_user(&mut tx, update).await?;
    if let Some(user_id) = user_id {
        Users::new(db.clone()).set_tier_in(&mut tx, &user_id, Tier::Free).await?;
    }
    Ok(tx.commit().await?)
}

/// True when this provider event was handled before (replays are no-ops).
pub(in crate::billing) async fn seen_event(
    db: &Db,
    provider: &str,
    event_id: &str,
) -> Result<bool, AppError> {
    let row = sqlx::query("select 1 as seen from billing_events where provider = $1 and event_id = $2")
        .bind(provider)
        .bind(event_id)
        .fetch_optional(db.pool())
        .await?;
    Ok(row.is_some())
}

/// Remembers a handled provider event.
pub(in crate::billing) async fn record_event(
    db: &Db,
    provider: &str,
    event_id: &str,
    kind: &str,
) -> Result<(), AppError> {
    sqlx::query(
        "insert into billing_events (provider, event_id, kind, received_at) values ($1, $2, $3, $4) \
         on conflict (provider, event_id) do nothing",
    )
    .bind(provider)
    .bind(event_id)
    .bind(kind)
    .bind(db.now_ms())
    .execute(&mut *db.writer().await?)
    .await?;
    Ok(())
}

/// A renewal failed: past due, and the user is told how to fix it on WhatsApp.
pub(in crate::billing) async fn payment_failed(
    db: &Db,
    provider_subscription_id: &str,
    fix_url: &str,
) -> Result<(), AppError> {
    let mut tx = db.begin().await?;
    let now = db.now_ms();
    let update = sqlx::query(
        "update subscriptions set status = 'past_due', updated_at = $1 where provider_subscription_id = $2 \
         and status = 'active' returning user_id",
    )
    .bind(now)
    .bind(provider_subscription_id);
    let user_id = changed_user(&mut tx, update).await?;
    if let Some(user_id) = user_id
        && let Some(user) = Users::new(db.clone()).find_in(&mut tx, &user_id).await?
    {
        let text = say!(user.language, "billing-renewals-we-could-not-renew-your", fix_url);
        jobs::enqueue(&mut tx, notices::notice_job(&user_id, &text, now)).await?;
    }
    Ok(tx.commit().await?)
}

/// An invoice of the subscription was paid: active (again) until `period_end` (the invoice's
/// period; a month from now when Stripe gave none). An invoice for a subscription we do not know
/// yet — the first one, which Stripe may send before the checkout completes — changes nothing: the
/// checkout's completion reads the same invoice from Stripe.
pub(in crate::billing) async fn renewed(
    db: &Db,
    provider_subscription_id: &str,
    period_end: Option<i64>,
) -> Result<(), AppError> {
    let mut tx = db.begin().await?;
    let now = db.now_ms();
    let update = sqlx::query(
        "update subscriptions set status = 'active', current_period_end = $1, updated_at = $2 \
         where provider_subscription_id = $3 and status in ('active', 'past_due') returning user_id",
    )
    .bind(period_end.filter(|end| *end > now).unwrap_or(now + Interval::Monthly.period_ms()))
    .bind(now)
    .bind(provider_subscription_id);
    let user_id = changed_user(&mut tx, update).await?;
    if let Some(user_id) = user_id {
        Users::new(db.clone()).set_tier_in(&mut tx, &user_id, Tier::Pro).await?;
    }
    Ok(tx.commit().await?)
}

/// The provider ended the subscription: canceled, and the user is free.
pub(in crate::billing) async fn ended_by_provider(
    db: &Db,
    provider_subscription_id: &str,
) -> Result<(), AppError> {
    let mut tx = db.begin().await?;
    let update = sqlx::query(
        "update subscriptions set status = 'canceled', updated_at = $1 where provider_subscription_id = $2 \
         and status <> 'canceled' returning user_id",
    )
    .bind(db.now_ms())
    .bind(provider_subscription_id);
    let user_id = changed_user(&mut tx, update).await?;
    if let Some(user_id) = user_id {
        Users::new(db.clone()).set_tier_in(&mut tx, &user_id, Tier::Free).await?;
    }
    Ok(tx.commit().await?)
}

/// Runs an update of subscriptions that ends in `returning user_id`: the user whose subscription
/// changed, or none when no row matched (the event was stale or already applied).
async fn changed_user<'q>(
    conn: &mut AnyConnection,
    update: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
) -> Result<Option<String>, AppError> {
    Ok(update.fetch_optional(conn).await?.and_then(|r| r.try_get("user_id").ok()))
}
