//! Any OpenAI-compatible chat-completions API (OpenAI, Gemini's and Groq's compatible endpoints,
//! OpenRouter, Ollama, vLLM), with tool calling. Each call has a deadline; 429s, 5xx and timeouts
//! are retried at most twice with jittered backoff; after repeated failures a circuit breaker
//! stops calling for a while, so users get the offline guide at once instead of waiting.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use rand::Rng;
use serde::Deserialize;
use serde_json::{Value as Json, json};

use crate::config::LlmConfig;

const MAX_RETRIES: u32 = 2;
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

#[derive(Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    config: LlmConfig,
    breaker: Breaker,
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
    pub fn new(config: LlmConfig) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder().connect_timeout(Duration::from_secs(5)).build()?;
        Ok(Self { http, config, breaker: Breaker::default() })
    }

    pub fn breaker(&self) -> &Breaker {
        &self.breaker
    }

    pub fn timeout(&self) -> Duration {
        self.config.timeout
    }

    /// One completion, retried on transient failures within the deadline.
    pub async fn complete(&self, messages: &[Json], tools: &Json) -> Result<Completion, LlmError> {
        if !self.breaker.allows() {
            return Err(LlmError::BreakerOpen);
        }
        let deadline = Instant::now() + self.config.timeout;
        let mut last = String::new();
        for attempt in 0..=MAX_RETRIES {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match tokio::time::timeout(left, self.once(messages, tools)).await {
                Ok(Ok(completion)) => {
                    self.breaker.success();
                    return Ok(completion);
                }
                Ok(Err((retryable, reason))) => {
                    last = reason;
                    if !retryable {
                        break;
                    }
                }
                Err(_) => last = "deadline passed".into(),
            }
            if attempt < MAX_RETRIES {
                let pause =
                    Duration::from_millis(rand::rng().random_range(100..400) * u64::from(attempt + 1));
                tokio::time::sleep(pause.min(deadline.saturating_duration_since(Instant::now()))).await;
            }
        }
        self.breaker.failure();
        Err(LlmError::Failed(last))
    }

    async fn once(&self, messages: &[Json], tools: &Json) -> Result<Completion, (bool, String)> {
        let body = json!({ "model": self.config.model, "messages": messages, "tools": tools, "tool_choice": "auto", "temperature": 0.4 });
        let mut request = self.http.post(format!("{}/chat/completions", self.config.base_url)).json(&body);
        if let Some(key) = &self.config.api_key {
            request = request.bearer_auth(key.expose());
        }
        let response =
            request.send().await.map_err(|e| (true, format!("unreachable: {}", e.without_url())))?;
        let status = response.status();
        if status.as_u16() == 429 || status.is_server_error() {
            return Err((true, format!("HTTP {status}")));
        }
        if !status.is_success() {
            return Err((false, format!("HTTP {status}")));
        }
        let parsed: Response =
            response.json().await.map_err(|e| (true, format!("unreadable answer: {e}")))?;
        let message =
            parsed.choices.into_iter().next().map(|c| c.message).ok_or((true, "no choices".to_owned()))?;
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
            None => Err((true, "an empty answer".into())),
        }
    }
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
