//! Delivery of our messages: one `send` job per outbound message, retried with backoff on
//! network errors, 5xx and rate limits, never on permanent errors. The message records
//! `queued → sending → sent (wamid)`, or `failed` with the reason once the job gives up. A message
//! is `sending` only while its request to Meta is in flight; one found still `sending` was
//! interrupted (the server died mid-request, or could not record the answer), and Meta may have it:
//! it is failed, visibly, rather than sent a second time. A message past `queued` is never sent again.

use std::sync::Arc;

use futures::future::BoxFuture;
use sqlx::AnyConnection;

use super::messages;
use crate::{
    db::{
        Db, Tx,
        jobs::{self, Job, JobError, JobHandler, NewJob},
        now_ms,
    },
    identity::users,
    telemetry::metrics,
    whatsapp::{
        choices::Choice,
        payload::MessageKind,
        sender::{Outgoing, SendError, WhatsAppSender},
    },
};

pub const SEND_JOB: &str = "send";

/// WhatsApp's customer-service window: free text only within 24 hours of the user's last message.
pub const SERVICE_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// The send job of an outbound message to a user (enqueue it in the transaction that stores the
/// message). One person's messages go out one at a time, in the order they were enqueued.
pub fn send_job(message_id: &str, user_id: &str) -> NewJob {
    NewJob::new(SEND_JOB, serde_json::json!({ "messageId": message_id }))
        .dedupe_key(format!("send:{message_id}"))
        .subject(user_id)
}

/// Answers a person's message at once, in the inbox's transaction (a login by message, PARAR):
/// their message counts as answered, so no reply job takes it, and `reply` (with answers to tap,
/// if any) is stored and goes out through the send path.
pub async fn answer_at_once(
    tx: &mut Tx,
    user_id: &str,
    inbound_id: &str,
    reply: &str,
    choices: &[Choice],
    at: i64,
) -> Result<(), sqlx::Error> {
    messages::mark_handled(tx, inbound_id).await?;
    let id = messages::insert_outbound(tx, user_id, reply, choices, at + 1).await?;
    jobs::enqueue(tx, send_job(&id, user_id)).await?;
    Ok(())
}

pub struct SendHandler {
    db: Db,
    sender: Arc<dyn WhatsAppSender>,
}

impl SendHandler {
    pub fn new(db: Db, sender: Arc<dyn WhatsAppSender>) -> Self {
        Self { db, sender }
    }

    async fn deliver(&self, job: &Job) -> Result<(), JobError> {
        let id =
            job.payload["messageId"].as_str().ok_or_else(|| JobError::Permanent("no messageId".into()))?;
        let Some(message) = messages::get(&self.db, id).await? else {
            return Ok(()); // erased with its user
        };
        let mut conn = self.db.pool().acquire().await?;
        let Some(user) = users::find_by_id(&mut conn, &message.user_id).await? else {
            return Ok(());
        };
        drop(conn);
        let notice = message.kind == MessageKind::Other("notice".into());
        let Some(to) = user.whatsapp_address().map(str::to_owned) else {
            let reason = "the person has neither a WhatsApp number nor a business-scoped id";
            messages::record_failed(&self.db, id, reason).await?;
            return Err(JobError::Permanent(reason.into()));
        };
        let open = window_open(&self.db, &user.id).await?;
        let outgoing = match (open, notice, &message.template) {
            (false, _, Some(filled)) => Outgoing::Template {
                to,
                template: filled.template,
                params: filled.params.clone(),
                language: user.language,
            },
            (true, _, _) if !message.choices.is_empty() => Outgoing::Choices {
                to,
                body: message.content.clone(),
                choices: message.choices.clone(),
                list_label: user.language.choose("Escolher", "Choose").to_owned(),
            },
            (true, _, _) => Outgoing::Text { to, body: message.content.clone() },
            (false, true, None) => {
                Outgoing::Notice { to, body: message.content.clone(), language: user.language }
            }
            (false, false, None) if message.status == "queued" => {
                let reason = "outside WhatsApp's 24-hour customer-service window: only an approved template can reach this user";
                messages::record_failed(&self.db, id, reason).await?;
                return Err(JobError::Permanent(reason.into()));
            }
            // Sending or sent already: `hand_over` below says what becomes of it.
            (false, false, None) => Outgoing::Text { to, body: message.content.clone() },
        };
        hand_over(&self.db, self.sender.as_ref(), &message, &outgoing, job).await
    }
}

/// Whether the person wrote to us within WhatsApp's 24-hour customer-service window.
pub async fn window_open(db: &Db, user_id: &str) -> Result<bool, sqlx::Error> {
    let mut conn = db.pool().acquire().await?;
    window_open_in(&mut conn, user_id, now_ms()).await
}

/// [`window_open`] at `now`, on a connection (in a transaction).
pub async fn window_open_in(conn: &mut AnyConnection, user_id: &str, now: i64) -> Result<bool, sqlx::Error> {
    let last_inbound = messages::last_inbound_at(conn, user_id).await?;
    Ok(last_inbound.is_some_and(|at| now - at <= SERVICE_WINDOW_MS))
}

/// Hands one of our stored messages to WhatsApp, once: a message found still `sending` was
/// interrupted mid-request (Meta may have it) and is failed visibly instead of sent again; one
/// past `queued` was sent before. Retryable failures requeue it for the job's next attempt.
pub async fn hand_over(
    db: &Db,
    sender: &dyn WhatsAppSender,
    message: &messages::Message,
    outgoing: &Outgoing,
    job: &Job,
) -> Result<(), JobError> {
    let id = message.id.as_str();
    if message.status == "sending" {
        let reason = "interrupted while being sent (the server stopped mid-request): not sent again, so that it never arrives twice";
        tracing::warn!(message = %id, "{reason}");
        messages::record_failed(db, id, reason).await?;
        return Err(JobError::Permanent(reason.into()));
    }
    if message.status != "queued" {
        return Ok(()); // sent before: never twice
    }
    if !messages::mark_sending(db, id).await? {
        return Ok(()); // another worker took it
    }
    match sender.send(outgoing).await {
        Ok(sent) => {
            messages::record_sent(db, id, &sent.wa_message_id).await?;
            if let Some(answers_at) = job.payload["answersAt"].as_i64() {
                let waited = (now_ms() - answers_at).max(0) as u64;
                metrics::reply_time(std::time::Duration::from_millis(waited));
            }
            Ok(())
        }
        Err(SendError::Retryable(reason)) if job.attempt < job.max_attempts => {
            messages::requeue(db, id).await?;
            Err(JobError::Retryable(reason))
        }
        Err(SendError::Retryable(reason) | SendError::Permanent(reason)) => {
            tracing::warn!(message = %id, %reason, "a WhatsApp message could not be delivered");
            messages::record_failed(db, id, &reason).await?;
            Err(JobError::Permanent(reason))
        }
    }
}

impl JobHandler for SendHandler {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(self.deliver(job))
    }
}

/// The `notice` job (`whatsapp::notices`): keeps a notice from a lower domain (billing) in the
/// person's conversation and enqueues its send, in one transaction. The message's id is the job's,
/// so a retried job writes and sends it once.
pub struct NoticeHandler {
    db: Db,
}

impl NoticeHandler {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    async fn keep_and_send(&self, job: &Job) -> Result<(), JobError> {
        let (Some(user_id), Some(text)) = (job.payload["userId"].as_str(), job.payload["text"].as_str())
        else {
            return Err(JobError::Permanent("a notice needs userId and text".into()));
        };
        let at = job.payload["at"].as_i64().unwrap_or_else(now_ms);
        let mut tx = self.db.begin().await?;
        if users::find_by_id(&mut tx, user_id).await?.is_none() {
            return Ok(()); // erased meanwhile
        }
        let id = format!("notice-{}", job.id);
        if messages::insert_notice(&mut tx, &id, user_id, text, at).await? {
            jobs::enqueue(&mut tx, send_job(&id, user_id)).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

impl JobHandler for NoticeHandler {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(self.keep_and_send(job))
    }
}
