//! The job that ends a canceled subscription when its paid period is over.

use futures::future::BoxFuture;

use super::subscriptions::ExpiryJob;
use crate::db::{
    Db,
    jobs::{Job, JobError, RunsJob},
};

pub struct ExpiryHandler {
    db: Db,
}

impl ExpiryHandler {
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

impl RunsJob<ExpiryJob> for ExpiryHandler {
    fn run<'a>(
        &'a self,
        _job: &'a Job,
        ExpiryJob { subscription_id }: ExpiryJob,
    ) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(async move {
            super::renewals::expire(&self.db, &subscription_id).await?;
            Ok(())
        })
    }
}
