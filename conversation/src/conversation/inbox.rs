//! The inbox: where WhatsApp deliveries come in — from Meta's signed webhook or the dev endpoint,
//! through the same code. In one transaction it registers first-time senders, stores each message
//! once (unique on WhatsApp's id), and schedules a reply job per new message after the batching
//! window; only then does the caller acknowledge. A reply job answers every message still
//! unanswered when it runs, so a burst gets one reply. WhatsApp's system notices are kept apart
//! and never answered; a number change moves the person's account to the new number.
//!
//! A person is whoever WhatsApp shows: a number, a business-scoped user id, or both
//! (`identity::contact`); two accounts that turn out to be one person are joined
//! (`number_change::join`).

use crate::{
    db::{
        Db, Tx,
        jobs::{self, Batching, JobPayload, NewJob},
    },
    error::AppError,
    identity::{
        contact::Contact,
        users::{Spelling, User, Users},
    },
    locale::Language,
    plan::tracking::reminders::{Reminders, Said},
    whatsapp::payload::{Inbound, InboundMessage, MessageKind},
};

use super::{
    login_question, messages, notices,
    number_change::{Accounts, NumberChange},
    proactive, reminder_words, updates,
};

/// The job that answers a person: everything they wrote by the time it runs.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplyJob {
    pub user_id: String,
}

impl JobPayload for ReplyJob {
    const KIND: &'static str = "reply";
}

/// What a delivery changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Receipt {
    pub stored: usize,
    pub duplicates: usize,
    pub statuses: usize,
    /// System notices kept (never answered).
    pub notices: usize,
}

#[derive(Clone)]
pub struct Inbox {
    db: Db,
    batching: Batching,
    users: Users,
    accounts: Accounts,
    reminders: Reminders,
}

/// The reply job of a person: one waits per person, answering everything they wrote by then.
fn reply_job(user_id: &str) -> NewJob {
    ReplyJob { user_id: user_id.to_owned() }.job().subject(user_id)
}

impl Inbox {
    /// `batching`: a person's burst is answered `window` after their latest message, and no later
    /// than `cap` after the first.
    pub fn new(db: Db, batching: Batching) -> Self {
        Self {
            users: Users::new(db.clone()),
            accounts: Accounts::new(db.clone()),
            reminders: Reminders::new(db.clone()),
            db,
            batching,
        }
    }

    /// Stores a delivery durably. When this returns Ok, every message is stored and its reply
    /// scheduled; on Err nothing is.
    pub async fn receive(&self, inbound: &Inbound) -> Result<Receipt, AppError> {
        let mut receipt = Receipt::default();
        let mut tx = self.db.begin().await?;
        let received_at = self.db.now_ms();
        for (n, message) in inbound.messages.iter().enumerate() {
            let Some(contact) = Contact::from_sender(&message.from) else {
                tracing::warn!(
                    "ignored a WhatsApp message from neither a valid number nor a business-scoped id"
                );
                continue;
            };
            let at = received_at + n as i64;
            if message.kind == MessageKind::System {
                if self.notice(&mut tx, &contact, message, at).await? {
                    receipt.notices += 1;
                } else {
                    receipt.duplicates += 1;
                }
                continue;
            }
            let first_language = Language::guess_from_text(&message.text).unwrap_or_default();
            let (user, created) =
                self.register(&mut tx, &contact, &message.profile_name, first_language).await?;
            if created {
                tracing::info!(user = %user.id, contact = %contact.masked(), "new user from WhatsApp");
            }
            let now = tx.now_ms();
            let Some(stored_id) = messages::insert_inbound(&mut tx, &user.id, message, at, now).await? else {
                receipt.duplicates += 1;
                continue;
            };
            self.users.touch_in(&mut tx, &user.id, at).await?;
            proactive::mark_answered(&mut tx, &user.id, at).await?;
            updates::changed(&mut tx, &user.id).await?;
            receipt.stored += 1;
            if message.kind == MessageKind::Reaction {
                continue; // an emoji on one of our messages needs no answer
            }
            if login_question::take(&mut tx, &user, message, &stored_id, at).await? {
                continue; // a login by message, answered already
            }
            if reminder_words::take(&self.reminders, &mut tx, &user, message, &stored_id, at).await? {
                continue; // PARAR / VOLTAR, confirmed already
            }
            jobs::enqueue_batched(&mut tx, reply_job(&user.id), at, self.batching).await?;
        }
        for status in &inbound.statuses {
            let now = tx.now_ms();
            if messages::apply_status(&mut tx, status, now).await? {
                receipt.statuses += 1;
            }
        }
        for change in &inbound.preferences {
            // Meta's "stop" of marketing messages stops every proactive message of ours too.
            let Some(contact) = Contact::from_sender(&change.from) else { continue };
            let Some(user) = self.users.find_by_contact_in(&mut tx, &contact).await? else { continue };
            // Dated by Meta: a report older than her latest stop or resume changes nothing.
            let at = change.timestamp_ms.unwrap_or(received_at);
            let changed = if change.stop {
                self.reminders.stop_in(&mut tx, &user.id, at, Said::Reported).await?
            } else {
                self.reminders.resume_in(&mut tx, &user.id, at, Said::Reported).await?
            };
            tracing::info!(user = %user.id, stop = change.stop, changed, "WhatsApp's marketing preference");
        }
        tx.commit().await?; // wakes the workers for the replies
        Ok(receipt)
    }

    /// Keeps a system notice once and acts on a number change. Nobody is answered: the notice is
    /// WhatsApp's, not the person's. False when the notice was kept before.
    async fn notice(
        &self,
        tx: &mut Tx,
        contact: &Contact,
        message: &InboundMessage,
        at: i64,
    ) -> Result<bool, AppError> {
        let user = self.users.find_by_contact_in(tx, contact).await?;
        if !notices::record(tx, user.as_ref().map(|u| u.id.as_str()), message, at).await? {
            return Ok(false);
        }
        let notice = message.system.as_ref();
        let changes_identity =
            notice.filter(|n| matches!(n.kind.as_str(), "user_changed_number" | "user_changed_user_id"));
        let new_contact = changes_identity
            .map(|n| crate::whatsapp::payload::Sender {
                wa_id: n.new_wa_id.clone(),
                user_id: n.new_user_id.clone(),
                username: None,
            })
            .as_ref()
            .and_then(Contact::from_sender);
        match (user, new_contact) {
            (Some(user), Some(new)) => {
                let change = self.accounts.follow(tx, &user, new.phone.as_ref(), new.bsuid.as_ref()).await?;
                tracing::info!(user = %user.id, from = %contact.masked(), to = %new.masked(), ?change, "a person changed their WhatsApp number");
                if let NumberChange::Absorbed { .. } = change {
                    // What they wrote from the new number before the notice is answered as theirs.
                    jobs::enqueue_batched(tx, reply_job(&user.id), at, self.batching).await?;
                }
            }
            (None, Some(_)) => {
                tracing::info!(from = %contact.masked(), "a number we do not know changed to another: nothing to move");
            }
            (_, None) => {
                let kind = notice.map(|n| n.kind.as_str()).unwrap_or_default();
                tracing::info!(from = %contact.masked(), kind, "a WhatsApp system notice was kept");
            }
        }
        Ok(true)
    }

    /// The account of whoever wrote, registered on first contact; one person seen as two accounts
    /// (their number's and their business-scoped id's) becomes one.
    async fn register(
        &self,
        tx: &mut Tx,
        contact: &Contact,
        profile_name: &str,
        language: Language,
    ) -> Result<(User, bool), AppError> {
        let registered =
            self.users.register_in(tx, contact, Spelling::Delivered, profile_name, language).await?;
        let Some(also) = registered.also else { return Ok((registered.user, registered.created)) };
        self.accounts.join(tx, registered.user, also).await?;
        // One account now: it learns what this delivery shows (a username, a name).
        let joined = self.users.register_in(tx, contact, Spelling::Delivered, profile_name, language).await?;
        Ok((joined.user, false))
    }
}
