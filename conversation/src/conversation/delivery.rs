//! Delivery of our messages: one `send` job per outbound message, retried with backoff on
//! network errors, 5xx and rate limits, never on permanent errors. The message records
//! `queued → sending → sent (wamid)`, or `failed` with the reason once the job gives up. A message
//! is `sending` only while its request to Meta is in flight; one found still `sending` was
//! interrupted (the server died mid-request, or could not record the answer), and Meta may have it:
//! it is failed, visibly, rather than sent a second time. A message past `queued` is never sent again.

use std::sync::Arc;

use futures::future::BoxFuture;
use sqlx::AnyConnection;

use super::{messages, sent::SendSteps};
use crate::whatsapp::notices::NoticeJob;
use crate::{
    db::{
        Db, Tx,
        jobs::{self, Job, JobError, JobPayload, NewJob, RunsJob},
    },
    error::AppError,
    identity::users::Users,
    plan::tracking::reminders::Reminders,
    telemetry::metrics,
    whatsapp::{
        choices::Choice,
        payload::MessageKind,
        sender::{Outgoing, SendError, WhatsAppSender},
        templates::Template,
    },
};

/// The job that sends one stored outbound message.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendJob {
    pub message_id: String,
    /// When the person's message this answers arrived (Unix ms), for the reply-time metric.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers_at: Option<i64>,
}

impl JobPayload for SendJob {
    const KIND: &'static str = "send";
}

/// WhatsApp's customer-service window: free text only within 24 hours of the user's last message.
pub const SERVICE_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// The send job of an outbound message to a user (enqueue it in the transaction that stores the
/// message). One person's messages go out one at a time, in the order they were enqueued.
pub fn send_job(message_id: &str, user_id: &str) -> NewJob {
    answering_job(message_id, user_id, None)
}

/// The send job of the first message of a reply, which answers what the person wrote at
/// `answers_at` (Unix ms; measured as the reply time once it is sent).
pub fn answering_job(message_id: &str, user_id: &str, answers_at: Option<i64>) -> NewJob {
    SendJob { message_id: message_id.to_owned(), answers_at }
        .job()
        .dedupe_key(format!("send:{message_id}"))
        .subject(user_id)
}

/// Answers a person's message at once, in the inbox's transaction (a login by message, PARAR):
/// their message counts as answered, so no reply job takes it, and `reply` (with answers to tap,
/// if any) is stored and goes out through the send path. The stored reply's id.
pub(in crate::conversation) async fn answer_at_once(
    tx: &mut Tx,
    user_id: &str,
    inbound_id: &str,
    reply: &str,
    choices: &[Choice],
    at: i64,
) -> Result<String, AppError> {
    let now = tx.now_ms();
    messages::mark_handled(tx, inbound_id, now).await?;
    let id = messages::insert_outbound(tx, user_id, reply, choices, at + 1).await?;
    jobs::enqueue(tx, send_job(&id, user_id)).await?;
    Ok(id)
}

pub struct SendHandler {
    db: Db,
    users: Users,
    sender: Arc<dyn WhatsAppSender>,
    /// The sends that reach a step together take it together.
    steps: SendSteps,
}

impl SendHandler {
    pub fn new(db: Db, sender: Arc<dyn WhatsAppSender>) -> Self {
        Self { users: Users::new(db.clone()), steps: SendSteps::new(db.clone()), db, sender }
    }

    async fn deliver(&self, job: &Job, payload: SendJob) -> Result<(), JobError> {
        let id = payload.message_id.as_str();
        // What the send needs to know, on one connection: the message with its person's window,
        // and the person.
        let mut conn = self.db.read().await?;
        let Some((message, last_inbound)) = messages::get_to_send(&mut conn, id).await? else {
            return Ok(()); // erased with its user
        };
        let Some(user) = self.users.find_in(&mut conn, &message.user_id).await? else {
            return Ok(());
        };
        drop(conn);
        let notice = message.kind == MessageKind::Other("notice".into());
        let Some(to) = user.whatsapp_address().map(str::to_owned) else {
            let reason = "the person has neither a WhatsApp number nor a business-scoped id";
            messages::record_failed(&self.db, id, reason).await?;
            return Err(JobError::Permanent(reason.into()));
        };
        let open = within_window(last_inbound, self.db.now_ms());
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
                list_label: say!(user.language, "conversation-delivery-choose"),
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
        let steps = Some(&self.steps);
        hand_over(&self.db, self.sender.as_ref(), steps, &message, &outgoing, job, payload.answers_at).await
    }
}

/// Takes a queued message for its request to Meta: true when this call moved it to `sending`. A
/// proactive message (a check-in, a fiscal reminder) is taken only while the person still wants it
/// — asked in the same transaction, which holds their choices, so a "PARAR" that committed first
/// drops it (kept as `dropped`, never sent) and one that commits later comes after this send; a
/// retry after a failed send asks again.
async fn take(db: &Db, gathered: Option<&SendSteps>, message: &messages::Message) -> Result<bool, JobError> {
    let Some(filled) =
        message.template.as_ref().filter(|_| message.kind == MessageKind::Other("reminder".into()))
    else {
        return match gathered {
            Some(steps) => steps.take(&message.id).await.map_err(JobError::Retryable),
            None => Ok(messages::mark_sending(db, &message.id).await?),
        };
    };
    let mut tx = db.begin().await?;
    let now = tx.now_ms();
    let checkin = filled.template == Template::Checkin;
    if !Reminders::new(db.clone())
        .still_wanted_in(&mut tx, &message.user_id, checkin, message.created_at)
        .await?
    {
        let reason = "not sent: the person said PARAR (or turned this reminder off) after it was written";
        if messages::record_dropped(&mut tx, &message.id, reason, now).await? {
            tracing::info!(message = %message.id, user = %message.user_id, "a proactive message was dropped: {reason}");
            metrics::proactive_dropped();
        }
        tx.commit().await?;
        return Ok(false);
    }
    let taken = messages::mark_sending_in(&mut tx, &message.id, now).await?;
    tx.commit().await?;
    Ok(taken)
}

/// Handing our stored messages to WhatsApp as a service, for what goes out apart from the send
/// job (the plan's PDF): whether the person's 24-hour window is open, and a message handed over
/// once.
#[derive(Clone)]
pub struct Delivery {
    db: Db,
    sender: Arc<dyn WhatsAppSender>,
}

impl Delivery {
    pub fn new(db: Db, sender: Arc<dyn WhatsAppSender>) -> Self {
        Self { db, sender }
    }

    /// Whether the person wrote to us within WhatsApp's 24-hour customer-service window.
    pub async fn window_open(&self, user_id: &str) -> Result<bool, AppError> {
        window_open(&self.db, user_id).await
    }

    /// Hands `message` to WhatsApp as `outgoing`, once (see [`hand_over`]).
    pub async fn hand_over(
        &self,
        message: &messages::Message,
        outgoing: &Outgoing,
        job: &Job,
        answers_at: Option<i64>,
    ) -> Result<(), JobError> {
        hand_over(&self.db, self.sender.as_ref(), None, message, outgoing, job, answers_at).await
    }
}

/// Whether the person wrote to us within WhatsApp's 24-hour customer-service window.
async fn window_open(db: &Db, user_id: &str) -> Result<bool, AppError> {
    let mut conn = db.pool().acquire().await?;
    window_open_in(&mut conn, user_id, db.now_ms()).await
}

/// [`window_open`] at `now`, on a connection (in a transaction).
pub(in crate::conversation) async fn window_open_in(
    conn: &mut AnyConnection,
    user_id: &str,
    now: i64,
) -> Result<bool, AppError> {
    Ok(within_window(messages::last_inbound_at(conn, user_id).await?, now))
}

/// Whether a person who last wrote to us at `last_inbound` (Unix ms; never, None) is within
/// WhatsApp's 24-hour customer-service window at `now`.
fn within_window(last_inbound: Option<i64>, now: i64) -> bool {
    last_inbound.is_some_and(|at| now - at <= SERVICE_WINDOW_MS)
}

/// Hands one of our stored messages to WhatsApp, once: a message found still `sending` was
/// interrupted mid-request (Meta may have it) and is failed visibly instead of sent again; one
/// past `queued` was sent before. Retryable failures requeue it for the job's next attempt. When
/// it answers a person's message (`answers_at`, Unix ms), the reply time is measured once sent.
/// Taken and recorded with the other sends that reach each step meanwhile when `gathered` (the
/// send jobs), else alone.
async fn hand_over(
    db: &Db,
    sender: &dyn WhatsAppSender,
    gathered: Option<&SendSteps>,
    message: &messages::Message,
    outgoing: &Outgoing,
    job: &Job,
    answers_at: Option<i64>,
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
    if !take(db, gathered, message).await? {
        return Ok(()); // another worker took it, or the person no longer wants it
    }
    match sender.send(outgoing).await {
        Ok(sent) => {
            match gathered {
                Some(steps) => {
                    steps.record_sent(id, &sent.wa_message_id).await.map_err(JobError::Retryable)?
                }
                None => messages::record_sent(db, id, &sent.wa_message_id).await?,
            }
            if let Some(answers_at) = answers_at {
                let waited = (db.now_ms() - answers_at).max(0) as u64;
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

impl RunsJob<SendJob> for SendHandler {
    fn run<'a>(&'a self, job: &'a Job, payload: SendJob) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(self.deliver(job, payload))
    }
}

/// The `notice` job (`whatsapp::notices`): keeps a notice from a lower domain (billing) in the
/// person's conversation and enqueues its send, in one transaction. The message's id is the job's,
/// so a retried job writes and sends it once.
pub struct NoticeHandler {
    db: Db,
    users: Users,
}

impl NoticeHandler {
    pub fn new(db: Db) -> Self {
        Self { users: Users::new(db.clone()), db }
    }

    async fn keep_and_send(&self, job: &Job, notice: NoticeJob) -> Result<(), JobError> {
        let (user_id, text) = (notice.user_id.as_str(), notice.text.as_str());
        let at = notice.at.unwrap_or_else(|| self.db.now_ms());
        let mut tx = self.db.begin().await?;
        if self.users.find_in(&mut tx, user_id).await?.is_none() {
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

impl RunsJob<NoticeJob> for NoticeHandler {
    fn run<'a>(&'a self, job: &'a Job, payload: NoticeJob) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(self.keep_and_send(job, payload))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn job(kind: &str, payload: serde_json::Value) -> Job {
        Job::first_claim(kind, payload)
    }

    #[test]
    fn a_send_job_is_stored_with_the_keys_jobs_queued_before_the_types_have() {
        let first = answering_job("m1", "u1", Some(5));
        assert_eq!(first.kind, "send");
        assert_eq!(first.payload, json!({ "messageId": "m1", "answersAt": 5 }));
        assert_eq!(first.dedupe_key.as_deref(), Some("send:m1"));
        assert_eq!(send_job("m2", "u1").payload, json!({ "messageId": "m2" }));
        let queued = job("send", json!({ "messageId": "m1", "answersAt": 5 }));
        let read: SendJob = queued.payload_as().unwrap();
        assert_eq!((read.message_id.as_str(), read.answers_at), ("m1", Some(5)));
    }

    #[test]
    fn the_customer_service_window_is_open_for_twenty_four_hours_from_the_person_s_last_message() {
        let wrote = 1_700_000_000_000;
        assert!(!within_window(None, wrote), "never wrote to us: only a template reaches them");
        assert!(within_window(Some(wrote), wrote + 60_000));
        assert!(
            within_window(Some(wrote), wrote + SERVICE_WINDOW_MS),
            "the last millisecond of the 24 hours"
        );
        assert!(!within_window(Some(wrote), wrote + SERVICE_WINDOW_MS + 1));
    }

    #[test]
    fn a_job_of_another_kind_or_without_its_fields_fails_for_good() {
        let reply = job("reply", json!({ "userId": "u1" }));
        assert!(matches!(reply.payload_as::<SendJob>(), Err(JobError::Permanent(_))));
        let empty = job("send", json!({ "id": "m1" }));
        let Err(JobError::Permanent(why)) = empty.payload_as::<SendJob>() else { panic!("read") };
        assert!(why.contains("messageId"), "{why}");
        let notice = job("notice", json!({ "userId": "u1", "text": "Olá" }));
        let read: NoticeJob = notice.payload_as().unwrap();
        assert_eq!(read.at, None, "a notice without its time is written when it runs");
    }
}
