//! How many users the admin's list holds, remembered between pages. Counting every user is a scan
//! that grows with the database (8 ms for 30k users on PostgreSQL, more than the rest of a page), so
//! a total is counted again only when a user joined, left or changed (announced on
//! [`changes::CHANNEL`] by whichever process did it, at its commit) or once [`FRESH_FOR_MS`] has
//! passed on the clock, in case a notice was missed; a page otherwise reads its twenty rows only.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::broadcast::Receiver;

use super::changes::{self, Change, Heard};
use crate::db::{Db, Notice};

/// How long a counted total is trusted without a notice.
pub const FRESH_FOR_MS: i64 = 30_000;

/// The totals counted by this process, by the list's filter.
#[derive(Clone)]
pub struct Totals {
    state: Arc<Mutex<State>>,
}

struct State {
    counted: HashMap<String, Counted>,
    notices: Receiver<Notice>,
    /// Bumped by every change: a count that started before a bump is not kept, since the change
    /// may have landed after the count read the table.
    generation: u64,
}

struct Counted {
    total: i64,
    at_ms: i64,
}

impl State {
    fn catch_up(&mut self) {
        for heard in changes::heard(&mut self.notices) {
            // A session's end changes no count; anything about a user may.
            if matches!(heard, Heard::Change(Change::User(_) | Change::Joined(_)) | Heard::Missed) {
                self.counted.clear();
                self.generation += 1;
            }
        }
    }
}

/// Where a count began: hand it back to [`Totals::keep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountStarted(u64);

impl Totals {
    /// Hears the changes this process hears from now on (every process's, once the database
    /// relays [`changes::CHANNEL`], as the live sessions ask it to at start).
    pub fn new(db: &Db) -> Self {
        let state = State { counted: HashMap::new(), notices: db.notices(), generation: 0 };
        Self { state: Arc::new(Mutex::new(state)) }
    }

    /// The total remembered for `filter` when nothing changed since and it is fresh at `now_ms`;
    /// otherwise where the count about to be made begins.
    pub fn remembered(&self, filter: &str, now_ms: i64) -> Result<i64, CountStarted> {
        let mut state = self.state.lock().expect("the totals' lock");
        state.catch_up();
        match state.counted.get(filter) {
            Some(c) if (0..FRESH_FOR_MS).contains(&(now_ms - c.at_ms)) => Ok(c.total),
            _ => Err(CountStarted(state.generation)),
        }
    }

    /// Keeps a count for `filter`, unless a change was heard since it began.
    pub fn keep(&self, filter: &str, total: i64, started: CountStarted, now_ms: i64) {
        let mut state = self.state.lock().expect("the totals' lock");
        state.catch_up();
        if state.generation == started.0 {
            state.counted.insert(filter.to_owned(), Counted { total, at_ms: now_ms });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Notice;

    fn totals() -> (Totals, tokio::sync::broadcast::Sender<Notice>) {
        let (sender, notices) = tokio::sync::broadcast::channel(16);
        let state = State { counted: HashMap::new(), notices, generation: 0 };
        (Totals { state: Arc::new(Mutex::new(state)) }, sender)
    }

    fn notice(payload: &str) -> Notice {
        Notice { channel: changes::CHANNEL, payload: payload.to_owned() }
    }

    #[test]
    fn a_count_is_served_again_until_it_goes_stale_on_the_clock() {
        let (totals, _sender) = totals();
        let started = totals.remembered("all", 1_000).unwrap_err();
        totals.keep("all", 42, started, 1_000);
        assert_eq!(totals.remembered("all", 1_000 + FRESH_FOR_MS - 1), Ok(42));
        assert!(totals.remembered("all", 1_000 + FRESH_FOR_MS).is_err(), "stale after FRESH_FOR_MS");
        assert!(totals.remembered("pro", 1_000).is_err(), "each filter is counted on its own");
    }

    #[test]
    fn a_user_joining_or_changing_forgets_every_count_and_a_session_ending_does_not() {
        for (payload, forgets) in [("session s-1", false), ("joined u-2", true), ("user u-1", true)] {
            let (totals, sender) = totals();
            let started = totals.remembered("all", 0).unwrap_err();
            totals.keep("all", 7, started, 0);
            sender.send(notice(payload)).unwrap();
            assert_eq!(totals.remembered("all", 0).is_err(), forgets, "{payload}");
        }
    }

    #[test]
    fn a_count_that_began_before_a_change_is_not_kept() {
        let (totals, sender) = totals();
        let started = totals.remembered("all", 0).unwrap_err();
        // A user joins while the count is being made: it may or may not have seen them.
        sender.send(notice("joined u-9")).unwrap();
        totals.keep("all", 7, started, 0);
        assert!(totals.remembered("all", 0).is_err());
    }
}
