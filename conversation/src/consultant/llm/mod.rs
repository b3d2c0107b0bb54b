//! Any OpenAI-compatible chat-completions API (OpenAI, Gemini's and Groq's compatible endpoints,
//! OpenRouter, Ollama, vLLM), with tool calling. Each call has a deadline; 5xx and timeouts are
//! retried at most twice with jittered backoff; after repeated failures a circuit breaker stops
//! calling for a while, so users get the offline guide at once instead of waiting.
//!
//! One process keeps at most `LLM_MAX_CONCURRENCY` calls in flight. A 429 means "slow down", not
//! "failed" (OpenAI's "How to handle rate limits", cookbook.openai.com/examples/how_to_handle_rate_limits;
//! Microsoft's "OpenAI rate limit reached" reference): every call of the process waits out its
//! `Retry-After` (or a doubling pause when there is none) and tries again within its deadline,
//! and the breaker does not count it. A 429 for an exhausted quota (`insufficient_quota`) does not
//! pass with waiting: it is a failure like any other.

mod pacing;
mod stream;
#[cfg(test)]
mod tests;
mod transcribe;

pub use pacing::{Breaker, Throttle};
pub use transcribe::Transcriber;

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use self::pacing::millis;

use rand::Rng;
use serde::Deserialize;
use serde_json::{Value as Json, json};
use tokio::sync::Semaphore;

use crate::{clock::Clock, config::LlmConfig, telemetry::metrics};

const MAX_RETRIES: u32 = 2;
/// The first pause after a 429 without `Retry-After`; it doubles while 429s keep coming.
const FIRST_SLOW_DOWN: Duration = Duration::from_secs(1);
const MAX_SLOW_DOWN: Duration = Duration::from_secs(30);
const BREAKER_THRESHOLD: u32 = 5;
const BREAKER_COOLDOWN: Duration = Duration::from_secs(60);

/// A tool call the model asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The arguments as the model wrote them (JSON text, maybe broken).
    pub arguments: String,
}

/// What the model answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Completion {
    Text(String),
    ToolCalls { calls: Vec<ToolCall>, message: Json },
}

#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("the model is resting after repeated failures")]
    BreakerOpen,
    #[error("the model did not answer: {0}")]
    Failed(String),
}

/// What one request came to, when it was not an answer.
enum Refusal {
    /// Worth trying again (network, 5xx, an unreadable or empty answer).
    Retry(String),
    /// The provider said slow down, maybe saying for how long.
    SlowDown(Option<Duration>),
    /// Will fail the same way again.
    Fatal(String),
}

#[derive(Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    config: LlmConfig,
    breaker: Breaker,
    throttle: Throttle,
    in_flight: Arc<Semaphore>,
    capacity: usize,
    /// The application's clock: the deadline, the throttle's pauses and the breaker's cooldown.
    clock: Clock,
}

#[derive(Deserialize)]
struct Response {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: Json,
}

impl LlmClient {
    /// A client keeping at most `max_in_flight` calls in flight at once, pacing them on `clock`.
    pub fn new(config: LlmConfig, max_in_flight: usize, clock: Clock) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder().connect_timeout(Duration::from_secs(5)).build()?;
        let capacity = max_in_flight.max(1);
        Ok(Self {
            http,
            config,
            breaker: Breaker::new(clock.clone()),
            throttle: Throttle::new(clock.clone()),
            clock,
            in_flight: Arc::new(Semaphore::new(capacity)),
            capacity,
        })
    }

    /// How many calls are in flight now.
    pub fn in_flight(&self) -> usize {
        self.capacity - self.in_flight.available_permits()
    }

    pub fn throttle(&self) -> &Throttle {
        &self.throttle
    }

    pub fn breaker(&self) -> &Breaker {
        &self.breaker
    }

    pub fn timeout(&self) -> Duration {
        self.config.timeout
    }

    /// One completion, retried on transient failures and waited out through 429s, within the
    /// deadline.
    pub async fn complete(&self, messages: &[Json], tools: &Json) -> Result<Completion, LlmError> {
        self.complete_streaming(messages, tools, None).await
    }

    /// One completion asked for as a stream (`stream: true`): the text goes to `deltas` piece by
    /// piece as it arrives. A provider that answers in one piece works too (nothing is streamed
    /// then); an answer cut off mid-stream is a failure, not retried, so no piece is said twice.
    pub async fn complete_streaming(
        &self,
        messages: &[Json],
        tools: &Json,
        deltas: Option<&Deltas>,
    ) -> Result<Completion, LlmError> {
        if !self.breaker.allows() {
            return Err(LlmError::BreakerOpen);
        }
        let deadline = self.clock.now_ms().saturating_add(millis(self.config.timeout));
        let mut last = String::new();
        let mut attempt = 0;
        let mut only_slowed = true;
        loop {
            if let Some(until) = self.throttle.resting_until() {
                if until >= deadline {
                    last = "the model asked us to slow down past the deadline".into();
                    break;
                }
                self.clock.sleep_until(until).await;
            }
            let left = deadline.saturating_sub(self.clock.now_ms());
            if left <= 0 {
                break;
            }
            let left = Duration::from_millis(left.unsigned_abs());
            let call = async {
                let _slot = InFlight::enter(self).await;
                let started = Instant::now();
                let result = self.once(messages, tools, deltas).await;
                let outcome = match &result {
                    Ok(_) => "ok",
                    Err(Refusal::SlowDown(_)) => "rate_limited",
                    Err(Refusal::Retry(_) | Refusal::Fatal(_)) => "error",
                };
                metrics::model_call(outcome, started.elapsed());
                result
            };
            match tokio::time::timeout(left, call).await {
                Ok(Ok(completion)) => {
                    self.breaker.success();
                    self.throttle.answered();
                    return Ok(completion);
                }
                Ok(Err(Refusal::SlowDown(retry_after))) => {
                    self.throttle.slow_down(retry_after);
                    last = "HTTP 429".into();
                    continue; // not an attempt: the wait is the provider's to set
                }
                Ok(Err(Refusal::Retry(reason))) => last = reason,
                Ok(Err(Refusal::Fatal(reason))) => {
                    last = reason;
                    only_slowed = false;
                    break;
                }
                Err(_) => {
                    metrics::model_call("timeout", self.config.timeout);
                    last = "deadline passed".into();
                }
            }
            only_slowed = false;
            attempt += 1;
            if attempt > MAX_RETRIES {
                break;
            }
            let pause = rand::rng().random_range(100..400) * i64::from(attempt);
            self.clock.sleep_until(self.clock.now_ms().saturating_add(pause).min(deadline)).await;
        }
        if !only_slowed {
            self.breaker.failure();
        }
        Err(LlmError::Failed(last))
    }

    async fn once(
        &self,
        messages: &[Json],
        tools: &Json,
        deltas: Option<&Deltas>,
    ) -> Result<Completion, Refusal> {
        let mut body = json!({ "model": self.config.model, "messages": messages, "temperature": 0.4 });
        // OpenAI refuses an empty `tools` array: a call without tools names none.
        if tools.as_array().is_some_and(|t| !t.is_empty()) {
            body["tools"] = tools.clone();
            body["tool_choice"] = json!("auto");
        }
        if deltas.is_some() {
            body["stream"] = json!(true);
        }
        let mut request = self.http.post(format!("{}/chat/completions", self.config.base_url)).json(&body);
        if let Some(key) = &self.config.api_key {
            request = request.bearer_auth(key.expose());
        }
        let response =
            request.send().await.map_err(|e| Refusal::Retry(format!("unreachable: {}", e.without_url())))?;
        let status = response.status();
        if status.as_u16() == 429 {
            let retry_after = retry_after(response.headers());
            let body = response.text().await.unwrap_or_default();
            return Err(if body.contains("insufficient_quota") {
                Refusal::Fatal("HTTP 429: the account's quota is exhausted".into())
            } else {
                Refusal::SlowDown(retry_after)
            });
        }
        if status.is_server_error() {
            return Err(Refusal::Retry(format!("HTTP {status}")));
        }
        if !status.is_success() {
            return Err(Refusal::Fatal(format!("HTTP {status}")));
        }
        let streamed = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if let (true, Some(deltas)) = (streamed, deltas) {
            return read_stream(response, deltas).await;
        }
        let parsed: Response =
            response.json().await.map_err(|e| Refusal::Retry(format!("unreadable answer: {e}")))?;
        let message = parsed
            .choices
            .into_iter()
            .next()
            .map(|c| c.message)
            .ok_or(Refusal::Retry("no choices".to_owned()))?;
        let calls: Vec<ToolCall> = message["tool_calls"]
            .as_array()
            .map(|calls| {
                calls
                    .iter()
                    .map(|c| ToolCall {
                        id: c["id"].as_str().unwrap_or_default().to_owned(),
                        name: c["function"]["name"].as_str().unwrap_or_default().to_owned(),
                        arguments: c["function"]["arguments"].as_str().unwrap_or("{}").to_owned(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        if !calls.is_empty() {
            return Ok(Completion::ToolCalls { calls, message });
        }
        match message["content"].as_str().map(str::trim).filter(|t| !t.is_empty()) {
            Some(text) => Ok(Completion::Text(text.to_owned())),
            None => Err(Refusal::Retry("an empty answer".into())),
        }
    }
}

/// Where a streamed answer's text goes, piece by piece.
pub type Deltas = tokio::sync::mpsc::UnboundedSender<String>;

/// Reads a streamed answer to its end, passing its text on as it comes.
async fn read_stream(mut response: reqwest::Response, deltas: &Deltas) -> Result<Completion, Refusal> {
    let (mut events, mut answer, mut said) = (stream::Events::default(), stream::Assembler::default(), false);
    let broken = |said: bool, why: String| if said { Refusal::Fatal(why) } else { Refusal::Retry(why) };
    loop {
        let bytes = match response.chunk().await {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return Err(broken(said, "the stream ended before [DONE]".into())),
            Err(e) => return Err(broken(said, format!("the stream broke: {}", e.without_url()))),
        };
        for payload in events.feed(&bytes) {
            if payload == "[DONE]" {
                return answer.finish().ok_or_else(|| broken(said, "an empty answer".into()));
            }
            let Ok(chunk) = serde_json::from_str::<Json>(&payload) else {
                return Err(broken(said, "an unreadable chunk".into()));
            };
            if let Some(text) = answer.chunk(&chunk) {
                said = true;
                let _ = deltas.send(text); // nobody listening any more is no reason to stop
            }
        }
    }
}

/// A model call's place among the process's calls in flight; the gauge follows it in and out.
struct InFlight<'a> {
    client: &'a LlmClient,
    _permit: tokio::sync::SemaphorePermit<'a>,
}

impl<'a> InFlight<'a> {
    async fn enter(client: &'a LlmClient) -> InFlight<'a> {
        let permit = client.in_flight.acquire().await.expect("the semaphore is never closed");
        metrics::model_calls_in_flight(client.in_flight());
        InFlight { client, _permit: permit }
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        // The permit is returned right after this: one fewer than counted now.
        metrics::model_calls_in_flight(self.client.in_flight().saturating_sub(1));
    }
}

/// How long a 429 asks us to wait: `retry-after-ms`, or `Retry-After` in seconds (whole or not).
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
        return Some(Duration::from_secs_f64(ms.clamp(0.0, 600_000.0) / 1000.0));
    }
    header("retry-after")
        .and_then(|v| v.parse::<f64>().ok())
        .map(|secs| Duration::from_secs_f64(secs.clamp(0.0, 600.0)))
}
