//! Guarantee refunds paid by hand. Stripe cannot refund a boleto ("Refunds / Partial refunds:
//! No / No", <https://docs.stripe.com/payments/boleto#refunds>), so when a boleto payment is
//! cancelled within the 7-day guarantee the subscription ends at once and a refund by Pix is
//! opened here: the person is asked for a Pix key (on WhatsApp or the site), an admin pays it from
//! the bank and marks it paid, and only then is the person told the money was sent. Until then they
//! hear "reembolso em até N dias úteis", never "reembolsado". Each step is one conditional
//! statement, so two admins (or two tabs) never pay or notify twice. The key is kept as given once
//! the refund is to be paid (a change goes through support), and the admin's "paid" names the key
//! they paid: refused when it is not the refund's, so the money goes where the admin saw it go.

use sqlx::{Row, any::AnyRow};

use super::pix_key::PixKey;
use crate::{
    db::{Db, Tx, jobs},
    error::{AppError, Precondition, Resource},
    identity::users::Users,
    locale::Language,
    plan::money::format_brl,
    whatsapp::notices,
};

/// Business days within which a refund is paid once we have the person's Pix key: what they are
/// told (a product decision, see ARCHITECTURE).
pub const REFUND_BUSINESS_DAYS: u32 = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefundStatus {
    /// Waiting for the person's Pix key.
    AwaitingKey,
    /// The key is here: an admin pays it.
    ToPay,
    Paid,
}

impl RefundStatus {
    pub fn key(self) -> &'static str {
        match self {
            RefundStatus::AwaitingKey => "awaiting_key",
            RefundStatus::ToPay => "to_pay",
            RefundStatus::Paid => "paid",
        }
    }
    fn parse(key: &str) -> Self {
        match key {
            "to_pay" => RefundStatus::ToPay,
            "paid" => RefundStatus::Paid,
            _ => RefundStatus::AwaitingKey,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManualRefund {
    pub id: String,
    pub user_id: Option<String>,
    pub amount_cents: i64,
    /// How the person paid ("boleto").
    pub paid_with: String,
    pub status: RefundStatus,
    /// The key as the DICT holds it.
    pub pix_key: Option<String>,
    pub requested_at: i64,
    pub key_given_at: Option<i64>,
    pub paid_at: Option<i64>,
    /// The person's name and number, for the admin's list (gone once they erased their data).
    pub name: Option<String>,
    pub phone: Option<String>,
}

const COLUMNS: &str = "r.id, r.user_id, r.amount_cents, r.paid_with, r.status, r.pix_key, r.requested_at, \
     r.key_given_at, r.paid_at, u.name, u.phone_number";

fn from_row(row: &AnyRow) -> Result<ManualRefund, AppError> {
    Ok(ManualRefund {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        amount_cents: row.try_get("amount_cents")?,
        paid_with: row.try_get("paid_with")?,
        status: RefundStatus::parse(&row.try_get::<String, _>("status")?),
        pix_key: row.try_get("pix_key")?,
        requested_at: row.try_get("requested_at")?,
        key_given_at: row.try_get("key_given_at")?,
        paid_at: row.try_get("paid_at")?,
        name: row.try_get("name")?,
        phone: row.try_get("phone_number")?,
    })
}

/// Opens the refund of a cancelled subscription's payment and asks the person for a Pix key on
/// WhatsApp, in the cancellation's transaction. Opening it twice keeps the first.
pub(super) async fn open(
    users: &Users,
    tx: &mut Tx,
    user_id: &str,
    subscription_id: &str,
    amount_cents: i64,
    paid_with: &str,
    now: i64,
) -> Result<(), AppError> {
    let opened = sqlx::query(
        "insert into manual_refunds (id, user_id, subscription_id, amount_cents, paid_with, status, requested_at) \
         values ($1, $2, $3, $4, $5, 'awaiting_key', $6) on conflict (subscription_id) do nothing",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(user_id)
    .bind(subscription_id)
    .bind(amount_cents)
    .bind(paid_with)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if opened == 0 {
        return Ok(());
    }
    let Some(user) = users.find_in(tx, user_id).await? else { return Ok(()) };
    let text = ask_for_key(amount_cents, user.language);
    jobs::enqueue(tx, notices::notice_job(user_id, &text, now)).await?;
    Ok(())
}

/// What the person is told when the refund is opened.
pub fn ask_for_key(amount_cents: i64, lang: Language) -> String {
    let amount = format_brl(amount_cents as f64 / 100.0, lang);
    let days = REFUND_BUSINESS_DAYS;
    say!(lang, "billing-manual-refunds-your-pro-subscription-was-cancelled", amount, days)
}

/// What the person is told once their key is here.
pub fn key_received(refund: &ManualRefund, key: &PixKey, lang: Language) -> String {
    let amount = format_brl(refund.amount_cents as f64 / 100.0, lang);
    let days = REFUND_BUSINESS_DAYS;
    say!(lang, "billing-manual-refunds-i-got-your-pix-key", key = key.to_string(), amount, days)
}

fn paid_notice(refund: &ManualRefund, lang: Language) -> String {
    let amount = format_brl(refund.amount_cents as f64 / 100.0, lang);
    let key = refund.pix_key.as_deref().and_then(PixKey::parse).map(|k| k.to_string()).unwrap_or_default();
    say!(lang, "billing-manual-refunds-refund-paid-we-sent-by", amount, key)
}

/// The refunds paid by hand: the person's pending one, their key, the admin's list and payment.
#[derive(Clone)]
pub struct ManualRefunds {
    db: Db,
}

impl ManualRefunds {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The person's refund not yet paid, if any.
    pub async fn pending_for(&self, user_id: &str) -> Result<Option<ManualRefund>, AppError> {
        let sql = format!(
            "select {COLUMNS} from manual_refunds r left join users u on u.id = r.user_id \
             where r.user_id = $1 and r.status <> 'paid' order by r.requested_at desc limit 1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).fetch_optional(self.db.pool()).await?;
        row.as_ref().map(from_row).transpose()
    }

    /// Keeps the person's Pix key on their refund waiting for one. Once given, the key is kept as
    /// it is: another is refused (`RefundKeyFrozen`; the same key again is answered as given), so
    /// whoever gets hold of the account cannot send an admin's payment elsewhere.
    pub async fn give_key(&self, user_id: &str, key: &PixKey) -> Result<ManualRefund, AppError> {
        let now = self.db.now_ms();
        let changed = sqlx::query(
            "update manual_refunds set pix_key = $1, status = 'to_pay', key_given_at = $2 \
             where user_id = $3 and status = 'awaiting_key'",
        )
        .bind(key.value())
        .bind(now)
        .bind(user_id)
        .execute(&mut *self.db.writer().await?)
        .await?
        .rows_affected();
        let refund = self.pending_for(user_id).await?.ok_or(AppError::NotFound(Resource::Refund))?;
        if changed == 0 {
            if refund.pix_key.as_deref() == Some(key.value()) {
                return Ok(refund);
            }
            tracing::warn!(target: "security", event = "refund_pix_key_change_refused", user = %user_id);
            return Err(AppError::FailedPrecondition(Precondition::RefundKeyFrozen));
        }
        tracing::info!(target: "security", event = "refund_pix_key_given", user = %user_id, kind = key.kind().key());
        Ok(refund)
    }

    /// Every refund, those still to pay first (oldest first), then the paid ones, newest first.
    pub async fn list(&self) -> Result<Vec<ManualRefund>, AppError> {
        let sql = format!(
            "select {COLUMNS} from manual_refunds r left join users u on u.id = r.user_id \
             order by case r.status when 'to_pay' then 0 when 'awaiting_key' then 1 else 2 end, \
             case when r.status = 'paid' then -r.paid_at else r.requested_at end, r.id limit 500"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(self.db.pool()).await?;
        rows.iter().map(from_row).collect::<Result<_, _>>()
    }

    /// Marks a refund paid by `admin_id` to `paid_key` (the key the admin was shown and paid) and
    /// tells the person, once, naming that key: a refund already paid, with no key yet, or whose key
    /// is not `paid_key` is refused and changes nothing.
    pub async fn mark_paid(
        &self,
        id: &str,
        admin_id: &str,
        paid_key: &str,
    ) -> Result<ManualRefund, AppError> {
        let now = self.db.now_ms();
        let mut tx = self.db.begin().await?;
        let paid = sqlx::query(
            "update manual_refunds set status = 'paid', paid_at = $1, paid_by = $2, paid_pix_key = pix_key \
             where id = $3 and status = 'to_pay' and pix_key = $4",
        )
        .bind(now)
        .bind(admin_id)
        .bind(id)
        .bind(paid_key)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let sql = format!(
            "select {COLUMNS} from manual_refunds r left join users u on u.id = r.user_id where r.id = $1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(&mut *tx).await?;
        let refund = row.as_ref().map(from_row).transpose()?.ok_or(AppError::NotFound(Resource::Refund))?;
        if paid == 0 {
            return Err(AppError::FailedPrecondition(match refund.status {
                RefundStatus::Paid => Precondition::RefundAlreadyPaid,
                RefundStatus::AwaitingKey => Precondition::RefundWithoutPixKey,
                RefundStatus::ToPay => {
                    tracing::warn!(target: "security", event = "refund_paid_key_mismatch", refund = %id, admin = %admin_id);
                    Precondition::RefundKeyChanged
                }
            }));
        }
        if let Some(user_id) = &refund.user_id
            && let Some(user) = Users::new(self.db.clone()).find_in(&mut tx, user_id).await?
        {
            jobs::enqueue(&mut tx, notices::notice_job(user_id, &paid_notice(&refund, user.language), now))
                .await?;
        }
        tx.commit().await?;
        tracing::info!(target: "security", event = "refund_paid", refund = %id, admin = %admin_id);
        Ok(refund)
    }
}
