//! The job that ends a canceled subscription when its paid period is over.

use futures::future::BoxFuture;

use super::subscriptions;
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
            let id = job.payload["subscriptionId"]
                .as_str()
                .ok_or_else(|| JobError::Permanent("no subscriptionId".into()))?;
            subscriptions::expire(&self.db, id).await?;
            Ok(())
        })
    }
}
