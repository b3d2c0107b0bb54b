//! The job that ends a canceled subscription when its paid period is over.

use futures::future::BoxFuture;

use super::subscriptions::ExpiryJob;
use crate::db::{
    Db,
    jobs::{Job, JobError, JobHandler},
};

pub struct ExpiryHandler {
    db: Db,
}

impl ExpiryHandler {
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

impl JobHandler for ExpiryHandler {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(async move {
            let ExpiryJob { subscription_id } = job.payload_as()?;
            super::renewals::expire(&self.db, &subscription_id).await?;
            Ok(())
        })
    }
}
