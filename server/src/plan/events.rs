//! Live plan changes for open dashboards (`WatchBusinessPlan`): every applied change is published
//! here after its transaction commits. In one process this is a broadcast channel; watchers that
//! fall behind catch up from the change feed by cursor.

use tokio::sync::broadcast;

use super::store::{Change, Status};

#[derive(Clone, Debug)]
pub struct PlanEvent {
    pub user_id: String,
    pub change: Change,
    pub progress: i32,
    pub status: Status,
}

#[derive(Clone)]
pub struct PlanEvents {
    sender: broadcast::Sender<PlanEvent>,
}

impl Default for PlanEvents {
    fn default() -> Self {
        Self { sender: broadcast::channel(1024).0 }
    }
}

impl PlanEvents {
    pub fn publish(&self, event: PlanEvent) {
        let _ = self.sender.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<PlanEvent> {
        self.sender.subscribe()
    }
}
