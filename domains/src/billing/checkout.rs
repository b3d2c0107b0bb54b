//! Checkout sessions: opening one for a person (or reopening the one still open), remembering the
//! provider's session, and completing it the way the provider's webhook (or the sandbox's page)
//! does — paid makes the person Pro in one transaction with their subscription and a Pro welcome on
//! WhatsApp; not paid closes it. What became of a session is what the page after paying shows.

use sqlx::{Row, any::AnyRow};

use super::subscriptions::{CancelWhen, Interval, ProviderIds, stop_running};
use crate::{
    db::{Db, Tx, jobs},
    error::{AppError, Resource},
    identity::users::{Tier, Users},
    whatsapp::notices,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckoutSession {
    pub id: String,
    pub user_id: Option<String>,
    pub interval: Interval,
    pub provider: String,
    pub amount_cents: i64,
    pub currency: String,
    /// open | paid | canceled
    pub status: String,
}

fn session_from(row: &AnyRow) -> Result<CheckoutSession, AppError> {
    Ok(CheckoutSession {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        interval: Interval::parse(&row.try_get::<String, _>("billing_interval")?),
        provider: row.try_get("provider")?,
        amount_cents: row.try_get("amount_cents")?,
        currency: row.try_get("currency")?,
        status: row.try_get("status")?,
    })
}

/// Opens a checkout session; `landing_variant` ("A" or "B") attributes a payment to the landing
/// page's variant for the admin's funnel.
pub(in crate::billing) async fn create_session(
    db: &Db,
    user_id: &str,
    interval: Interval,
    provider: &str,
    landing_variant: Option<&str>,
    opened_by: &str,
) -> Result<CheckoutSession, AppError> {
    let session = CheckoutSession {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: Some(user_id.to_owned()),
        interval,
        provider: provider.to_owned(),
        amount_cents: interval.amount_cents(),
        currency: "BRL".into(),
        status: "open".into(),
    };
    sqlx::query(
        "insert into checkout_sessions (id, user_id, plan_type, billing_interval, provider, amount_cents, currency, status, created_at, landing_variant, opened_by) \
         values ($1, $2, 'pro', $3, $4, $5, 'BRL', 'open', $6, $7, $8)",
    )
    .bind(&session.id)
    .bind(user_id)
    .bind(interval.key())
    .bind(provider)
    .bind(session.amount_cents)
    .bind(db.now_ms())
    .bind(landing_variant)
    .bind(opened_by)
    .execute(&mut *db.writer().await?)
    .await?;
    Ok(session)
}

/// Remembers the provider's id of a checkout session and the address the person pays at.
pub(in crate::billing) async fn set_provider_session(
    db: &Db,
    id: &str,
    provider_session_id: &str,
    checkout_url: &str,
) -> Result<(), AppError> {
    sqlx::query("update checkout_sessions set provider_session_id = $1, checkout_url = $2 where id = $3")
        .bind(provider_session_id)
        .bind(checkout_url)
        .bind(id)
        .execute(&mut *db.writer().await?)
        .await?;
    Ok(())
}

/// How long an open checkout is offered again rather than a new one created (Stripe's own
/// sessions stay payable for 24 hours).
pub const REOPEN_WITHIN_MS: i64 = 60 * 60 * 1000;

/// The user's newest checkout still open for this plan and provider, opened by the same requester
/// (`opened_by`) less than [`REOPEN_WITHIN_MS`] ago, with its provider address when it has one.
pub(in crate::billing) async fn open_session(
    db: &Db,
    user_id: &str,
    interval: Interval,
    provider: &str,
    opened_by: &str,
) -> Result<Option<(CheckoutSession, Option<String>)>, AppError> {
    let row = sqlx::query(
        "select id, user_id, billing_interval, provider, amount_cents, currency, status, checkout_url \
         from checkout_sessions where user_id = $1 and status = 'open' and billing_interval = $2 \
         and provider = $3 and created_at > $4 and opened_by = $5 order by created_at desc limit 1",
    )
    .bind(user_id)
    .bind(interval.key())
    .bind(provider)
    .bind(db.now_ms() - REOPEN_WITHIN_MS)
    .bind(opened_by)
    .fetch_optional(db.pool())
    .await?;
    row.map(|r| Ok((session_from(&r)?, r.try_get("checkout_url")?))).transpose()
}

pub(in crate::billing) async fn find_session(db: &Db, id: &str) -> Result<Option<CheckoutSession>, AppError> {
    let row = sqlx::query(
        "select id, user_id, billing_interval, provider, amount_cents, currency, status from checkout_sessions where id = $1",
    )
    .bind(id)
    .fetch_optional(db.pool())
    .await?;
    row.as_ref().map(session_from).transpose()
}

/// What became of a checkout: the session, when it was paid, the provider's receipt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub session: CheckoutSession,
    pub paid_at: Option<i64>,
    pub receipt_url: Option<String>,
}

/// The outcome of a checkout session, for the page a person lands on after paying.
pub(in crate::billing) async fn outcome(db: &Db, id: &str) -> Result<Option<Outcome>, AppError> {
    let row = sqlx::query(
        "select id, user_id, billing_interval, provider, amount_cents, currency, status, completed_at, receipt_url \
         from checkout_sessions where id = $1",
    )
    .bind(id)
    .fetch_optional(db.pool())
    .await?;
    let Some(row) = row else { return Ok(None) };
    let session = session_from(&row)?;
    let paid_at = if session.status == "paid" { row.try_get("completed_at")? } else { None };
    Ok(Some(Outcome { session, paid_at, receipt_url: row.try_get("receipt_url")? }))
}

/// Completes a checkout the way a provider's webhook does: paid activates Pro, not paid closes it.
/// A session completes once; a second completion changes nothing.
pub(in crate::billing) async fn complete_session(
    db: &Db,
    session_id: &str,
    paid: bool,
    provider: &ProviderIds,
) -> Result<CheckoutSession, AppError> {
    let mut tx = db.begin().await?;
    let now = db.now_ms();
    let closed = sqlx::query(
        "update checkout_sessions set status = $1, completed_at = $2, receipt_url = $3 where id = $4 and status = 'open'",
    )
    .bind(if paid { "paid" } else { "canceled" })
    .bind(now)
    .bind(provider.receipt.as_deref())
    .bind(session_id)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    let row = sqlx::query("select id, user_id, billing_interval, provider, amount_cents, currency, status from checkout_sessions where id = $1")
        .bind(session_id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(AppError::NotFound(Resource::CheckoutSession))?;
    let session = session_from(&row)?;
    if closed
        && paid
        && let Some(user_id) = &session.user_id
    {
        // A new period replaces whatever was running (monthly → yearly); a replaced Stripe
        // subscription ends at Stripe with the period already paid, never charging again.
        stop_running(&mut tx, user_id, now, CancelWhen::PeriodEnd).await?;
        sqlx::query(
            "insert into subscriptions (id, user_id, plan_type, billing_interval, provider, provider_customer_id, \
             provider_subscription_id, provider_payment_id, status, current_period_end, cancel_at_period_end, first_paid_at, \
             amount_cents, source, created_at, updated_at) \
             values ($1, $2, 'pro', $3, $4, $5, $6, $7, 'active', $8, $9, $10, $11, 'checkout', $10, $10)",
        )
        .bind(uuid::Uuid::new_v4().to_string())
        .bind(user_id)
        .bind(session.interval.key())
        .bind(&session.provider)
        .bind(provider.customer.as_deref())
        .bind(provider.subscription.as_deref())
        .bind(provider.payment.as_deref())
        .bind(now + session.interval.period_ms())
        .bind(false)
        .bind(now)
        .bind(session.amount_cents)
        .execute(&mut *tx)
        .await?;
        let users = Users::new(db.clone());
        users.set_tier_in(&mut tx, user_id, Tier::Pro).await?;
        welcome_to_pro(&users, &mut tx, user_id, now).await?;
        tracing::info!(user = %user_id, "a checkout was paid: the user is Pro");
    }
    tx.commit().await?;
    Ok(CheckoutSession {
        status: if closed { (if paid { "paid" } else { "canceled" }).into() } else { session.status.clone() },
        ..session
    })
}

async fn welcome_to_pro(users: &Users, conn: &mut Tx, user_id: &str, now: i64) -> Result<(), AppError> {
    let Some(user) = users.find_in(conn, user_id).await? else { return Ok(()) };
    let name = user.first_name().map(|n| format!(", {n}")).unwrap_or_default();
    let text = say!(user.language, "billing-checkout-welcome-to-s-cio-pro", name);
    jobs::enqueue(conn, notices::notice_job(user_id, &text, now)).await?;
    Ok(())
}
