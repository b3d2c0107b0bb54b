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

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use rand::Rng;
use serde::Deserialize;
use serde_json::{Value as Json, json};
use tokio::sync::Semaphore;

use super::stream;
use crate::{config::LlmConfig, telemetry::metrics};

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
    fn success(&self) {
        *self.state.lock().expect("breaker lock") = BreakerState::default();
    }
    fn failure(&self) {
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
    fn slow_down(&self, retry_after: Option<Duration>) -> Duration {
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

    fn answered(&self) {
        self.state.lock().expect("throttle lock").1 = 0;
    }
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
    /// A client keeping at most `max_in_flight` calls in flight at once.
    pub fn new(config: LlmConfig, max_in_flight: usize) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder().connect_timeout(Duration::from_secs(5)).build()?;
        let capacity = max_in_flight.max(1);
        Ok(Self {
            http,
            config,
            breaker: Breaker::default(),
            throttle: Throttle::default(),
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
        let deadline = Instant::now() + self.config.timeout;
        let mut last = String::new();
        let mut attempt = 0;
        let mut only_slowed = true;
        loop {
            if let Some(until) = self.throttle.resting_until() {
                if until >= deadline {
                    last = "the model asked us to slow down past the deadline".into();
                    break;
                }
                tokio::time::sleep_until(until.into()).await;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
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
            let pause = Duration::from_millis(rand::rng().random_range(100..400) * u64::from(attempt));
            tokio::time::sleep(pause.min(deadline.saturating_duration_since(Instant::now()))).await;
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

/// Speech to text over the OpenAI-compatible `/audio/transcriptions` endpoint.
#[derive(Clone)]
pub struct Transcriber {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<crate::config::Secret>,
    model: String,
}

impl Transcriber {
    /// Only when a transcription model is configured.
    pub fn new(config: &LlmConfig) -> Option<Self> {
        let model = config.transcribe_model.clone()?;
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(config.timeout)
            .build()
            .ok()?;
        Some(Self { http, base_url: config.base_url.clone(), api_key: config.api_key.clone(), model })
    }

    pub async fn transcribe(&self, audio: Vec<u8>, mime_type: &str) -> anyhow::Result<String> {
        let extension = if mime_type.contains("mpeg") {
            "mp3"
        } else if mime_type.contains("mp4") {
            "m4a"
        } else {
            "ogg"
        };
        let part = reqwest::multipart::Part::bytes(audio)
            .file_name(format!("voice.{extension}"))
            .mime_str(mime_type.split(';').next().unwrap_or("audio/ogg").trim())?;
        let form = reqwest::multipart::Form::new().text("model", self.model.clone()).part("file", part);
        let mut request = self.http.post(format!("{}/audio/transcriptions", self.base_url)).multipart(form);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key.expose());
        }
        let answer: Json = request.send().await?.error_for_status()?.json().await?;
        let text = answer["text"].as_str().map(str::trim).unwrap_or_default().to_owned();
        anyhow::ensure!(!text.is_empty(), "an empty transcription");
        Ok(text.chars().take(4000).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_429_s_pause_is_its_retry_after_or_doubles_from_one_second() {
        let throttle = Throttle::default();
        assert_eq!(throttle.slow_down(None), Duration::from_secs(1));
        assert_eq!(throttle.slow_down(None), Duration::from_secs(2));
        assert_eq!(throttle.slow_down(Some(Duration::from_millis(300))), Duration::from_millis(300));
        assert!(throttle.resting_until().is_some(), "the longest pause still holds");
        throttle.answered();
        assert_eq!(throttle.slow_down(None), Duration::from_secs(1), "an answer starts over");
        for _ in 0..10 {
            throttle.slow_down(None);
        }
        assert_eq!(throttle.slow_down(None), MAX_SLOW_DOWN);
    }

    #[test]
    fn retry_after_is_read_in_seconds_or_milliseconds() {
        let mut headers = reqwest::header::HeaderMap::new();
        assert_eq!(retry_after(&headers), None);
        headers.insert("retry-after", "1.5".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(1500)));
        headers.insert("retry-after-ms", "250".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(250)));
        headers.clear();
        headers.insert("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap());
        assert_eq!(retry_after(&headers), None, "a date is not understood: the doubling pause applies");
    }

    #[test]
    fn the_breaker_opens_after_five_failures_and_closes_after_the_cooldown_and_a_success() {
        let breaker = Breaker::with_cooldown(Duration::from_millis(30));
        for _ in 0..4 {
            breaker.failure();
        }
        assert!(breaker.allows(), "four failures keep it closed");
        breaker.failure();
        assert!(breaker.is_open());
        std::thread::sleep(Duration::from_millis(40));
        assert!(breaker.allows(), "half-open after the cooldown");
        breaker.success();
        breaker.failure();
        assert!(breaker.allows(), "a success closed it: one failure is not enough to open again");
    }
}
