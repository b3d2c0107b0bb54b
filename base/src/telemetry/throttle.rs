//! Warnings that a flood would repeat thousands of times a second (a connection refused over its
//! address's cap, an unreadable `X-Forwarded-For` from a balancer) are written once per key per
//! interval, the next line saying how many were left out: a flood fills no disk, and the log
//! still says who and how much. Time is the caller's (monotonic milliseconds), so the rule is
//! tested without waiting.

use std::{collections::HashMap, hash::Hash, sync::Mutex, time::Duration};

/// Keys remembered at most; beyond it the oldest interval's are forgotten (a flood from many
/// addresses cannot grow it without bound).
const MAX_KEYS: usize = 10_000;

/// Whether to write a warning now, and how many of its kind were left out since the last one.
pub struct LogThrottle<K> {
    every_ms: u64,
    seen: Mutex<HashMap<K, Window>>,
}

#[derive(Clone, Copy)]
struct Window {
    logged_at: u64,
    left_out: u64,
}

impl<K: Eq + Hash + Clone> LogThrottle<K> {
    pub fn new(every: Duration) -> Self {
        Self { every_ms: every.as_millis() as u64, seen: Mutex::new(HashMap::new()) }
    }

    /// At `now_ms` (monotonic): `Some(left_out)` when a line for `key` is due — the count of
    /// warnings of that key not written since the previous line — else None (counted).
    pub fn admit(&self, key: &K, now_ms: u64) -> Option<u64> {
        let mut seen = self.seen.lock().expect("the throttle is never poisoned");
        if let Some(window) = seen.get_mut(key) {
            if now_ms.saturating_sub(window.logged_at) < self.every_ms {
                window.left_out += 1;
                return None;
            }
            let left_out = window.left_out;
            *window = Window { logged_at: now_ms, left_out: 0 };
            return Some(left_out);
        }
        if seen.len() >= MAX_KEYS {
            let every = self.every_ms;
            seen.retain(|_, w| now_ms.saturating_sub(w.logged_at) < every);
            if seen.len() >= MAX_KEYS {
                return None; // a flood of new keys within one interval: counted nowhere, written nowhere
            }
        }
        seen.insert(key.clone(), Window { logged_at: now_ms, left_out: 0 });
        Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_from_one_address_writes_one_line_an_interval_and_then_says_how_many_were_left_out() {
        let throttle = LogThrottle::new(Duration::from_secs(10));
        let written: Vec<Option<u64>> = (0..15_000u64).map(|i| throttle.admit(&"203.0.113.5", i)).collect();
        // 15 s of refusals, one a millisecond: a line at 0 s and at 10 s, the second counting the rest.
        let lines: Vec<(usize, u64)> =
            written.iter().enumerate().filter_map(|(at, w)| w.map(|left_out| (at, left_out))).collect();
        assert_eq!(lines, vec![(0, 0), (10_000, 9_999)]);
        assert_eq!(throttle.admit(&"198.51.100.7", 10_001), Some(0), "another address has its own line");
    }

    #[test]
    fn many_addresses_cannot_grow_it_without_bound() {
        let throttle = LogThrottle::new(Duration::from_secs(10));
        for i in 0..(MAX_KEYS as u64 + 500) {
            throttle.admit(&i, 0);
        }
        assert!(throttle.seen.lock().unwrap().len() <= MAX_KEYS);
        assert_eq!(throttle.admit(&u64::MAX, 20_000), Some(0), "windows an interval old make room");
    }
}
