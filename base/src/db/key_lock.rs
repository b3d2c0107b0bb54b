//! One at a time per key, across tasks and server processes: work that must not run twice side
//! by side for the same thing (opening a person's checkout, which may call Stripe) holds the key's
//! lock. Within a process a mutex per key; on PostgreSQL also a transaction-scoped advisory lock,
//! so that other processes sharing the database wait too. Dropping the guard releases both.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::OwnedMutexGuard;

use super::{Db, Engine, Tx};

/// The mutexes of the keys this process has locked lately.
pub type LocalLocks = Arc<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>>;

/// Held while the key is locked.
pub struct KeyLock {
    _local: OwnedMutexGuard<()>,
    /// PostgreSQL's advisory lock lives as long as this transaction, which commits nothing.
    _shared: Option<Tx>,
}

impl Db {
    /// Waits for `key`'s lock and holds it until the guard is dropped.
    pub async fn lock_key(&self, key: &str) -> Result<KeyLock, sqlx::Error> {
        let mutex = {
            let mut locks = self.local_locks.lock().expect("the key locks are never poisoned");
            if locks.len() > 1024 {
                locks.retain(|_, m| Arc::strong_count(m) > 1);
            }
            locks.entry(key.to_owned()).or_default().clone()
        };
        let local = mutex.lock_owned().await;
        let shared = match self.engine {
            Engine::Sqlite => None, // one process: the mutex is the lock
            Engine::Postgres => {
                let mut tx = self.begin().await?;
                sqlx::query("select pg_advisory_xact_lock(hashtext($1))").bind(key).execute(&mut *tx).await?;
                Some(tx)
            }
        };
        Ok(KeyLock { _local: local, _shared: shared })
    }
}
