//! LGPD erasure: everything personal about a person goes at once, in one transaction, each domain
//! erasing its own rows — billing first (running subscriptions end, at the provider too; the
//! records the law keeps stay de-identified), then the plan, the guide, the conversation, the
//! identity (sessions end) and the dev outbox. It sits above the domains it asks.

use crate::{
    audit,
    billing::subscriptions,
    consultant::guide,
    conversation::{handoff, messages, notices, summaries},
    db::{Db, Tx},
    error::AppError,
    identity::directory,
    plan::store,
    whatsapp::outbox,
};

/// Erasure as a service: the one way to erase a person.
#[derive(Clone)]
pub struct Erasure {
    db: Db,
}

impl Erasure {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Erases the user; false when there was no such user.
    pub async fn erase(&self, user_id: &str) -> Result<bool, AppError> {
        Ok(erase(&self.db, user_id).await?)
    }

    /// Erases the user with the audit record of who asked, in one transaction (`erase_recorded`).
    pub async fn erase_recorded(&self, user_id: &str, by: &Request<'_>) -> Result<bool, AppError> {
        Ok(erase_recorded(&self.db, user_id, by).await?)
    }
}

/// Erases the user; false when there was no such user.
async fn erase(db: &Db, user_id: &str) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    if !erase_in(&mut tx, user_id).await? {
        return Ok(false); // nothing is committed
    }
    tx.commit().await?;
    Ok(true)
}

/// Who asked for a right over a person's data (an erasure, a copy), as the audit log records it.
pub struct Request<'a> {
    pub actor_id: &'a str,
    pub action: &'a str,
    pub detail: &'a str,
}

/// Erases the user and records who asked in the audit log, in one transaction: the erasure is never
/// kept without its record, nor the record without it. False when there was no such user.
async fn erase_recorded(db: &Db, user_id: &str, by: &Request<'_>) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    if !erase_in(&mut tx, user_id).await? {
        return Ok(false); // nothing is committed
    }
    let now = tx.now_ms();
    audit::record(&mut tx, by.actor_id, by.action, user_id, by.detail, now).await?;
    tx.commit().await?;
    Ok(true)
}

/// Each domain erases its own rows in `tx`; false when there was no such user.
async fn erase_in(tx: &mut Tx, user_id: &str) -> Result<bool, sqlx::Error> {
    subscriptions::erase_user(tx, user_id).await?;
    store::erase_user(tx, user_id).await?;
    crate::plan::tracking::results::erase_user(tx, user_id).await?;
    crate::plan::tracking::reminders::erase_user(tx, user_id).await?;
    crate::conversation::proactive::erase_user(tx, user_id).await?;
    guide::erase_user(tx, user_id).await?;
    messages::erase_user(tx, user_id).await?;
    handoff::erase_user(tx, user_id).await?;
    summaries::erase_user(tx, user_id).await?;
    notices::erase_user(tx, user_id).await?;
    let Some(phones) = directory::erase(tx, user_id).await? else { return Ok(false) };
    outbox::erase_to(tx, &phones).await?;
    Ok(true)
}
