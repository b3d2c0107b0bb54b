//! The `conversation_summary` job: folds the messages that left the model's window into the
//! person's summary (`conversation::summaries`) — written by the model from the previous summary
//! and those messages, or, without a model (or when it cannot answer), the guide's own recap: what
//! the plan holds now and how much was said.

use futures::future::BoxFuture;

use super::engine::Engine;
use crate::{
    conversation::summaries::{Summaries, SummaryJob},
    db::{
        Db,
        jobs::{Job, JobError, RunsJob},
    },
    identity::users::Users,
};

/// A domain error while summarising: tried again later.
fn retryable(err: crate::error::AppError) -> JobError {
    JobError::Retryable(err.to_string())
}

pub struct SummaryHandler {
    db: Db,
    engine: Engine,
    summaries: Summaries,
}

impl SummaryHandler {
    pub fn new(db: Db, engine: Engine) -> Self {
        Self { summaries: Summaries::new(db.clone()), db, engine }
    }

    async fn update(&self, SummaryJob { user_id }: SummaryJob) -> Result<(), JobError> {
        let user_id = user_id.as_str();
        let Some(user) = Users::new(self.db.clone()).find(user_id).await? else { return Ok(()) };
        let (previous, older) = self.summaries.with_what_to_fold_in(user_id).await.map_err(retryable)?;
        let Some(last) = older.last() else { return Ok(()) };
        let covers_until = last.created_at;
        let previous_text = previous.as_ref().map(|s| s.text.as_str());
        let (text, source) = match self.engine.summarise(&user, previous_text, &older).await {
            Some(text) => (text, "model"),
            None => (
                self.engine
                    .recap(&user, older.len())
                    .await
                    .map_err(|e| JobError::Retryable(e.to_string()))?,
                "guide",
            ),
        };
        self.summaries.store(user_id, &text, covers_until, source).await.map_err(retryable)?;
        Ok(())
    }
}

impl RunsJob<SummaryJob> for SummaryHandler {
    fn run<'a>(&'a self, _job: &'a Job, payload: SummaryJob) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(self.update(payload))
    }
}
