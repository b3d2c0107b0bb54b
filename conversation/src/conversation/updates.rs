//! Announcing that a person's conversation changed — a message came in or went out, a human
//! consultant took it or gave it back — so that admin views open on it refresh at once. Announced
//! in the writer's transaction and heard at its commit, by every server process on PostgreSQL
//! (`db::Notice`); delivery statuses are not announced (a view re-reads now and then for them).

use crate::db::{Notice, Tx};
use crate::error::AppError;

/// The notice channel (also the PostgreSQL NOTIFY channel); the payload is the person's user id.
pub const CHANNEL: &str = "socio_conversation";

/// The person's conversation changed in this transaction.
pub(in crate::conversation) async fn changed(tx: &mut Tx, user_id: &str) -> Result<(), AppError> {
    Ok(tx.announce(CHANNEL, user_id.to_owned()).await?)
}

/// Whether a notice says that this person's conversation changed.
pub fn concerns(notice: &Notice, user_id: &str) -> bool {
    notice.channel == CHANNEL && notice.payload == user_id
}
