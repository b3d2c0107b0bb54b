//! LGPD erasure: everything personal about a person goes at once, in one transaction. Each domain
//! declares its rows of a person once (its `PERSONAL` list, [`crate::db::personal`]), and the
//! erasure walks the lists — billing first (running subscriptions end, at the provider too; the
//! records the law keeps stay de-identified), then the plan, the guide, the conversation, the
//! identity (sessions end, the user row last) and the dev outbox. It sits above the domains it
//! asks. A test holds that every column of the schema that points at a person is in a list.

use crate::{
    audit::AuditLog,
    billing::subscriptions::Subscriptions,
    consultant::guide,
    conversation,
    db::{
        Db, Tx,
        personal::{self, Personal},
    },
    error::AppError,
    identity::directory::Directory,
    plan,
    whatsapp::outbox::DevOutbox,
};

/// The lists the erasure walks as they are; billing's and identity's are walked by their doors,
/// which do more (end subscriptions at the provider; say the numbers the person was known by).
const WALKED: [&[Personal]; 3] = [plan::PERSONAL, guide::PERSONAL, conversation::PERSONAL];

/// Erasure as a service: the one way to erase a person. It asks each domain's service for its part,
/// all in one transaction.
#[derive(Clone)]
pub struct Erasure {
    db: Db,
    subscriptions: Subscriptions,
    directory: Directory,
    outbox: DevOutbox,
    audit: AuditLog,
}

impl Erasure {
    pub fn new(db: Db) -> Self {
        Self {
            subscriptions: Subscriptions::new(db.clone()),
            directory: Directory::new(db.clone()),
            outbox: DevOutbox::new(db.clone()),
            audit: AuditLog::new(db.clone()),
            db,
        }
    }

    /// Erases the user; false when there was no such user.
    pub async fn erase(&self, user_id: &str) -> Result<bool, AppError> {
        let mut tx = self.db.begin().await?;
        if !self.erase_in(&mut tx, user_id).await? {
            return Ok(false); // nothing is committed
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Erases the user and records who asked in the audit log, in one transaction: the erasure is
    /// never kept without its record, nor the record without it. False when there was no such user.
    pub async fn erase_recorded(&self, user_id: &str, by: &Request<'_>) -> Result<bool, AppError> {
        let mut tx = self.db.begin().await?;
        if !self.erase_in(&mut tx, user_id).await? {
            return Ok(false); // nothing is committed
        }
        let now = tx.now_ms();
        self.audit.record_in(&mut tx, by.actor_id, by.action, user_id, by.detail, now).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Each domain erases its own rows in `tx` — billing first (running subscriptions end), the
    /// identity last (it says the numbers the dev outbox knew them by); false when there was no
    /// such user.
    async fn erase_in(&self, tx: &mut Tx, user_id: &str) -> Result<bool, AppError> {
        self.subscriptions.erase_in(tx, user_id).await?;
        for rows in WALKED {
            personal::erase(tx, rows, user_id).await?;
        }
        let Some(phones) = self.directory.erase_in(tx, user_id).await? else { return Ok(false) };
        self.outbox.erase_in(tx, &phones).await?;
        Ok(true)
    }
}

/// Who asked for a right over a person's data (an erasure, a copy), as the audit log records it.
pub struct Request<'a> {
    pub actor_id: &'a str,
    pub action: &'a str,
    pub detail: &'a str,
}

#[cfg(test)]
mod tests;
