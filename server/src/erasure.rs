//! LGPD erasure: everything personal about a person goes at once, in one transaction, each domain
//! erasing its own rows — billing first (running subscriptions end, at the provider too; the
//! records the law keeps stay de-identified), then the plan, the guide, the conversation, the
//! identity (sessions end) and the dev outbox. It sits above the domains it asks.

use crate::{
    billing::subscriptions,
    consultant::guide,
    conversation::{handoff, messages, notices, summaries},
    db::Db,
    identity::directory,
    plan::store,
    whatsapp::outbox,
};

/// Erases the user; false when there was no such user.
pub async fn erase(db: &Db, user_id: &str) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    subscriptions::erase_user(&mut tx, user_id).await?;
    store::erase_user(&mut tx, user_id).await?;
    crate::plan::results::erase_user(&mut tx, user_id).await?;
    crate::plan::reminders::erase_user(&mut tx, user_id).await?;
    crate::conversation::reminders::erase_user(&mut tx, user_id).await?;
    guide::erase_user(&mut tx, user_id).await?;
    messages::erase_user(&mut tx, user_id).await?;
    handoff::erase_user(&mut tx, user_id).await?;
    summaries::erase_user(&mut tx, user_id).await?;
    notices::erase_user(&mut tx, user_id).await?;
    let Some(phones) = directory::erase(&mut tx, user_id).await? else {
        return Ok(false); // nothing is committed
    };
    outbox::erase_to(&mut tx, &phones).await?;
    tx.commit().await?;
    Ok(true)
}
