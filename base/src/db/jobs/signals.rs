//! Which of this process's idle lanes a committed job wakes: only those that claim its kind. A
//! lane listens for its kinds; a commit that enqueued jobs, and the end of a subject's job (its
//! next may run now), signal the kinds concerned. A lane woken for another lane's kind would only
//! run a claim that finds nothing — on SQLite a turn of the one writer, on PostgreSQL a statement
//! that locks the queue's index — so each reply (a reply job, then a send) woke all three lanes
//! four times, nine claims in ten for nothing. Jobs committed by another process are found by
//! the lanes' poll.

use std::sync::{Arc, Mutex, Weak};

use tokio::sync::Notify;

/// The lanes listening, each with the kinds it claims.
#[derive(Debug, Default)]
pub struct JobSignals {
    listening: Mutex<Vec<(Vec<&'static str>, Weak<Notify>)>>,
}

impl JobSignals {
    /// What a lane waits on: notified when a job of one of `kinds` may be claimed. Listening ends
    /// when the lane drops it.
    pub fn listen(&self, kinds: &[&'static str]) -> Arc<Notify> {
        let notify = Arc::new(Notify::new());
        let mut listening = self.listening.lock().expect("the job signals are never poisoned");
        listening.retain(|(_, lane)| lane.strong_count() > 0);
        listening.push((kinds.to_vec(), Arc::downgrade(&notify)));
        notify
    }

    /// Wakes the idle lanes that claim `kind`.
    pub fn added(&self, kind: &str) {
        let listening = self.listening.lock().expect("the job signals are never poisoned");
        for (kinds, lane) in listening.iter() {
            if kinds.contains(&kind)
                && let Some(lane) = lane.upgrade()
            {
                lane.notify_waiters();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    async fn woken(notified: std::pin::Pin<&mut tokio::sync::futures::Notified<'_>>) -> bool {
        tokio::time::timeout(Duration::from_millis(50), notified).await.is_ok()
    }

    #[tokio::test(start_paused = true)]
    async fn a_job_wakes_the_lanes_that_claim_its_kind_and_no_other() {
        let signals = JobSignals::default();
        let replies = signals.listen(&["reply"]);
        let shared = signals.listen(&["notice", "summary"]);
        let (for_replies, for_shared) = (replies.notified(), shared.notified());
        tokio::pin!(for_replies, for_shared);
        for_replies.as_mut().enable();
        for_shared.as_mut().enable();

        signals.added("summary");

        assert!(woken(for_shared).await, "the shared lane claims summaries");
        assert!(!woken(for_replies).await, "the replies' lane does not");
    }

    #[tokio::test(start_paused = true)]
    async fn a_lane_that_stopped_stops_listening() {
        let signals = JobSignals::default();
        drop(signals.listen(&["reply"]));
        let _sends = signals.listen(&["send"]);
        signals.added("reply");
        assert_eq!(signals.listening.lock().unwrap().len(), 1, "the stopped lane's place is given back");
    }
}
