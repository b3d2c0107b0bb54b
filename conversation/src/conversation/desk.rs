//! The handoff desk as a service, the one door to `handoff`: a person asking for a consultation
//! call, and the team's side — the queue of people waiting for a person, taking a conversation
//! over, answering as a person on WhatsApp, giving it back, and what a live view of a conversation
//! shows. Every change is committed with its audit record in one transaction; the adapters hold no
//! database.

use tokio::sync::broadcast;

use super::{
    handoff::{self, CallRequest, Handoff, Refusal, Take},
    messages::{self, FailedSend, Message},
    summaries::{self, Summary},
    updates,
};
use crate::{
    audit::AuditLog,
    db::{Db, Notice},
    error::{AppError, Precondition, Resource},
    identity::users::{User, Users},
};

/// A conversation as a live view shows it: its latest messages (oldest first) and its handoff,
/// read at `at` (Unix ms).
pub struct View {
    pub messages: Vec<Message>,
    pub handoff: Option<Handoff>,
    pub at: i64,
}

#[derive(Clone)]
pub struct Desk {
    db: Db,
    users: Users,
    audit: AuditLog,
}

impl Desk {
    pub fn new(db: Db) -> Self {
        Self { users: Users::new(db.clone()), audit: AuditLog::new(db.clone()), db }
    }

    pub fn now_ms(&self) -> i64 {
        self.db.now_ms()
    }

    /// Puts the person in the admins' queue, with what they need in their words (they asked for a
    /// person: to the model, or to the offline guide), committed.
    pub async fn queue_for_a_person(&self, user_id: &str, asked: &str) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        handoff::request(&mut tx, user_id, handoff::Reason::Asked, asked, self.db.now_ms()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The person asks for a consultation call with the preferred times (`handoff::request_call`),
    /// committed.
    pub async fn request_call(&self, user_id: &str, times: &str) -> Result<CallRequest, AppError> {
        let mut tx = self.db.begin().await?;
        let asked = handoff::request_call(&mut tx, user_id, times, self.db.now_ms()).await?;
        tx.commit().await?;
        Ok(asked)
    }

    /// A page of the person's messages between `from` and `to` (Unix ms), oldest first, and how
    /// many in all.
    pub async fn history(
        &self,
        user_id: &str,
        (from, to): (i64, i64),
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Message>, i64), AppError> {
        messages::history(&self.db, user_id, from, to, limit, offset).await
    }

    /// What the consultant remembers of the person's conversation, when it has summed it up.
    pub async fn summary(&self, user_id: &str) -> Result<Option<Summary>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        summaries::get(&mut conn, user_id).await
    }

    /// A page of the replies that failed to send, newest first, and how many in all.
    pub async fn failed_sends(&self, limit: i64, offset: i64) -> Result<(Vec<FailedSend>, i64), AppError> {
        messages::failed_sends(&self.db, limit, offset).await
    }

    /// The person, or `NotFound`.
    pub async fn person(&self, id: &str) -> Result<User, AppError> {
        self.users.find(id).await?.ok_or(AppError::NotFound(Resource::User))
    }

    /// Every open handoff, the longest waiting first, and when they were read.
    pub async fn queue(&self) -> Result<(Vec<Handoff>, i64), AppError> {
        Ok((handoff::list(&self.db).await?, self.db.now_ms()))
    }

    /// The admin takes the person's conversation over (audited); the handoff as it stands now.
    /// `ConversationTaken` when another admin holds it.
    pub async fn take_over(&self, admin: &User, person: &User) -> Result<Handoff, AppError> {
        let mut tx = self.db.begin().await?;
        let now = self.db.now_ms();
        if let Take::TakenBy(by) = handoff::take(&mut tx, &person.id, admin, now).await? {
            return Err(AppError::ConversationTaken { by });
        }
        self.audit.record_in(&mut tx, &admin.id, "take_over_conversation", &person.id, "", now).await?;
        let taken = handoff::get(&mut tx, &person.id).await?.ok_or(AppError::NotFound(Resource::User))?;
        tx.commit().await?;
        Ok(taken)
    }

    /// Gives the conversation back to Sócio (audited when there was a handoff to end).
    pub async fn give_back(&self, admin: &User, person: &User) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        if handoff::give_back(&mut tx, &person.id).await? {
            self.audit
                .record_in(&mut tx, &admin.id, "give_back_conversation", &person.id, "", self.db.now_ms())
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The admin's words to the person on WhatsApp, queued for sending (audited); the message as
    /// stored. Refused outside the service window or while another admin holds the conversation.
    pub async fn write(&self, admin: &User, person: &User, text: &str) -> Result<Message, AppError> {
        let mut tx = self.db.begin().await?;
        let now = self.db.now_ms();
        let id = match handoff::write_as_person(&mut tx, person, admin, text, now).await? {
            Ok(id) => id,
            Err(Refusal::OutsideWindow) => {
                return Err(AppError::FailedPrecondition(Precondition::OutsideServiceWindow));
            }
            Err(Refusal::TakenBy(by)) => return Err(AppError::ConversationTaken { by }),
        };
        self.audit.record_in(&mut tx, &admin.id, "send_consultant_message", &person.id, &id, now).await?;
        tx.commit().await?; // wakes the workers for the send
        messages::get(&self.db, &id).await?.ok_or(AppError::NotFound(Resource::User))
    }

    /// The database's announcements, heard from now on (subscribe before the first `view`, so
    /// nothing falls between the two).
    pub fn changes(&self) -> broadcast::Receiver<Notice> {
        self.db.notices()
    }

    /// Whether an announcement concerns the person's conversation.
    pub fn concerns(notice: &Notice, user_id: &str) -> bool {
        updates::concerns(notice, user_id)
    }

    /// The person's latest `limit` messages (oldest first) and handoff.
    pub async fn view(&self, person: &User, limit: i64) -> Result<View, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        let mut latest = messages::latest(&mut conn, &person.id, limit, 0).await?;
        latest.reverse();
        let handoff = handoff::get(&mut conn, &person.id).await?;
        Ok(View { messages: latest, handoff, at: self.db.now_ms() })
    }
}
