//! The inbox: where WhatsApp deliveries come in — from Meta's signed webhook or the dev endpoint,
//! through the same code. In one transaction it registers first-time senders, stores each message
//! once (unique on WhatsApp's id), and schedules a reply job per new message after the batching
//! window; only then does the caller acknowledge. A reply job answers every message still
//! unanswered when it runs, so a burst gets one reply. WhatsApp's system notices are kept apart
//! and never answered; a number change moves the person's account to the new number.

use crate::{
    db::{
        Db, Tx,
        jobs::{self, Batching, NewJob},
        now_ms,
    },
    identity::{phone::PhoneNumber, users},
    locale::Language,
    whatsapp::payload::{Inbound, InboundMessage, MessageKind},
};

use super::{
    messages, notices,
    number_change::{self, NumberChange},
    updates,
};

/// The job kind that answers a user.
pub const REPLY_JOB: &str = "reply";

/// What a delivery changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Receipt {
    pub stored: usize,
    pub duplicates: usize,
    pub statuses: usize,
    /// System notices kept (never answered).
    pub notices: usize,
}

#[derive(Clone, Debug)]
pub struct Inbox {
    db: Db,
    batching: Batching,
}

/// The reply job of a person: one waits per person, answering everything they wrote by then.
fn reply_job(user_id: &str) -> NewJob {
    NewJob::new(REPLY_JOB, serde_json::json!({ "userId": user_id })).subject(user_id)
}

impl Inbox {
    /// `batching`: a person's burst is answered `window` after their latest message, and no later
    /// than `cap` after the first.
    pub fn new(db: Db, batching: Batching) -> Self {
        Self { db, batching }
    }

    /// Stores a delivery durably. When this returns Ok, every message is stored and its reply
    /// scheduled; on Err nothing is.
    pub async fn receive(&self, inbound: &Inbound) -> Result<Receipt, sqlx::Error> {
        let mut receipt = Receipt::default();
        let mut tx = self.db.begin().await?;
        let received_at = now_ms();
        for (n, message) in inbound.messages.iter().enumerate() {
            let Ok(phone) = PhoneNumber::from_wa_id(&message.from) else {
                tracing::warn!("ignored a WhatsApp message from an invalid number");
                continue;
            };
            let at = received_at + n as i64;
            if message.kind == MessageKind::System {
                if self.notice(&mut tx, &phone, message, at).await? {
                    receipt.notices += 1;
                } else {
                    receipt.duplicates += 1;
                }
                continue;
            }
            let first_language = Language::guess_from_text(&message.text).unwrap_or_default();
            let (user, created) = users::register_contact(
                &mut tx,
                &phone,
                users::Spelling::Delivered,
                &message.profile_name,
                first_language,
            )
            .await?;
            if created {
                tracing::info!(user = %user.id, phone = %phone.masked(), "new user from WhatsApp");
            }
            if messages::insert_inbound(&mut tx, &user.id, message, at).await?.is_none() {
                receipt.duplicates += 1;
                continue;
            }
            users::touch(&mut tx, &user.id, at).await?;
            updates::changed(&mut tx, &user.id).await?;
            receipt.stored += 1;
            if message.kind == MessageKind::Reaction {
                continue; // an emoji on one of our messages needs no answer
            }
            jobs::enqueue_batched(&mut tx, reply_job(&user.id), at, self.batching).await?;
        }
        for status in &inbound.statuses {
            if messages::apply_status(&mut tx, status).await? {
                receipt.statuses += 1;
            }
        }
        tx.commit().await?; // wakes the workers for the replies
        Ok(receipt)
    }

    /// Keeps a system notice once and acts on a number change. Nobody is answered: the notice is
    /// WhatsApp's, not the person's. False when the notice was kept before.
    async fn notice(
        &self,
        tx: &mut Tx,
        phone: &PhoneNumber,
        message: &InboundMessage,
        at: i64,
    ) -> Result<bool, sqlx::Error> {
        let user = users::find_by_phone(tx, phone).await?;
        if !notices::record(tx, user.as_ref().map(|u| u.id.as_str()), message, at).await? {
            return Ok(false);
        }
        let notice = message.system.as_ref();
        let new_number = notice
            .filter(|n| n.kind == "user_changed_number")
            .and_then(|n| n.new_wa_id.as_deref())
            .and_then(|wa_id| PhoneNumber::from_wa_id(wa_id).ok());
        match (user, new_number) {
            (Some(user), Some(new_number)) => {
                let change = number_change::follow(tx, &user, &new_number).await?;
                tracing::info!(user = %user.id, from = %phone.masked(), to = %new_number.masked(), ?change, "a person changed their WhatsApp number");
                if let NumberChange::Absorbed { .. } = change {
                    // What they wrote from the new number before the notice is answered as theirs.
                    jobs::enqueue_batched(tx, reply_job(&user.id), at, self.batching).await?;
                }
            }
            (None, Some(_)) => {
                tracing::info!(from = %phone.masked(), "a number we do not know changed to another: nothing to move");
            }
            (_, None) => {
                let kind = notice.map(|n| n.kind.as_str()).unwrap_or_default();
                tracing::info!(from = %phone.masked(), kind, "a WhatsApp system notice was kept");
            }
        }
        Ok(true)
    }
}
