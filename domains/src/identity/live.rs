//! Live sessions: whether an access token's session still stands, answered from memory. Each
//! process keeps the callers it authenticated (user row and session end) by session, and forgets a
//! user's or a session's entries as soon as a change to them is announced (`changes`), whichever
//! process made it; an entry is also re-read after [`FRESH_FOR_MS`] in case a notice was missed (a
//! PostgreSQL listener reconnecting). Streams ask [`LiveSessions::ended`] to learn when to stop.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::broadcast::Receiver;

use super::{
    changes::{self, Change, Heard},
    users::{self, User},
};
use crate::db::{Db, Notice};
use crate::error::AppError;

/// How long an entry is trusted without a notice, on the application's clock.
pub const FRESH_FOR_MS: i64 = 30_000;
/// Entries kept at most; beyond it the cache starts over (it only ever saves a query).
const CAPACITY: usize = 100_000;

/// A session that stands: its user as they are now, and when the session itself ends (ms).
#[derive(Clone, Debug)]
pub struct Live {
    pub user: User,
    pub session_ends_at: i64,
}

#[derive(Clone)]
pub struct LiveSessions {
    db: Db,
    state: Arc<Mutex<State>>,
}

struct State {
    entries: HashMap<String, Entry>,
    notices: Receiver<Notice>,
    /// Bumped whenever an entry may have gone stale: a lookup that started before a bump does not
    /// store what it read, which the change may already have outdated.
    generation: u64,
}

struct Entry {
    live: Live,
    /// When it was read, on the application's clock (ms).
    read_at: i64,
}

impl State {
    /// Applies the notices heard since the last look.
    fn catch_up(&mut self) {
        for heard in changes::heard(&mut self.notices) {
            match heard {
                Heard::Change(Change::Session(session)) => {
                    self.entries.remove(&session);
                }
                Heard::Change(Change::User(user)) => self.entries.retain(|_, e| e.live.user.id != user),
                // Nobody's session is cached before they exist.
                Heard::Change(Change::Joined(_)) => continue,
                Heard::Missed => self.entries.clear(),
            }
            self.generation += 1;
        }
    }
}

impl LiveSessions {
    /// Starts hearing changes (on PostgreSQL, every process's).
    pub async fn start(db: Db) -> Result<Self, AppError> {
        let notices = db.notices();
        db.relay(changes::CHANNEL).await?;
        let state = State { entries: HashMap::new(), notices, generation: 0 };
        Ok(Self { db, state: Arc::new(Mutex::new(state)) })
    }

    /// The session when it stands and belongs to the user; None when it does not exist, is
    /// another user's, was ended, or ran out.
    pub async fn find(&self, user_id: &str, session_id: &str) -> Result<Option<Live>, AppError> {
        let generation = {
            let mut state = self.state.lock().expect("the session cache is never poisoned");
            state.catch_up();
            let now = self.db.now_ms();
            if let Some(entry) = state.entries.get(session_id)
                && (0..FRESH_FOR_MS).contains(&(now - entry.read_at))
                && entry.live.user.id == user_id
                && entry.live.session_ends_at > self.db.now_ms()
            {
                return Ok(Some(entry.live.clone()));
            }
            state.generation
        };
        let live = self.read(user_id, session_id).await?;
        let mut state = self.state.lock().expect("the session cache is never poisoned");
        state.catch_up();
        match &live {
            Some(live) if state.generation == generation => {
                if state.entries.len() >= CAPACITY {
                    state.entries.clear();
                }
                state
                    .entries
                    .insert(session_id.to_owned(), Entry { live: live.clone(), read_at: self.db.now_ms() });
            }
            Some(_) => {}
            None => {
                state.entries.remove(session_id);
            }
        }
        Ok(live)
    }

    async fn read(&self, user_id: &str, session_id: &str) -> Result<Option<Live>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        Ok(users::find_session_user(&mut conn, user_id, session_id, self.db.now_ms())
            .await?
            .map(|(user, session_ends_at)| Live { user, session_ends_at }))
    }

    /// Resolves when the caller's session no longer stands: ended, erased, their role changed — or
    /// at `token_expires_at` (ms), when their access token runs out. Each change announced about
    /// them is checked against the database, so a change that leaves the session standing (a new
    /// tier) does not end it.
    /// It hears changes from the moment it is called, before it is first awaited.
    pub fn ended(
        &self,
        user_id: String,
        session_id: String,
        token_expires_at: i64,
    ) -> impl Future<Output = ()> + Send + 'static {
        let mut notices = self.db.notices();
        let this = self.clone();
        async move { this.watch_for_end(&mut notices, &user_id, &session_id, token_expires_at).await }
    }

    async fn watch_for_end(
        &self,
        notices: &mut Receiver<Notice>,
        user_id: &str,
        session_id: &str,
        token_expires_at: i64,
    ) {
        // On the app's clock: a test (or an operator's correction) moving it past the token's end
        // ends the watch at once.
        let clock = self.db.clock().clone();
        let expiry = async move { clock.sleep_until(token_expires_at).await };
        tokio::pin!(expiry);
        loop {
            let check = tokio::select! {
                _ = &mut expiry => return,
                heard = notices.recv() => match heard {
                    Ok(notice) => notice.channel == changes::CHANNEL
                        && Change::parse(&notice.payload).is_some_and(|c| c.concerns(user_id, session_id)),
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
                    // The server is stopping: the stream ends with it.
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                },
            };
            if check {
                match self.read(user_id, session_id).await {
                    Ok(Some(live)) if live.user.id == user_id => {}
                    Ok(_) => return,
                    Err(error) => tracing::warn!(%error, "could not check a stream's session; it stays open"),
                }
            }
        }
    }
}
