//! How the process paces its calls to the model: the circuit breaker that stops calling for a
//! while after repeated failures, and the throttle every call waits on after a 429 (its
//! `Retry-After`, or a doubling pause).

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use super::*;

#[derive(Default)]
struct BreakerState {
    failures: u32,
    open_until: Option<Instant>,
}

/// Opens after repeated failures; lets calls through again after the cooldown, and closes on the
/// first success.
#[derive(Clone)]
pub struct Breaker {
    state: Arc<Mutex<BreakerState>>,
    cooldown: Duration,
}

impl Default for Breaker {
    fn default() -> Self {
        Self::with_cooldown(BREAKER_COOLDOWN)
    }
}

impl Breaker {
    pub fn with_cooldown(cooldown: Duration) -> Self {
        Self { state: Arc::default(), cooldown }
    }

    pub fn allows(&self) -> bool {
        let state = self.state.lock().expect("breaker lock");
        state.open_until.is_none_or(|until| Instant::now() >= until)
    }
    pub(super) fn success(&self) {
        *self.state.lock().expect("breaker lock") = BreakerState::default();
    }
    pub(super) fn failure(&self) {
        let mut state = self.state.lock().expect("breaker lock");
        state.failures += 1;
        if state.failures >= BREAKER_THRESHOLD {
            state.open_until = Some(Instant::now() + self.cooldown);
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
#[derive(Clone, Default)]
pub struct Throttle {
    state: Arc<Mutex<(Option<Instant>, u32)>>,
}

impl Throttle {
    /// Until when calls wait, if they do.
    pub fn resting_until(&self) -> Option<Instant> {
        self.state.lock().expect("throttle lock").0.filter(|until| *until > Instant::now())
    }

    /// A 429: calls wait `retry_after` (or a pause that doubles with each 429 in a row).
    pub(super) fn slow_down(&self, retry_after: Option<Duration>) -> Duration {
        let mut state = self.state.lock().expect("throttle lock");
        state.1 += 1;
        let pause = retry_after.unwrap_or_else(|| {
            FIRST_SLOW_DOWN.saturating_mul(2u32.saturating_pow(state.1 - 1)).min(MAX_SLOW_DOWN)
        });
        let until = Instant::now() + pause;
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
