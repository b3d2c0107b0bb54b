//! Every kind of work the application does in the background, as one enum of payloads: a claimed
//! job is read into its variant once (its stored `kind` is the tag, its payload the variant's
//! fields) and handed to its handler by a match the compiler checks, so a kind without a handler,
//! or a handler without its kind, does not build. The string kinds live only in the rows (each
//! payload's `JobPayload::KIND`) and in the lanes that claim them, both derived from here.

use std::sync::Arc;

use futures::future::BoxFuture;

use crate::{
    billing::{
        cancellation::ProviderCancelHandler,
        expiry::ExpiryHandler,
        subscriptions::{ExpiryJob, ProviderCancelJob},
    },
    config::JobsConfig,
    consultant::{
        memory::SummaryHandler, plan_delivery::PlanDocumentHandler, plan_request::PlanDocumentJob,
        worker::ReplyHandler,
    },
    conversation::{
        delivery::{NoticeHandler, SendHandler, SendJob},
        inbox::ReplyJob,
        summaries::SummaryJob,
    },
    db::jobs::{Handlers, Job, JobError, JobHandler, JobPayload, RunsJob},
    whatsapp::notices::NoticeJob,
};

/// A claimed job, read as what it asks.
#[derive(Debug)]
pub enum Work {
    /// Answer a person's messages (the model or the guide).
    Reply(ReplyJob),
    /// Send one message on WhatsApp.
    Send(SendJob),
    /// Make the plan's PDF and send it on WhatsApp.
    PlanDocument(PlanDocumentJob),
    /// Bring a conversation's summary up to date.
    Summary(SummaryJob),
    /// Keep a lower domain's notice in the conversation and send it.
    Notice(NoticeJob),
    /// End a subscription whose paid time ran out.
    Expiry(ExpiryJob),
    /// Cancel a subscription at the payment provider.
    ProviderCancel(ProviderCancelJob),
}

/// Where a kind's jobs run: a lane of their own with its capacity, or the shared lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    Own(usize),
    Shared,
}

impl Work {
    /// Every kind, with its lane: slow work (the model) and the sends have lanes of their own, so
    /// they never wait for, nor hold up, the rest.
    pub fn kinds(jobs: &JobsConfig) -> [(&'static str, Lane); 7] {
        [
            (ReplyJob::KIND, Lane::Own(jobs.model_calls)),
            (SendJob::KIND, Lane::Own(jobs.sends)),
            (PlanDocumentJob::KIND, Lane::Shared),
            (SummaryJob::KIND, Lane::Shared),
            (NoticeJob::KIND, Lane::Shared),
            (ExpiryJob::KIND, Lane::Shared),
            (ProviderCancelJob::KIND, Lane::Shared),
        ]
    }

    /// The job's payload as its kind's variant. A kind nobody handles, or a payload that does not
    /// read, fails for good: running it again would fail the same way.
    pub fn read(job: &Job) -> Result<Self, JobError> {
        Ok(match job.kind.as_str() {
            ReplyJob::KIND => Self::Reply(job.payload_as()?),
            SendJob::KIND => Self::Send(job.payload_as()?),
            PlanDocumentJob::KIND => Self::PlanDocument(job.payload_as()?),
            SummaryJob::KIND => Self::Summary(job.payload_as()?),
            NoticeJob::KIND => Self::Notice(job.payload_as()?),
            ExpiryJob::KIND => Self::Expiry(job.payload_as()?),
            ProviderCancelJob::KIND => Self::ProviderCancel(job.payload_as()?),
            other => return Err(JobError::Permanent(format!("no handler runs {other} jobs"))),
        })
    }
}

/// The handler of each kind of work.
pub struct Workers {
    pub reply: ReplyHandler,
    pub send: SendHandler,
    pub plan_document: PlanDocumentHandler,
    pub summary: SummaryHandler,
    pub notice: NoticeHandler,
    pub expiry: ExpiryHandler,
    pub provider_cancel: ProviderCancelHandler,
}

impl Workers {
    /// The lanes' handlers: every kind of [`Work`] in its lane, all run by these workers.
    pub fn into_handlers(self, jobs: &JobsConfig) -> Handlers {
        let workers: Arc<dyn JobHandler> = Arc::new(self);
        Work::kinds(jobs).into_iter().fold(Handlers::new(), |handlers, (kind, lane)| match lane {
            Lane::Own(capacity) => handlers.register_in_lane(kind, workers.clone(), capacity),
            Lane::Shared => handlers.register(kind, workers.clone()),
        })
    }
}

impl JobHandler for Workers {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(async move {
            match Work::read(job)? {
                Work::Reply(payload) => self.reply.run(job, payload).await,
                Work::Send(payload) => self.send.run(job, payload).await,
                Work::PlanDocument(payload) => self.plan_document.run(job, payload).await,
                Work::Summary(payload) => self.summary.run(job, payload).await,
                Work::Notice(payload) => self.notice.run(job, payload).await,
                Work::Expiry(payload) => self.expiry.run(job, payload).await,
                Work::ProviderCancel(payload) => self.provider_cancel.run(job, payload).await,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(kind: &str, payload: serde_json::Value) -> Job {
        Job::first_claim(kind, payload)
    }

    fn jobs_config() -> JobsConfig {
        crate::config::Config::from_source(&std::collections::HashMap::from([(
            "JWT_SECRET".to_owned(),
            "x".repeat(40),
        )]))
        .unwrap()
        .jobs
    }

    #[test]
    fn every_kind_a_lane_claims_is_read_as_its_own_work() {
        let kinds = Work::kinds(&jobs_config());
        let tags: std::collections::BTreeSet<_> = kinds.iter().map(|(kind, _)| *kind).collect();
        assert_eq!(tags.len(), kinds.len(), "a kind listed twice: {kinds:?}");
        for (kind, _) in kinds {
            // An empty payload fails as a payload of that kind, never as a kind nobody runs.
            let Err(JobError::Permanent(why)) = Work::read(&job(kind, serde_json::json!({}))) else {
                panic!("{kind}: an empty payload read");
            };
            assert!(why.contains(&format!("a {kind} job's payload")), "{kind}: {why}");
        }
    }

    #[test]
    fn a_stored_reply_job_is_read_with_its_fields_and_an_unknown_kind_fails_for_good() {
        let read = Work::read(&job(ReplyJob::KIND, serde_json::json!({"userId": "u1"}))).unwrap();
        assert!(matches!(read, Work::Reply(ReplyJob { ref user_id }) if user_id == "u1"), "{read:?}");
        let Err(JobError::Permanent(why)) = Work::read(&job("export", serde_json::json!({}))) else {
            panic!("an unknown kind must fail for good");
        };
        assert!(why.contains("no handler runs export jobs"), "{why}");
    }

    #[test]
    fn replies_and_sends_have_lanes_of_their_own_at_the_configured_capacity() {
        let config = jobs_config();
        let kinds = Work::kinds(&config);
        assert!(kinds.contains(&(ReplyJob::KIND, Lane::Own(config.model_calls))));
        assert!(kinds.contains(&(SendJob::KIND, Lane::Own(config.sends))));
        assert_eq!(kinds.iter().filter(|(_, lane)| *lane == Lane::Shared).count(), 5);
    }
}
