//! The `conversation_summary` job: folds the messages that left the model's window into the
//! person's summary (`conversation::summaries`) — written by the model from the previous summary
//! and those messages, or, without a model (or when it cannot answer), the guide's own recap: what
//! the plan holds now and how much was said.

use futures::future::BoxFuture;

use super::engine::Engine;
use crate::{
    conversation::summaries::{self, SummaryJob},
    db::{
        Db,
        jobs::{Job, JobError, JobHandler},
    },
    identity::users,
};

pub struct SummaryHandler {
    db: Db,
    engine: Engine,
}

impl SummaryHandler {
    pub fn new(db: Db, engine: Engine) -> Self {
        Self { db, engine }
    }

    async fn update(&self, job: &Job) -> Result<(), JobError> {
        let SummaryJob { user_id } = job.payload_as()?;
        let user_id = user_id.as_str();
        let mut conn = self.db.pool().acquire().await?;
        let Some(user) = users::find_by_id(&mut conn, user_id).await? else { return Ok(()) };
        let previous = summaries::get(&mut conn, user_id).await?;
        let older = summaries::to_fold_in(&mut conn, user_id).await?;
        drop(conn);
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
        let mut conn = self.db.pool().acquire().await?;
        summaries::store(&mut conn, user_id, &text, covers_until, source, self.db.now_ms()).await?;
        Ok(())
    }
}

impl JobHandler for SummaryHandler {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(self.update(job))
    }
}
