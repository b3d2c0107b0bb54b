//! A closed-loop load generator: `concurrency` tasks each send a request, wait for its answer and
//! send the next, for a fixed time after a warm-up. Every latency is kept, so percentiles are exact.

use std::{
    future::Future,
    sync::Arc,
    time::{Duration, Instant},
};

use serde_json::{Value, json};

/// What one scenario measured.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Answered successfully after the warm-up.
    pub ok: usize,
    pub errors: usize,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
}

impl Outcome {
    pub fn json(&self) -> Value {
        json!({"ok": self.ok, "errors": self.errors, "perSecond": round(self.per_second),
               "p50Ms": round(self.p50_ms), "p99Ms": round(self.p99_ms)})
    }
}

pub fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The `q` quantile (0..=1) of sorted latencies, in milliseconds.
pub fn quantile_ms(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index].as_secs_f64() * 1000.0
}

/// Runs `call(task, n)` — `n` counts that task's calls — from `concurrency` tasks for `warmup`
/// then `duration`; a call answers whether it succeeded.
pub async fn drive<F, Fut>(concurrency: usize, warmup: Duration, duration: Duration, call: F) -> Outcome
where
    F: Fn(usize, u64) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = bool> + Send,
{
    let call = Arc::new(call);
    let started = Instant::now();
    let measure_from = started + warmup;
    let end = measure_from + duration;
    let mut tasks = tokio::task::JoinSet::new();
    for task in 0..concurrency {
        let call = call.clone();
        tasks.spawn(async move {
            let (mut latencies, mut errors, mut n) = (Vec::new(), 0usize, 0u64);
            loop {
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let ok = call(task, n).await;
                n += 1;
                if sent >= measure_from {
                    if ok {
                        latencies.push(sent.elapsed());
                    } else {
                        errors += 1;
                    }
                }
            }
            (latencies, errors)
        });
    }
    let (mut latencies, mut errors) = (Vec::new(), 0);
    while let Some(done) = tasks.join_next().await {
        let (l, e) = done.expect("a load task panicked");
        latencies.extend(l);
        errors += e;
    }
    let measured = end.saturating_duration_since(measure_from).max(Duration::from_millis(1)).as_secs_f64();
    latencies.sort_unstable();
    Outcome {
        ok: latencies.len(),
        errors,
        per_second: latencies.len() as f64 / measured,
        p50_ms: quantile_ms(&latencies, 0.50),
        p99_ms: quantile_ms(&latencies, 0.99),
    }
}
