//! Completions gathered: the jobs of this process that end while the writer is busy are marked done
//! together, in one statement, instead of one turn at the writer each. A job's runner hands its
//! ending to one task and waits for the answer; the task takes every ending waiting at that moment
//! (up to [`COMPLETE_AT_ONCE`]), so under load a turn completes dozens and when idle one ends at
//! once. Each is completed only while its runner still holds it (its lock token), as one at a time.

use tokio::sync::{mpsc, oneshot};

use super::{Job, queue::Queue};

/// The most jobs one statement completes.
pub(super) const COMPLETE_AT_ONCE: usize = 64;

/// A job that ended well, waiting to be marked done.
struct Ending {
    id: String,
    lock: String,
    /// Whether this runner still held it; the database's error said in words (it is shared).
    done: oneshot::Sender<Result<bool, String>>,
}

/// Where runners hand their endings; the gathering task ends once every sender is gone.
#[derive(Clone)]
pub(super) struct Completions {
    endings: mpsc::UnboundedSender<Ending>,
}

impl Completions {
    /// The sender, and the task that completes what it is handed (to run until the lanes are done).
    pub(super) fn start(queue: Queue) -> (Self, impl Future<Output = ()> + Send + 'static) {
        let (endings, waiting) = mpsc::unbounded_channel();
        (Self { endings }, gather(queue, waiting))
    }

    /// Marks `job` done: false when this runner no longer held it (its lease ran out and another
    /// worker took it over).
    pub(super) async fn complete(&self, queue: &Queue, job: &Job) -> Result<bool, String> {
        let (done, answer) = oneshot::channel();
        let ending = Ending { id: job.id.clone(), lock: job.lock.clone(), done };
        if self.endings.send(ending).is_err() {
            return queue.complete(job).await.map_err(|e| e.to_string());
        }
        match answer.await {
            Ok(outcome) => outcome,
            // The task is gone (the runtime stopping): complete it here.
            Err(_) => queue.complete(job).await.map_err(|e| e.to_string()),
        }
    }
}

async fn gather(queue: Queue, mut waiting: mpsc::UnboundedReceiver<Ending>) {
    while let Some(first) = waiting.recv().await {
        let mut batch = vec![first];
        while batch.len() < COMPLETE_AT_ONCE {
            match waiting.try_recv() {
                Ok(ending) => batch.push(ending),
                Err(_) => break,
            }
        }
        let keys: Vec<(&str, &str)> = batch.iter().map(|e| (e.id.as_str(), e.lock.as_str())).collect();
        match queue.complete_many(&keys).await {
            Ok(done) => {
                for ending in batch {
                    let held = done.contains(&ending.id);
                    let _ = ending.done.send(Ok(held));
                }
            }
            Err(err) => {
                let said = err.to_string();
                for ending in batch {
                    let _ = ending.done.send(Err(said.clone()));
                }
            }
        }
    }
}
