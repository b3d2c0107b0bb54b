//! The reply worker, a use case over services: claims a user's unanswered messages
//! (`conversation::turns`), composes one reply (the consultant's engine, the guide, a refund's Pix
//! key), and has the turn store it — the messages answered and its delivery enqueued in one
//! transaction. A crash before that commit leaves the messages claimed by the job, which its retry
//! picks up again; after it, the retry finds nothing left to answer — so a reply is stored, and
//! sent, once. It opens no transaction of its own.
//!
//! While a human consultant has the conversation (`handoff`), the job answers nothing: the
//! messages are the admin's to answer. Someone who asks for a person is told one will answer and
//! joins the admins' queue. Someone owed a guarantee refund by Pix who sends a Pix key has it kept
//! and is told when the refund will be paid.

use std::sync::Arc;

use futures::future::BoxFuture;

use super::{
    engine::{Answer, Engine},
    llm::Transcriber,
    plan_request,
    replies::{self, Links},
};
use crate::{
    billing::{
        manual_refunds::{self, ManualRefunds},
        pix_key::PixKey,
    },
    conversation::{
        desk::Desk,
        handoff,
        inbox::ReplyJob,
        messages::{self, Messages},
        turns::{self, Claim, Turns},
    },
    db::{
        Db,
        jobs::{Job, JobError, RunsJob},
    },
    identity::users::User,
    whatsapp::{media::MediaClient, payload::MessageKind, sender::WhatsAppSender, typing},
};

/// A domain error while answering: tried again later.
fn retryable(err: crate::error::AppError) -> JobError {
    JobError::Retryable(err.to_string())
}

/// What a burst of messages asks of the reply: each handled by its arm of one match.
#[derive(Debug, PartialEq, Eq)]
enum Intent {
    /// A Pix key from someone owed a guarantee refund by Pix: the answer (kept, and when it is paid).
    RefundKey(String),
    /// The plan's PDF: said to be on its way, and sent after this reply.
    Plan,
    /// A person, asked of the offline guide: the admins' queue.
    Person,
    /// Anything else: the consultant (the model or the guide) answers.
    Consult,
}

pub struct ReplyHandler {
    turns: Turns,
    desk: Desk,
    links: Links,
    engine: Engine,
    voice: Option<(MediaClient, Transcriber)>,
    sender: Arc<dyn WhatsAppSender>,
    messages: Messages,
    refunds: ManualRefunds,
}

impl ReplyHandler {
    pub fn new(
        db: Db,
        links: Links,
        engine: Engine,
        voice: Option<(MediaClient, Transcriber)>,
        sender: Arc<dyn WhatsAppSender>,
    ) -> Self {
        Self {
            messages: Messages::new(db.clone()),
            refunds: ManualRefunds::new(db.clone()),
            desk: Desk::new(db.clone()),
            turns: Turns::new(db),
            links,
            engine,
            voice,
            sender,
        }
    }

    /// The answer to a Pix key sent by someone owed a guarantee refund by Pix: the key kept, and
    /// when the refund will be paid. `None` when nothing is owed or the text is no key.
    async fn pix_key_for_refund(&self, user: &User, text: &str) -> Result<Option<String>, JobError> {
        let Some(key) = PixKey::parse(text) else { return Ok(None) };
        if self.refunds.pending_for(&user.id).await.map_err(retryable)?.is_none() {
            return Ok(None);
        }
        match self.refunds.give_key(&user.id, &key).await {
            Ok(refund) => Ok(Some(manual_refunds::key_received(&refund, &key, user.language))),
            // The key is kept as first given: another one is answered, and changes nothing.
            Err(refused @ crate::error::AppError::FailedPrecondition(_)) => {
                Ok(Some(refused.message(user.language)))
            }
            Err(other) => Err(retryable(other)),
        }
    }

    /// "Typing…" on the person's latest message while the answer is composed.
    fn show_typing(&self, user: &User, claimed: &[messages::Message]) -> Option<typing::Typing> {
        let latest = claimed.iter().rev().find_map(|m| m.wa_message_id.clone())?;
        let to = user.whatsapp_address()?.to_owned();
        Some(typing::start(self.sender.clone(), to, latest, typing::REFRESH))
    }

    /// Turns the voice notes of entitled users into words, when a transcription model is
    /// configured; a note that cannot be transcribed gets the friendly "please write" reply.
    async fn transcribe(&self, user: &crate::identity::users::User, claimed: &mut [messages::Message]) {
        let Some((media, transcriber)) = &self.voice else { return };
        if !replies::entitled(user) {
            return;
        }
        for message in claimed.iter_mut().filter(|m| m.kind == MessageKind::Audio && m.content.is_empty()) {
            let Some(media_id) = self.messages.media_id(&message.id).await.ok().flatten() else {
                continue;
            };
            let heard = async {
                let audio = media.download(&media_id).await?;
                transcriber.transcribe(audio.bytes, &audio.mime_type).await
            };
            match heard.await {
                Ok(text) => {
                    if self.messages.set_content(&message.id, &text).await.is_ok() {
                        message.content = text;
                    }
                }
                Err(err) => tracing::warn!(error = %err, "a voice note could not be transcribed"),
            }
        }
    }

    /// The consultant's answer, for users entitled to it.
    async fn consult(
        &self,
        user: &crate::identity::users::User,
        text: &str,
    ) -> Result<Option<Answer>, JobError> {
        if !replies::entitled(user) {
            return Ok(None);
        }
        self.engine.answer(user, text).await.map(Some).map_err(|e| JobError::Retryable(format!("{e}")))
    }

    /// What the burst asks, the first of these that applies: a refund's Pix key, the plan's PDF, a
    /// person (the offline guide's rule; a model decides through its `request_human` tool), or
    /// else the consultant's answer.
    async fn intent(&self, user: &User, asked: &str) -> Result<Intent, JobError> {
        if let Some(answer) = self.pix_key_for_refund(user, asked).await? {
            return Ok(Intent::RefundKey(answer));
        }
        Ok(if replies::entitled(user) && plan_request::asks_for_the_plan(asked) {
            Intent::Plan
        } else if !self.engine.has_model() && handoff::asks_for_a_person(asked) {
            Intent::Person
        } else {
            Intent::Consult
        })
    }

    async fn reply(&self, job: &Job, ReplyJob { user_id }: ReplyJob) -> Result<(), JobError> {
        let Claim { user, messages: mut claimed, first_contact, taken } =
            self.turns.claim(&user_id, &job.id).await?;
        let Some(user) = user else { return Ok(()) };
        if claimed.is_empty() || taken {
            return Ok(()); // answered together with an earlier message of the burst, or by a person
        }

        let asked = replies::readable_text(&claimed);
        let intent = self.intent(&user, &asked).await?;
        let plan_asked = intent == Intent::Plan;
        let mut offer_checkins = false;
        let (user, text, choices) = match intent {
            Intent::RefundKey(text) => (user, text, Vec::new()),
            // Asked for with the reply below, in its transaction: the plan follows that reply.
            Intent::Plan => {
                let text = plan_request::on_its_way(user.language);
                (user, text, Vec::new())
            }
            Intent::Person => {
                self.desk.queue_for_a_person(&user.id, &asked).await?;
                tracing::info!(user = %user.id, "a person asked for a human consultant: queued for the admins");
                let text = replies::a_person_will_answer(&user);
                (user, text, Vec::new())
            }
            Intent::Consult => {
                let typing = self.show_typing(&user, &claimed);
                self.transcribe(&user, &mut claimed).await;
                let consultant = self.consult(&user, &replies::readable_text(&claimed)).await?;
                // The offline guide may have switched the user's language: answer in the new one
                // (the model's answer is in the language it was asked in, and its tools change
                // nobody).
                let user = match &consultant {
                    Some(answer) if answer.guided => self.turns.person(&user.id).await?.unwrap_or(user),
                    _ => user,
                };
                let choices = consultant.as_ref().map(|a| a.choices.clone()).unwrap_or_default();
                let text =
                    replies::compose(&user, first_contact, &claimed, &self.links, consultant.map(|a| a.text));
                drop(typing);
                offer_checkins = replies::entitled(&user);
                (user, text, choices)
            }
        };

        let now = self.turns.now_ms();
        let answer = turns::Answer {
            user: &user,
            text: &text,
            choices: &choices,
            answers_at: claimed.iter().map(|m| m.created_at).max().unwrap_or(now),
            then: plan_asked.then(|| plan_request::job(&user.id, user.language, now)),
            offer_checkins,
        };
        // False when a person took the conversation over meanwhile (or a retry answered): dropped.
        self.turns.answer(&job.id, answer).await?;
        Ok(())
    }
}

impl RunsJob<ReplyJob> for ReplyHandler {
    fn run<'a>(&'a self, job: &'a Job, payload: ReplyJob) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(self.reply(job, payload))
    }
}
