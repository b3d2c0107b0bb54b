//! Metrics in Prometheus' text format (`GET /metrics`), recorded with the `metrics` crate's macros
//! and rendered by its Prometheus exporter; one recorder per process. What is measured: calls by
//! RPC and protocol (count and latency), the job queue by kind (depth and the age of the oldest
//! due job), model calls (in flight, latency, outcomes), the time from a person's last message to
//! the reply handed to WhatsApp, and WhatsApp sends by outcome. The database's turns at writing
//! (waited and held) are recorded where they are taken, in `db`.
//!
//! A histogram keeps every value recorded until the recorder's upkeep folds them into its buckets,
//! which the exporter leaves to whoever builds the recorder by hand, as we do
//! (`metrics-exporter-prometheus`'s "Upkeep and maintenance"). A scrape does it; without scrapes
//! the values piled up, 8 bytes and more a call — 24 MiB over a 20-second `wrk` of `GET
//! /api/auth/me` (issue 46). So the server also keeps them up itself ([`keep_up`]).

use std::{
    collections::BTreeSet,
    sync::{Mutex, OnceLock},
    time::Duration,
};

use ::metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::sync::watch;

/// Latency buckets, in seconds: from a fast RPC to a slow model.
const BUCKETS: &[f64] = &[0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's recorder, installed on first use.
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new().set_buckets(BUCKETS).expect("buckets are not empty");
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        // Another recorder may already be global (a test harness): then ours only renders.
        let _ = ::metrics::set_global_recorder(recorder);
        handle
    })
}

/// How often the server folds its histograms' recorded values into their buckets when nobody
/// scrapes them: the exporter's own upkeep interval (`PrometheusBuilder::upkeep_timeout`).
pub const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Keeps the recorder's histograms from growing with every call: their values folded into the
/// buckets every `every`, until `stopped` says the server stops.
pub async fn keep_up(every: Duration, stopped: watch::Receiver<bool>) {
    every_until_stopped(every, stopped, || handle().run_upkeep()).await;
}

/// Runs `work` every `every` until `stopped` turns true (or its sender is gone).
async fn every_until_stopped(every: Duration, mut stopped: watch::Receiver<bool>, mut work: impl FnMut()) {
    while !*stopped.borrow() {
        tokio::select! {
            () = tokio::time::sleep(every) => work(),
            changed = stopped.changed() => if changed.is_err() { return },
        }
    }
}

/// The `rpc` label of a gRPC path: the path of a method the contracts (or health and reflection)
/// define, else `unknown`. Anyone can post to invented paths; a label per path would let them grow
/// the metrics without bound.
pub fn rpc_label(path: &str) -> &str {
    static KNOWN: OnceLock<BTreeSet<String>> = OnceLock::new();
    let known = KNOWN.get_or_init(|| {
        let mut known: BTreeSet<String> = crate::proto::descriptor_pool()
            .services()
            .flat_map(|service| {
                service
                    .methods()
                    .map(|m| format!("/{}/{}", service.full_name(), m.name()))
                    .collect::<Vec<_>>()
            })
            .collect();
        known.extend(
            [
                "/grpc.health.v1.Health/Check",
                "/grpc.health.v1.Health/Watch",
                "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
            ]
            .map(str::to_owned),
        );
        known
    });
    if known.contains(path) { path } else { "unknown" }
}

/// One finished RPC: `rpc` is its gRPC path (a method of ours, else `unknown`), `protocol` grpc,
/// grpc-web or rest, `code` its status.
pub fn rpc(rpc: &str, protocol: &'static str, code: &str, elapsed: Duration) {
    let rpc = rpc_label(rpc);
    let labels = [("rpc", rpc.to_owned()), ("protocol", protocol.to_owned())];
    counter!(
        "socio_rpc_requests_total",
        &[("rpc", rpc.to_owned()), ("protocol", protocol.to_owned()), ("code", code.to_owned())]
    )
    .increment(1);
    histogram!("socio_rpc_duration_seconds", &labels).record(elapsed.as_secs_f64());
}

/// One model call ended: `outcome` is ok, rate_limited, error or timeout.
pub fn model_call(outcome: &'static str, elapsed: Duration) {
    counter!("socio_model_calls_total", "outcome" => outcome).increment(1);
    histogram!("socio_model_call_duration_seconds", "outcome" => outcome).record(elapsed.as_secs_f64());
}

/// A model's reply as the figures check left it: `ok`, `corrected` (sound when asked again) or
/// `replaced` (by the offline guide's answer).
pub fn model_reply(outcome: &'static str) {
    counter!("socio_model_replies_total", "outcome" => outcome).increment(1);
}

/// Model calls in flight now.
pub fn model_calls_in_flight(count: usize) {
    gauge!("socio_model_calls_in_flight").set(count as f64);
}

/// A reply was handed to WhatsApp `elapsed` after the last message it answers.
pub fn reply_time(elapsed: Duration) {
    histogram!("socio_reply_seconds").record(elapsed.as_secs_f64());
}

/// A WhatsApp send ended: `kind` text, login_code or notice; `outcome` sent, retryable or failed.
pub fn whatsapp_send(kind: &'static str, outcome: &'static str) {
    counter!("socio_whatsapp_sends_total", "kind" => kind, "outcome" => outcome).increment(1);
}

/// How many dated facts or tables are past their period with nothing newer (set at each scrape).
pub fn facts_expired(count: usize) {
    gauge!("socio_facts_expired").set(count as f64);
}

/// A proactive message was dropped before its send: the person said "PARAR" after it was written.
pub fn proactive_dropped() {
    counter!("socio_whatsapp_sends_total", "kind" => "reminder", "outcome" => "dropped").increment(1);
}

/// The job queue of one kind, as seen now.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueDepth {
    pub kind: String,
    /// Queued and due.
    pub due: i64,
    pub running: i64,
    /// How long the oldest due job has waited past its time.
    pub oldest_due: Duration,
}

/// The kinds the queue gauges have shown, so that a kind that drained reads 0, not its last value.
static KINDS_SEEN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// The text a scrape reads, with the queue as it is now.
pub fn render(queue: &[QueueDepth]) -> String {
    let drained: Vec<QueueDepth> = {
        let mut seen = KINDS_SEEN.lock().expect("kinds lock");
        seen.extend(queue.iter().map(|d| d.kind.clone()));
        seen.iter()
            .filter(|kind| !queue.iter().any(|d| &d.kind == *kind))
            .map(|kind| QueueDepth { kind: kind.clone(), due: 0, running: 0, oldest_due: Duration::ZERO })
            .collect()
    };
    for depth in queue.iter().chain(&drained) {
        let kind = depth.kind.clone();
        gauge!("socio_jobs_due", "kind" => kind.clone()).set(depth.due as f64);
        gauge!("socio_jobs_running", "kind" => kind.clone()).set(depth.running as f64);
        gauge!("socio_jobs_oldest_due_seconds", "kind" => kind).set(depth.oldest_due.as_secs_f64());
    }
    let handle = handle();
    handle.run_upkeep();
    handle.render()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn histograms_are_kept_up_every_interval_without_a_scrape_until_the_server_stops() {
        let runs = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (stop, stopped) = watch::channel(false);
        let counted = runs.clone();
        let task = tokio::spawn(every_until_stopped(UPKEEP_EVERY, stopped, move || {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }));
        let seen = || runs.load(std::sync::atomic::Ordering::SeqCst);
        tokio::time::sleep(UPKEEP_EVERY / 2).await;
        assert_eq!(seen(), 0, "nothing before the first interval");
        tokio::time::sleep(UPKEEP_EVERY * 3).await;
        assert_eq!(seen(), 3, "once an interval, scraped or not");
        stop.send(true).unwrap();
        task.await.unwrap();
        tokio::time::sleep(UPKEEP_EVERY * 2).await;
        assert_eq!(seen(), 3, "nothing once the server stops");
    }
}
