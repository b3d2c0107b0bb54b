//! How the process paces its calls to the model: the circuit breaker that stops calling for a
//! while after repeated failures, and the throttle every call waits on after a 429 (its
//! `Retry-After`, or a doubling pause). Both count on the application's clock, so a test moves
//! past a cooldown or a pause instead of waiting for it.

use std::{sync::Mutex, time::Duration};

use super::*;
use crate::clock::Clock;

#[derive(Default)]
struct BreakerState {
    failures: u32,
    /// When calls may go through again, on the clock (ms).
    open_until: Option<i64>,
}

/// Opens after repeated failures; lets calls through again after the cooldown, and closes on the
/// first success.
#[derive(Clone)]
pub struct Breaker {
    state: Arc<Mutex<BreakerState>>,
    cooldown: Duration,
    clock: Clock,
}

impl Breaker {
    /// A breaker with the usual cooldown.
    pub fn new(clock: Clock) -> Self {
        Self::with_cooldown(BREAKER_COOLDOWN, clock)
    }

    pub fn with_cooldown(cooldown: Duration, clock: Clock) -> Self {
        Self { state: Arc::default(), cooldown, clock }
    }

    pub fn allows(&self) -> bool {
        let state = self.state.lock().expect("breaker lock");
        state.open_until.is_none_or(|until| self.clock.now_ms() >= until)
    }
    pub(super) fn success(&self) {
        *self.state.lock().expect("breaker lock") = BreakerState::default();
    }
    pub(super) fn failure(&self) {
        let mut state = self.state.lock().expect("breaker lock");
        state.failures += 1;
        if state.failures >= BREAKER_THRESHOLD {
            state.open_until = Some(self.clock.now_ms().saturating_add(millis(self.cooldown)));
            tracing::warn!(
                "the model failed {} times in a row; using the offline guide for a while",
                state.failures
            );
        }
    }
    pub fn is_open(&self) -> bool {
        !self.allows()
    }
}

/// The provider's "slow down", shared by every call of the process.
#[derive(Clone)]
pub struct Throttle {
    /// Until when calls wait (on the clock, ms), and the 429s in a row.
    state: Arc<Mutex<(Option<i64>, u32)>>,
    clock: Clock,
}

/// A duration in whole milliseconds, as the clock counts.
pub(super) fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

impl Throttle {
    pub fn new(clock: Clock) -> Self {
        Self { state: Arc::default(), clock }
    }

    /// Until when calls wait (on the clock, ms), if they do.
    pub fn resting_until(&self) -> Option<i64> {
        let now = self.clock.now_ms();
        self.state.lock().expect("throttle lock").0.filter(|until| *until > now)
    }

    /// A 429: calls wait `retry_after` (or a pause that doubles with each 429 in a row).
    pub(super) fn slow_down(&self, retry_after: Option<Duration>) -> Duration {
        let mut state = self.state.lock().expect("throttle lock");
        state.1 += 1;
        let pause = retry_after.unwrap_or_else(|| {
            FIRST_SLOW_DOWN.saturating_mul(2u32.saturating_pow(state.1 - 1)).min(MAX_SLOW_DOWN)
        });
        let until = self.clock.now_ms().saturating_add(millis(pause));
        state.0 = Some(state.0.map_or(until, |current| current.max(until)));
        tracing::warn!(
            pause_ms = pause.as_millis() as u64,
            "the model asked us to slow down (429): every call waits"
        );
        pause
    }

    pub(super) fn answered(&self) {
        self.state.lock().expect("throttle lock").1 = 0;
    }
}
