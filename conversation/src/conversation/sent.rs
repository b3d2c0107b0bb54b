//! Sends taken and recorded together. A queued message is taken for its request to Meta
//! (`queued` → `sending`) and, once WhatsApp accepts it, marked `sent` with its wamid; the send
//! jobs that reach either step while the statement before runs go together in the next one (up to
//! [`AT_ONCE`]), so that a crowd's thousand replies take dozens of round trips to the database
//! instead of a thousand each, each a commit (issue 46: on PostgreSQL, sharing the machine's two
//! cores, every round trip is CPU taken from the replies). When the sends are few, each goes at
//! once, alone. Should a gathered statement fail, each of its sends is done alone, so that one row
//! the database refuses (a wamid already kept) fails only its own send.

use crate::error::AppError;
use std::sync::{Arc, OnceLock};

use futures::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use super::messages;
use crate::db::Db;

/// The most sends one statement takes or records.
const AT_ONCE: usize = 64;

/// The sends' two steps on the database, gathered; each step's task starts with its first send and
/// ends with this.
pub(in crate::conversation) struct SendSteps {
    takes: Gathered<String, bool>,
    records: Gathered<(String, String), ()>,
}

impl SendSteps {
    pub(in crate::conversation) fn new(db: Db) -> Self {
        Self {
            takes: Gathered::new(
                db.clone(),
                Arc::new(|db, ids: Vec<String>| {
                    Box::pin(async move {
                        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
                        let mut taken = messages::mark_sending_many(&db, &ids).await?;
                        // Each taken message is one send's: a second send of the same id, had it
                        // come, is told no, as it would be alone.
                        Ok(ids
                            .iter()
                            .map(|id| {
                                taken.iter().position(|t| t == id).map(|at| taken.swap_remove(at)).is_some()
                            })
                            .collect())
                    })
                }),
                Arc::new(|db, id: String| Box::pin(async move { messages::mark_sending(&db, &id).await })),
            ),
            records: Gathered::new(
                db,
                Arc::new(|db, sends: Vec<(String, String)>| {
                    Box::pin(async move {
                        let pairs: Vec<(&str, &str)> =
                            sends.iter().map(|(i, w)| (i.as_str(), w.as_str())).collect();
                        messages::record_sent_many(&db, &pairs).await?;
                        Ok(vec![(); sends.len()])
                    })
                }),
                Arc::new(|db, (id, wamid): (String, String)| {
                    Box::pin(async move { messages::record_sent(&db, &id, &wamid).await })
                }),
            ),
        }
    }

    /// Takes queued message `id` for its request to Meta: true when this call moved it to `sending`.
    pub(in crate::conversation) async fn take(&self, id: &str) -> Result<bool, String> {
        self.takes.run(id.to_owned()).await
    }

    /// Marks message `id` sent as `wa_message_id` (if it is still queued or sending).
    pub(in crate::conversation) async fn record_sent(
        &self,
        id: &str,
        wa_message_id: &str,
    ) -> Result<(), String> {
        self.records.run((id.to_owned(), wa_message_id.to_owned())).await
    }
}

/// One statement for many items: each item's outcome, in order.
type Many<I, O> = Arc<dyn Fn(Db, Vec<I>) -> BoxFuture<'static, Result<Vec<O>, AppError>> + Send + Sync>;
/// The same step for one item alone.
type One<I, O> = Arc<dyn Fn(Db, I) -> BoxFuture<'static, Result<O, AppError>> + Send + Sync>;

/// An item waiting for its step, and where its outcome goes (in words: one error may be many's).
type Waiting<I, O> = (I, oneshot::Sender<Result<O, String>>);

/// A step whose items, arriving while a statement runs, go together in the next.
struct Gathered<I, O> {
    db: Db,
    many: Many<I, O>,
    one: One<I, O>,
    items: OnceLock<mpsc::UnboundedSender<Waiting<I, O>>>,
}

impl<I: Clone + Send + 'static, O: Send + 'static> Gathered<I, O> {
    fn new(db: Db, many: Many<I, O>, one: One<I, O>) -> Self {
        Self { db, many, one, items: OnceLock::new() }
    }

    async fn run(&self, item: I) -> Result<O, String> {
        let items = self.items.get_or_init(|| {
            let (items, waiting) = mpsc::unbounded_channel();
            tokio::spawn(gather(self.db.clone(), self.many.clone(), self.one.clone(), waiting));
            items
        });
        let (done, outcome) = oneshot::channel();
        if let Err(mpsc::error::SendError((item, _))) = items.send((item, done)) {
            return alone(&self.db, &self.one, item).await;
        }
        outcome.await.unwrap_or_else(|_| Err("the database's step stopped with the server".into()))
    }
}

async fn alone<I, O>(db: &Db, one: &One<I, O>, item: I) -> Result<O, String> {
    one(db.clone(), item).await.map_err(|e| format!("database: {e}"))
}

async fn gather<I: Clone, O>(
    db: Db,
    many: Many<I, O>,
    one: One<I, O>,
    mut waiting: mpsc::UnboundedReceiver<Waiting<I, O>>,
) {
    while let Some(first) = waiting.recv().await {
        let mut batch = vec![first];
        while batch.len() < AT_ONCE {
            match waiting.try_recv() {
                Ok(more) => batch.push(more),
                Err(_) => break,
            }
        }
        if batch.len() > 1 {
            let items: Vec<I> = batch.iter().map(|(item, _)| item.clone()).collect();
            if let Ok(outcomes) = many(db.clone(), items).await {
                for ((_, done), outcome) in batch.into_iter().zip(outcomes) {
                    let _ = done.send(Ok(outcome));
                }
                continue;
            }
        }
        for (item, done) in batch {
            let _ = done.send(alone(&db, &one, item).await);
        }
    }
}

#[cfg(test)]
mod tests {
    use sqlx::Row;

    use super::*;

    async fn queued(db: &Db, id: &str) {
        sqlx::query(
            "insert into messages (id, user_id, direction, author, kind, content, status, created_at, updated_at) \
             values ($1, 'u1', 'outbound', 'assistant', 'text', 'Olá', 'sending', 1, 1)",
        )
        .bind(id)
        .execute(&mut *db.writer().await.unwrap())
        .await
        .unwrap();
    }

    async fn exec(db: &Db, sql: &'static str) {
        sqlx::query(sql).execute(&mut *db.writer().await.unwrap()).await.unwrap();
    }

    async fn stored(db: &Db, id: &str) -> (String, Option<String>) {
        let row = sqlx::query("select status, wa_message_id from messages where id = $1")
            .bind(id)
            .fetch_one(db.pool())
            .await
            .unwrap();
        (row.try_get("status").unwrap(), row.try_get("wa_message_id").unwrap())
    }

    async fn database() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/sent.db", dir.path().display())).await.unwrap();
        db.migrate().await.unwrap();
        exec(&db, "insert into users (id, phone_number, created_at, updated_at) values ('u1', '+5511987654321', 0, 0)")
            .await;
        (dir, db)
    }

    #[tokio::test]
    async fn sends_that_reach_the_take_together_each_take_their_own_queued_message_once() {
        let (_dir, db) = database().await;
        for n in 0..30 {
            queued(&db, &format!("m{n}")).await;
        }
        exec(&db, "update messages set status = 'queued'").await;
        exec(&db, "update messages set status = 'sent' where id = 'm5'").await;
        let steps = std::sync::Arc::new(SendSteps::new(db.clone()));
        let mut takes = tokio::task::JoinSet::new();
        // Every message once, and m9 a second time: one of its two sends may take it, never both.
        for n in (0..30).chain([9]) {
            let steps = steps.clone();
            takes.spawn(async move { (n, steps.take(&format!("m{n}")).await.unwrap()) });
        }
        let mut taken = Vec::new();
        while let Some(took) = takes.join_next().await {
            let (n, took) = took.unwrap();
            if took {
                taken.push(n);
            }
        }
        taken.sort();
        let expected: Vec<i32> = (0..30).filter(|n| *n != 5).collect();
        assert_eq!(taken, expected, "each queued message taken once; the one sent before, never");
        for n in expected {
            assert_eq!(stored(&db, &format!("m{n}")).await.0, "sending");
        }
    }

    #[tokio::test]
    async fn sends_that_end_together_are_each_recorded_with_their_own_wamid_and_a_refused_one_fails_alone() {
        let (_dir, db) = database().await;
        for n in 0..40 {
            queued(&db, &format!("m{n}")).await;
        }
        // A message already kept under the wamid one of the sends will claim: the database refuses
        // that send's row (the wamid is unique).
        queued(&db, "kept").await;
        exec(&db, "update messages set status = 'sent', wa_message_id = 'wamid.dup' where id = 'kept'").await;

        let steps = std::sync::Arc::new(SendSteps::new(db.clone()));
        let mut ends = tokio::task::JoinSet::new();
        for n in 0..40 {
            let steps = steps.clone();
            let wamid = if n == 17 { "wamid.dup".to_owned() } else { format!("wamid.{n}") };
            ends.spawn(async move { (n, steps.record_sent(&format!("m{n}"), &wamid).await) });
        }
        let mut refused = Vec::new();
        while let Some(ended) = ends.join_next().await {
            let (n, outcome) = ended.unwrap();
            if outcome.is_err() {
                refused.push(n);
            }
        }
        assert_eq!(refused, [17], "only the refused row's send fails");
        for n in (0..40).filter(|n| *n != 17) {
            assert_eq!(stored(&db, &format!("m{n}")).await, ("sent".to_owned(), Some(format!("wamid.{n}"))));
        }
        assert_eq!(stored(&db, "m17").await, ("sending".to_owned(), None), "left as it was");

        // One statement for several: each message gets its own wamid, and one sent before keeps its own.
        for id in ["a", "b", "c"] {
            queued(&db, id).await;
        }
        let sends = [("a", "wamid.a"), ("b", "wamid.b"), ("m3", "wamid.other"), ("c", "wamid.c")];
        messages::record_sent_many(&db, &sends).await.unwrap();
        for id in ["a", "b", "c"] {
            assert_eq!(stored(&db, id).await, ("sent".to_owned(), Some(format!("wamid.{id}"))));
        }
        assert_eq!(stored(&db, "m3").await.1.as_deref(), Some("wamid.3"), "sent before: never again");
    }
}
