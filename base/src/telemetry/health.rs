//! What the health endpoints read, as a service: whether the database answers (within 2 s), and
//! the job queue's depth by kind at this moment. The health adapter holds no database.

use std::{sync::Arc, time::Duration};

use super::metrics::QueueDepth;
use crate::db::{Db, jobs};

#[derive(Clone)]
pub struct Health {
    db: Db,
    /// The job kinds this server runs, each shown even with nothing queued.
    kinds: Arc<[&'static str]>,
}

impl Health {
    pub fn new(db: Db, kinds: Vec<&'static str>) -> Self {
        Self { db, kinds: Arc::from(kinds) }
    }

    /// Whether the database answers a statement now.
    pub async fn ready(&self) -> bool {
        self.db.is_ready().await
    }

    /// The queue by kind; left out (empty), not invented, when the database cannot be read.
    /// Today in São Paulo (YYYY-MM-DD), by the application's clock.
    pub fn today(&self) -> String {
        crate::clock::CivilDate::in_sao_paulo(self.db.now_ms()).iso()
    }

    pub async fn queue(&self) -> Vec<QueueDepth> {
        match jobs::depth(&self.db, &self.kinds).await {
            Ok(depths) => depths
                .into_iter()
                .map(|d| QueueDepth {
                    kind: d.kind,
                    due: d.due,
                    running: d.running,
                    oldest_due: Duration::from_millis(d.oldest_due_ms as u64),
                })
                .collect(),
            Err(err) => {
                tracing::warn!(error = %err, "the job queue could not be read for the metrics");
                Vec::new()
            }
        }
    }
}
