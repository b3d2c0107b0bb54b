//! Notifications between server processes sharing one PostgreSQL (LISTEN/NOTIFY), so that what
//! happens through one process reaches clients connected to another. A notification is sent in
//! the writer's transaction and delivered when it commits. On SQLite there is one process: nothing
//! is sent and nobody listens.

use std::time::Duration;

use sqlx::AnyConnection;
use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use super::{Db, Engine};

/// Queues `payload` on `channel`, delivered to every listener when the transaction commits.
pub async fn notify(
    db: &Db,
    conn: &mut AnyConnection,
    channel: &str,
    payload: &str,
) -> Result<(), sqlx::Error> {
    if db.engine() == Engine::Postgres {
        sqlx::query("select pg_notify($1, $2)").bind(channel).bind(payload).execute(conn).await?;
    }
    Ok(())
}

/// Whether notifications cross processes here (PostgreSQL).
pub fn shared(db: &Db) -> bool {
    db.engine() == Engine::Postgres
}

/// Payloads sent on `channel` by any process, this one included; None on SQLite. The listener
/// reconnects by itself when its connection drops (notifications sent meanwhile are lost; a
/// watcher catches up from the change feed by cursor).
pub async fn listen(db: &Db, channel: &'static str) -> Result<Option<mpsc::Receiver<String>>, sqlx::Error> {
    if db.engine() != Engine::Postgres {
        return Ok(None);
    }
    let mut listener = PgListener::connect(db.url()).await?;
    listener.listen(channel).await?;
    let (sender, receiver) = mpsc::channel(1024);
    tokio::spawn(async move {
        loop {
            match listener.recv().await {
                Ok(notification) => {
                    if sender.send(notification.payload().to_owned()).await.is_err() {
                        return; // nobody reads any more: the server is stopping
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, channel, "listening for notifications failed; retrying");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    });
    Ok(Some(receiver))
}
