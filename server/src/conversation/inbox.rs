//! The inbox: where WhatsApp deliveries come in — from Meta's signed webhook or the dev endpoint,
//! through the same code. In one transaction it registers first-time senders, stores each message
//! once (unique on WhatsApp's id), and schedules a reply job per new message after the batching
//! window; only then does the caller acknowledge. A reply job answers every message still
//! unanswered when it runs, so a burst gets one reply.

use std::time::Duration;

use crate::{
    db::{
        Db,
        jobs::{self, NewJob},
        now_ms,
    },
    identity::{phone::PhoneNumber, users},
    locale::Language,
    whatsapp::payload::{Inbound, MessageKind},
};

use super::messages;

/// The job kind that answers a user.
pub const REPLY_JOB: &str = "reply";

/// What a delivery changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Receipt {
    pub stored: usize,
    pub duplicates: usize,
    pub statuses: usize,
}

#[derive(Clone, Debug)]
pub struct Inbox {
    db: Db,
    batch_window: Duration,
}

impl Inbox {
    pub fn new(db: Db, batch_window: Duration) -> Self {
        Self { db, batch_window }
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
            let first_language = Language::guess_from_text(&message.text).unwrap_or_default();
            let (user, created) =
                users::register_contact(&mut tx, &phone, &message.profile_name, first_language).await?;
            if created {
                tracing::info!(user = %user.id, phone = %phone.masked(), "new user from WhatsApp");
            }
            let at = received_at + n as i64;
            let Some(id) = messages::insert_inbound(&mut tx, &user.id, message, at).await? else {
                receipt.duplicates += 1;
                continue;
            };
            users::touch(&mut tx, &user.id, at).await?;
            receipt.stored += 1;
            if message.kind == MessageKind::Reaction {
                continue; // an emoji on one of our messages needs no answer
            }
            let reply = NewJob::new(REPLY_JOB, serde_json::json!({ "userId": user.id }))
                .dedupe_key(format!("reply:{id}"))
                .run_at(at + self.batch_window.as_millis() as i64);
            jobs::enqueue(&mut *tx, reply).await?;
        }
        for status in &inbound.statuses {
            if messages::apply_status(&mut tx, status).await? {
                receipt.statuses += 1;
            }
        }
        tx.commit().await?;
        self.db.jobs_added();
        Ok(receipt)
    }
}
