//! A local OpenAI-compatible chat-completions server: it records every request and answers from a
//! script (status, body, delay), then with a plain text answer.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{Json, Router, extract::State, http::StatusCode, routing::post};
use serde_json::{Value, json};

#[derive(Default)]
struct Inner {
    requests: Vec<Value>,
    script: VecDeque<(u16, Value, Duration)>,
}

#[derive(Clone)]
pub struct FakeLlm {
    pub url: String,
    inner: Arc<Mutex<Inner>>,
}

pub fn text(content: &str) -> Value {
    json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
           "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]})
}

pub fn tool_call(name: &str, arguments: Value) -> Value {
    json!({"id": "chatcmpl-2", "object": "chat.completion", "model": "test-model",
           "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [
               {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments.to_string()}}]},
               "finish_reason": "tool_calls"}]})
}

impl FakeLlm {
    pub async fn start() -> Self {
        let inner = Arc::new(Mutex::new(Inner::default()));
        let app = Router::new()
            .route("/v1/chat/completions", post(complete))
            .route(
                "/v1/audio/transcriptions",
                post(|body: axum::body::Bytes| async move {
                    let form = String::from_utf8_lossy(&body).to_string();
                    assert!(
                        form.contains("whisper-test") && form.contains("OggS fake voice note"),
                        "a multipart upload with model and file"
                    );
                    Json(json!({"text": "Quero abrir uma padaria no meu bairro"}))
                }),
            )
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { url, inner }
    }

    pub fn answer_with(&self, answers: impl IntoIterator<Item = (u16, Value)>) {
        self.inner.lock().unwrap().script.extend(answers.into_iter().map(|(s, b)| (s, b, Duration::ZERO)));
    }

    pub fn answer_slowly(&self, delay: Duration, body: Value) {
        self.inner.lock().unwrap().script.push_back((200, body, delay));
    }

    pub fn requests(&self) -> Vec<Value> {
        self.inner.lock().unwrap().requests.clone()
    }

    pub fn config(&self, timeout_s: u64) -> Vec<(&'static str, String)> {
        vec![
            ("LLM_BASE_URL", self.url.clone()),
            ("LLM_API_KEY", "test-llm-key".into()),
            ("LLM_MODEL", "test-model".into()),
            ("LLM_TIMEOUT_S", timeout_s.to_string()),
        ]
    }
}

async fn complete(
    State(inner): State<Arc<Mutex<Inner>>>,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    let next = {
        let mut inner = inner.lock().unwrap();
        inner.requests.push(body);
        inner.script.pop_front()
    };
    let (status, answer, delay) =
        next.unwrap_or((200, text("Olá! Sou o Sócio, com o modelo."), Duration::ZERO));
    tokio::time::sleep(delay).await;
    (StatusCode::from_u16(status).unwrap(), Json(answer))
}
