//! The conversation's part of an erasure, as one door for `crate::erasure`: the person's messages
//! (and their name on what an admin sent as a person), handoffs, summary, WhatsApp's notices about
//! them and the check-ins they were sent — each room erasing its own rows, in the erasure's
//! transaction. It sits above those rooms, so none of them imports another to be erased.

use sqlx::AnyConnection;

use super::{handoff, messages, notices, proactive, summaries};
use crate::error::AppError;

/// The door: stateless, it works in the transaction it is given.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConversationErasure;

impl ConversationErasure {
    /// Erases everything of the conversation that is the person's, in `conn`'s transaction.
    pub async fn erase_in(&self, conn: &mut AnyConnection, user_id: &str) -> Result<(), AppError> {
        messages::erase_user(conn, user_id).await?;
        handoff::erase_user(conn, user_id).await?;
        summaries::erase_user(conn, user_id).await?;
        notices::erase_user(conn, user_id).await?;
        proactive::erase_user(conn, user_id).await?;
        Ok(())
    }
}
