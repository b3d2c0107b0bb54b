//! Local stand-ins for Meta's Graph API and an OpenAI-compatible LLM, speaking their wire formats
//! and answering at once. Each records when a request arrived (and the LLM when it answered), per
//! WhatsApp number, so that the bench can time the reply pipeline around them.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    Json, Router,
    extract::{Path, State},
    routing::post,
};
use serde_json::{Value, json};

pub const PHONE_NUMBER_ID: &str = "106540352242922";
pub const APP_SECRET: &str = "bench-app-secret";

/// What the fakes saw, by WhatsApp number (digits).
#[derive(Default)]
pub struct Seen {
    /// Text messages sent to a number: when each arrived. (A message with buttons — `"type":
    /// "interactive"`, such as the once-only offer of monthly check-ins after a reply — is not a
    /// reply: counted in `interactive`.)
    pub sent: HashMap<String, Vec<Instant>>,
    pub interactive: usize,
    /// Login codes sent to a number, newest last.
    pub codes: HashMap<String, Vec<String>>,
    /// LLM calls: (arrived, answered) per number the conversation is with.
    pub completions: HashMap<String, Vec<(Instant, Instant)>>,
    pub graph_requests: usize,
    /// How long the model thinks before answering.
    pub model_time: Duration,
    pub model_in_flight: usize,
    pub model_peak_in_flight: usize,
    /// Read receipts with a typing indicator.
    pub reads: usize,
}

#[derive(Clone)]
pub struct Fakes {
    pub graph_url: String,
    pub llm_url: String,
    pub seen: Arc<Mutex<Seen>>,
}

impl Fakes {
    pub async fn start() -> anyhow::Result<Self> {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let graph =
            Router::new().route("/{phone_number_id}/messages", post(graph_send)).with_state(seen.clone());
        let llm = Router::new().route("/v1/chat/completions", post(complete)).with_state(seen.clone());
        let graph_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let llm_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let fakes = Self {
            graph_url: format!("http://{}", graph_listener.local_addr()?),
            llm_url: format!("http://{}/v1", llm_listener.local_addr()?),
            seen,
        };
        tokio::spawn(async move { axum::serve(graph_listener, graph).await });
        tokio::spawn(async move { axum::serve(llm_listener, llm).await });
        Ok(fakes)
    }

    /// The server's configuration pointing at these fakes.
    pub fn config(&self) -> Vec<(&'static str, String)> {
        vec![
            ("WHATSAPP_MODE", "cloud".into()),
            ("WHATSAPP_BUSINESS_NUMBER", "5511900000000".into()),
            ("WHATSAPP_GRAPH_URL", self.graph_url.clone()),
            ("WHATSAPP_PHONE_NUMBER_ID", PHONE_NUMBER_ID.into()),
            ("WHATSAPP_ACCESS_TOKEN", "bench-access-token".into()),
            ("WHATSAPP_APP_SECRET", APP_SECRET.into()),
            ("WHATSAPP_VERIFY_TOKEN", "bench-verify-token".into()),
            ("LLM_BASE_URL", self.llm_url.clone()),
            ("LLM_API_KEY", "bench-llm-key".into()),
            ("LLM_MODEL", "bench-model".into()),
        ]
    }

    pub fn latest_code(&self, digits: &str) -> Option<String> {
        self.seen.lock().unwrap().codes.get(digits).and_then(|c| c.last().cloned())
    }

    /// From now on the model thinks for `time` before each answer.
    pub fn model_thinks_for(&self, time: Duration) {
        self.seen.lock().unwrap().model_time = time;
    }
}

async fn graph_send(
    State(seen): State<Arc<Mutex<Seen>>>,
    Path(_id): Path<String>,
    Json(body): Json<Value>,
) -> Json<Value> {
    let arrived = Instant::now();
    let mut seen = seen.lock().unwrap();
    // A read receipt with "typing…" (Meta's "Typing indicators" page): `{"success": true}`.
    if body["status"] == "read" {
        seen.reads += 1;
        return Json(json!({ "success": true }));
    }
    let to = body["to"].as_str().unwrap_or_default().to_owned();
    seen.graph_requests += 1;
    if let Some(code) = body["template"]["components"][0]["parameters"][0]["text"].as_str() {
        seen.codes.entry(to.clone()).or_default().push(code.to_owned());
    } else if body["type"] == "interactive" {
        seen.interactive += 1;
    } else {
        seen.sent.entry(to.clone()).or_default().push(arrived);
    }
    let n = seen.graph_requests;
    Json(json!({
        "messaging_product": "whatsapp",
        "contacts": [{ "input": to, "wa_id": to }],
        "messages": [{ "id": format!("wamid.bench.{n}") }],
    }))
}

/// Answers with a short text after the model's thinking time. The conversation's number is read
/// from the last user message, which the bench makes start with it.
async fn complete(State(seen): State<Arc<Mutex<Seen>>>, Json(body): Json<Value>) -> Json<Value> {
    let arrived = Instant::now();
    let think = {
        let mut seen = seen.lock().unwrap();
        seen.model_in_flight += 1;
        seen.model_peak_in_flight = seen.model_peak_in_flight.max(seen.model_in_flight);
        seen.model_time
    };
    tokio::time::sleep(think).await;
    seen.lock().unwrap().model_in_flight -= 1;
    let last_user = body["messages"]
        .as_array()
        .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default();
    let number: String = last_user
        .split_whitespace()
        .find(|w| w.starts_with("#55"))
        .unwrap_or_default()
        .trim_start_matches('#')
        .to_owned();
    let answer = json!({"id": "chatcmpl-bench", "object": "chat.completion", "model": "bench-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Ótima pergunta! Vamos ver os números juntos."}, "finish_reason": "stop"}]});
    seen.lock().unwrap().completions.entry(number).or_default().push((arrived, Instant::now()));
    Json(answer)
}
