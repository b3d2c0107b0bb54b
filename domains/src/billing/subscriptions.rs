//! Subscriptions: checkout sessions, and the subscription's life — active after payment, past due
//! when a renewal fails, canceled. A user is Pro while an active (or still paid) period exists.
//! Cancelling within 7 days of the first payment is the money-back guarantee: refunded and free at
//! once; later, the subscription ends with its period. Every activation sends a Pro welcome on
//! WhatsApp. Whenever a paid Stripe subscription stops here without the person asking Stripe (a
//! newer plan replaced it, an admin made them free, their data was erased), a job cancels it at
//! Stripe in the same transaction, so nobody is charged for what they no longer have.

use sqlx::{AnyConnection, Row, any::AnyRow};

use super::plans::{GUARANTEE_DAYS, PRO_MONTHLY_CENTS, PRO_YEARLY_CENTS};
use crate::{
    clock::DAY_MS,
    db::{
        Db, Tx, get_bool,
        jobs::{self, JobPayload},
        personal,
    },
    error::{AppError, Resource},
    identity::users::{Tier, Users},
};

/// The job that ends a subscription here when its paid period is over.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpiryJob {
    pub subscription_id: String,
}

impl JobPayload for ExpiryJob {
    const KIND: &'static str = "subscription_expiry";
}

/// The job that cancels a subscription at the payment provider.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderCancelJob {
    /// The provider's id (`sub_…`).
    pub subscription: String,
    pub when: CancelWhen,
}

impl JobPayload for ProviderCancelJob {
    const KIND: &'static str = "provider_cancel";
}

/// When the provider stops a recurring subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CancelWhen {
    /// At once.
    Now,
    /// When the paid period runs out, without charging again.
    PeriodEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interval {
    Monthly,
    Yearly,
}

impl Interval {
    pub fn key(self) -> &'static str {
        match self {
            Interval::Monthly => "monthly",
            Interval::Yearly => "yearly",
        }
    }
    pub(super) fn parse(key: &str) -> Self {
        if key == "yearly" { Interval::Yearly } else { Interval::Monthly }
    }
    pub fn amount_cents(self) -> i64 {
        match self {
            Interval::Monthly => PRO_MONTHLY_CENTS,
            Interval::Yearly => PRO_YEARLY_CENTS,
        }
    }
    pub(super) fn period_ms(self) -> i64 {
        match self {
            Interval::Monthly => 30 * DAY_MS,
            Interval::Yearly => 365 * DAY_MS,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subscription {
    pub id: String,
    pub interval: Interval,
    pub provider: String,
    /// active | past_due | canceled
    pub status: String,
    pub current_period_end: Option<i64>,
    pub cancel_at_period_end: bool,
    pub first_paid_at: Option<i64>,
    pub created_at: i64,
}

impl Subscription {
    /// Whether this subscription, running, already gives what a checkout for `wanted` would: the
    /// same interval, or a year (which covers a month).
    pub fn covers(&self, wanted: Interval) -> bool {
        self.status == "active" && (self.interval == wanted || self.interval == Interval::Yearly)
    }

    /// Inside the 7-day money-back guarantee.
    pub fn refundable(&self, now: i64) -> bool {
        self.status == "active"
            && self.first_paid_at.is_some_and(|paid| now - paid <= GUARANTEE_DAYS * DAY_MS)
    }
}

fn subscription_from(row: &AnyRow) -> Result<Subscription, AppError> {
    Ok(Subscription {
        id: row.try_get("id")?,
        interval: Interval::parse(&row.try_get::<String, _>("billing_interval")?),
        provider: row.try_get("provider")?,
        status: row.try_get("status")?,
        current_period_end: row.try_get("current_period_end")?,
        cancel_at_period_end: get_bool(row, "cancel_at_period_end")?.unwrap_or(false),
        first_paid_at: row.try_get("first_paid_at")?,
        created_at: row.try_get("created_at")?,
    })
}

/// A subscription as a user's data export shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub plan_type: String,
    pub interval: String,
    pub provider: String,
    pub status: String,
    pub amount_cents: i64,
    /// checkout | admin
    pub source: String,
    pub created_at: i64,
}

/// Every subscription the user has had, oldest first.
pub(in crate::billing) async fn history(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<Vec<Record>, AppError> {
    sqlx::query(
        "select plan_type, billing_interval, provider, status, amount_cents, source, created_at \
         from subscriptions where user_id = $1 order by created_at",
    )
    .bind(user_id)
    .fetch_all(conn)
    .await?
    .iter()
    .map(|r| {
        Ok(Record {
            plan_type: r.try_get("plan_type")?,
            interval: r.try_get("billing_interval")?,
            provider: r.try_get("provider")?,
            status: r.try_get("status")?,
            amount_cents: r.try_get("amount_cents")?,
            source: r.try_get("source")?,
            created_at: r.try_get("created_at")?,
        })
    })
    .collect()
}

/// The user's current subscription: the newest one that is not canceled, else the newest.
pub(in crate::billing) async fn current(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<Option<Subscription>, AppError> {
    let row = sqlx::query(
        "select id, billing_interval, provider, status, current_period_end, cancel_at_period_end, first_paid_at, created_at \
         from subscriptions where user_id = $1 order by case when status = 'canceled' then 1 else 0 end, created_at desc limit 1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    row.as_ref().map(subscription_from).transpose()
}

/// The provider's ids of one of our subscriptions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProviderIds {
    pub customer: Option<String>,
    /// A recurring subscription at the provider (monthly on Stripe); none for one-time payments.
    pub subscription: Option<String>,
    /// The payment a guarantee refund gives back.
    pub payment: Option<String>,
    /// The provider's receipt of the first payment (an `https` address), kept with the checkout
    /// for the page after paying; not kept with the subscription.
    pub receipt: Option<String>,
}

pub(in crate::billing) async fn provider_ids(
    db: &Db,
    subscription_id: &str,
) -> Result<ProviderIds, AppError> {
    let row = sqlx::query(
        "select provider_customer_id, provider_subscription_id, provider_payment_id from subscriptions where id = $1",
    )
    .bind(subscription_id)
    .fetch_optional(db.pool())
    .await?;
    let Some(row) = row else { return Ok(ProviderIds::default()) };
    Ok(ProviderIds {
        customer: row.try_get("provider_customer_id")?,
        subscription: row.try_get("provider_subscription_id")?,
        payment: row.try_get("provider_payment_id")?,
        receipt: None,
    })
}

/// How a cancellation ends the subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Refunded under the guarantee: free now.
    Refunded,
    /// Under the guarantee, paid in a way the provider cannot refund: free now, and a refund by
    /// Pix opened (`manual_refunds`).
    RefundByPix { amount_cents: i64, paid_with: &'static str },
    /// Pro until the paid period ends; `provider_ends_it` when the provider will say so
    /// (`customer.subscription.deleted`), otherwise our expiry job ends it.
    AtPeriodEnd { provider_ends_it: bool },
}

/// Records a cancellation the provider (if any) has already carried out.
pub(in crate::billing) async fn cancel(
    db: &Db,
    user_id: &str,
    subscription_id: &str,
    ending: Ending,
) -> Result<Subscription, AppError> {
    let mut tx = db.begin().await?;
    let now = db.now_ms();
    match ending {
        Ending::Refunded | Ending::RefundByPix { .. } => {
            sqlx::query("update subscriptions set status = 'canceled', current_period_end = $1, updated_at = $1 where id = $2")
                .bind(now)
                .bind(subscription_id)
                .execute(&mut *tx)
                .await?;
            Users::new(db.clone()).set_tier_in(&mut tx, user_id, Tier::Free).await?;
            if let Ending::RefundByPix { amount_cents, paid_with } = ending {
                super::manual_refunds::open(
                    &Users::new(db.clone()),
                    &mut tx,
                    user_id,
                    subscription_id,
                    amount_cents,
                    paid_with,
                    now,
                )
                .await?;
            }
        }
        Ending::AtPeriodEnd { provider_ends_it } => {
            let ends: Option<i64> = sqlx::query(
                "update subscriptions set cancel_at_period_end = $1, updated_at = $2 where id = $3 returning current_period_end",
            )
            .bind(true)
            .bind(now)
            .bind(subscription_id)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| r.try_get("current_period_end"))
            .transpose()?
            .flatten();
            if !provider_ends_it {
                jobs::enqueue(
                    &mut tx,
                    ExpiryJob { subscription_id: subscription_id.to_owned() }
                        .job()
                        .run_at(ends.unwrap_or(now)),
                )
                .await?;
            }
        }
    }
    let after = current(&mut tx, user_id).await?.ok_or(AppError::NotFound(Resource::Subscription))?;
    tx.commit().await?;
    Ok(after)
}

/// Ends every running subscription of the user here now, and has the provider end its recurring
/// ones (at once, or when the paid period runs out).
pub(super) async fn stop_running(
    conn: &mut Tx,
    user_id: &str,
    now: i64,
    when: CancelWhen,
) -> Result<(), AppError> {
    let recurring = sqlx::query(
        "select provider_subscription_id from subscriptions where user_id = $1 and status <> 'canceled' \
         and provider = 'stripe' and provider_subscription_id is not null",
    )
    .bind(user_id)
    .fetch_all(&mut **conn)
    .await?;
    for row in recurring {
        let subscription: String = row.try_get("provider_subscription_id")?;
        let job = ProviderCancelJob { subscription: subscription.clone(), when }
            .job()
            .dedupe_key(format!("provider_cancel:{subscription}"));
        jobs::enqueue(conn, job).await?;
    }
    sqlx::query("update subscriptions set status = 'canceled', updated_at = $1 where user_id = $2 and status <> 'canceled'")
        .bind(now)
        .bind(user_id)
        .execute(&mut **conn)
        .await?;
    Ok(())
}

/// An admin's Pro or Free, recorded as an override apart from paid subscriptions. Free stops every
/// paid subscription too, at the provider as well: nobody is charged for a plan they no longer have.
async fn override_tier(users: &Users, conn: &mut Tx, user_id: &str, tier: Tier) -> Result<(), AppError> {
    let now = conn.now_ms();
    users.set_tier_in(conn, user_id, tier).await?;
    match tier {
        Tier::Pro => {
            sqlx::query("update subscriptions set status = 'canceled', updated_at = $1 where user_id = $2 and source = 'admin' and status <> 'canceled'")
                .bind(now)
                .bind(user_id)
                .execute(&mut **conn)
                .await?;
            sqlx::query(
                "insert into subscriptions (id, user_id, plan_type, billing_interval, provider, status, cancel_at_period_end, \
                 amount_cents, source, created_at, updated_at) values ($1, $2, 'pro', 'monthly', 'admin', 'active', $3, 0, 'admin', $4, $4)",
            )
            .bind(uuid::Uuid::new_v4().to_string())
            .bind(user_id)
            .bind(false)
            .bind(now)
            .execute(&mut **conn)
            .await?;
        }
        Tier::Free => stop_running(conn, user_id, now, CancelWhen::Now).await?,
    }
    Ok(())
}

/// Whether the user has a subscription that is not over (a number change never merges such an
/// account away).
pub(in crate::billing) async fn holds_open(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<bool, AppError> {
    Ok(sqlx::query("select 1 from subscriptions where user_id = $1 and status <> 'canceled'")
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .is_some())
}

/// LGPD erasure, billing's part: running subscriptions end (at the provider too), and billing's
/// rows stay without the person ([`super::PERSONAL`]).
pub(in crate::billing) async fn erase_user(tx: &mut Tx, user_id: &str) -> Result<(), AppError> {
    stop_running(tx, user_id, tx.now_ms(), CancelWhen::Now).await?;
    personal::erase(tx, super::PERSONAL, user_id).await
}

/// Subscriptions as a service, for the domains that compose billing's part into their own
/// transaction: a person's copy of their data, a number change joining two accounts, an admin's
/// override, an erasure.
#[derive(Clone)]
pub struct Subscriptions {
    db: Db,
    users: Users,
}

impl Subscriptions {
    pub fn new(db: Db) -> Self {
        Self { users: Users::new(db.clone()), db }
    }

    /// Every subscription the person had, newest first (their copy of their data).
    pub async fn history(&self, user_id: &str) -> Result<Vec<Record>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        history(&mut conn, user_id).await
    }

    /// An admin's Pro or Free, recorded as an override in the caller's transaction (see
    /// [`override_tier`]).
    pub async fn override_tier_in(&self, tx: &mut Tx, user_id: &str, tier: Tier) -> Result<(), AppError> {
        override_tier(&self.users, tx, user_id, tier).await
    }

    /// Whether the user has a subscription that is not over, read in the caller's transaction.
    pub async fn holds_open_in(&self, conn: &mut AnyConnection, user_id: &str) -> Result<bool, AppError> {
        holds_open(conn, user_id).await
    }

    /// Billing's part of an erasure, in the erasure's transaction (see [`erase_user`]).
    pub async fn erase_in(&self, tx: &mut Tx, user_id: &str) -> Result<(), AppError> {
        erase_user(tx, user_id).await
    }
}
