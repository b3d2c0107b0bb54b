//! A local OpenAI-compatible chat-completions server: it records every request and answers from a
//! script (status, body, headers, and whether it is held), then with a plain text answer. It counts
//! the calls in flight. A model "still thinking" is an answer held at a [`Gate`] the test opens
//! when it has seen what it wanted to see meanwhile, so no test waits a set time for a model. Asked to stream (`stream: true`), a streamed answer goes as
//! server-sent events of `chat.completion.chunk`s ending in `data: [DONE]` (OpenAI's "Streaming
//! API responses"; `fixtures/openai/chat-completion-stream.sse`); any other answer is plain JSON,
//! as a provider that ignores `stream` sends. A 429 looks like OpenAI's: an `error` object with
//! `rate_limit_exceeded`, with or without `Retry-After` (cookbook.openai.com/examples/how_to_handle_rate_limits).

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{Json, Router, extract::State, http::StatusCode, routing::post};
use serde_json::{Value, json};

/// Where held answers wait until the test lets them go: a model still thinking. Cloning shares it.
#[derive(Clone)]
pub struct Gate(Arc<tokio::sync::watch::Sender<bool>>);

impl Gate {
    fn new() -> Self {
        Self(Arc::new(tokio::sync::watch::channel(false).0))
    }

    /// Lets every answer held here go, now and from now on.
    pub fn open(&self) {
        self.0.send_replace(true);
    }

    async fn passed(&self) {
        let _ = self.0.subscribe().wait_for(|open| *open).await;
    }
}

/// When an answer goes.
#[derive(Clone)]
enum Hold {
    AtOnce,
    /// When its gate opens.
    Until(Gate),
    /// Never: a model slower than any deadline.
    Forever,
}

impl Hold {
    async fn passed(&self) {
        match self {
            Hold::AtOnce => {}
            Hold::Until(gate) => gate.passed().await,
            Hold::Forever => std::future::pending().await,
        }
    }
}

/// One scripted answer.
struct Answer {
    status: u16,
    body: Value,
    hold: Hold,
    headers: Vec<(&'static str, String)>,
    /// Sent as server-sent events when the request asks to stream: each chunk once its gate
    /// (if any) is open.
    events: Option<Vec<(Value, Hold)>>,
}

/// A `chat.completion.chunk` with this delta.
fn chunk(delta: Value, finish: Option<&str>) -> Value {
    json!({"id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 1795253910, "model": "test-model",
           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

/// Words a reply from a tool's result.
type QuoteTool = Box<dyn Fn(&Value) -> String + Send>;

#[derive(Default)]
struct Inner {
    requests: Vec<Value>,
    /// When each request came in.
    arrivals: Vec<std::time::Instant>,
    /// When each request came in on the application's clock (ms), once `on_clock` gave it.
    arrivals_on_clock: Vec<i64>,
    clock: Option<socio::clock::Clock>,
    script: VecDeque<Answer>,
    /// Unscripted answers wait here.
    default_hold: Option<Gate>,
    /// Every request before this time is answered 429 (with this `Retry-After`).
    limited_until: Option<(std::time::Instant, Option<String>)>,
    in_flight: usize,
    peak_in_flight: usize,
    /// Once a tool has answered, the model words its reply from the tool's JSON with this (as a
    /// model that quotes its tools does).
    quote_tool: Option<QuoteTool>,
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
        let answers = answers.into_iter().map(|(status, body)| Answer {
            status,
            body,
            hold: Hold::AtOnce,
            headers: Vec::new(),
            events: None,
        });
        self.inner.lock().unwrap().script.extend(answers);
    }

    /// The next answer is `body`, once the returned gate is opened: the model is still thinking
    /// until the test says otherwise.
    pub fn answer_held(&self, body: Value) -> Gate {
        let gate = Gate::new();
        self.inner.lock().unwrap().script.push_back(Answer {
            status: 200,
            body,
            hold: Hold::Until(gate.clone()),
            headers: Vec::new(),
            events: None,
        });
        gate
    }

    /// The next answer never comes: a model slower than any deadline.
    pub fn answer_never(&self, body: Value) {
        self.inner.lock().unwrap().script.push_back(Answer {
            status: 200,
            body,
            hold: Hold::Forever,
            headers: Vec::new(),
            events: None,
        });
    }

    /// The next answer is OpenAI's 429, with `Retry-After: <seconds>` when given.
    pub fn rate_limit(&self, retry_after: Option<&str>) {
        self.inner.lock().unwrap().script.push_back(rate_limited(retry_after.map(str::to_owned)));
    }

    /// Every request for `period` from now is answered 429, with `Retry-After: <seconds>` when given.
    /// Returns when the limit ends.
    pub fn rate_limit_for(&self, period: Duration, retry_after: Option<&str>) -> std::time::Instant {
        let until = std::time::Instant::now() + period;
        self.inner.lock().unwrap().limited_until = Some((until, retry_after.map(str::to_owned)));
        until
    }

    /// When the conversation ends with a tool's result and nothing is scripted, answer with the
    /// text `quote` makes of that result (parsed as JSON).
    pub fn quote_tool_results(&self, quote: impl Fn(&Value) -> String + Send + 'static) {
        self.inner.lock().unwrap().quote_tool = Some(Box::new(quote));
    }

    /// Every unscripted answer waits, as a real model thinks, until the returned gate opens.
    pub fn think_until_opened(&self) -> Gate {
        let gate = Gate::new();
        self.inner.lock().unwrap().default_hold = Some(gate.clone());
        gate
    }

    /// When each request came in, in order.
    pub fn arrivals(&self) -> Vec<std::time::Instant> {
        self.inner.lock().unwrap().arrivals.clone()
    }

    /// Dates every request from now on by the application's `clock` too.
    pub fn on_clock(&self, clock: socio::clock::Clock) {
        self.inner.lock().unwrap().clock = Some(clock);
    }

    /// When each request came in on the clock given to `on_clock` (ms), in order.
    pub fn arrivals_on_clock(&self) -> Vec<i64> {
        self.inner.lock().unwrap().arrivals_on_clock.clone()
    }

    /// The next answer streams `pieces` of text, one event each (plain JSON if not asked to stream).
    pub fn stream_text(&self, pieces: &[&str]) {
        self.stream_pieces(pieces, Hold::AtOnce);
    }

    /// The next answer streams its first piece of text at once and the others when the returned
    /// gate opens: a model midway through its answer.
    pub fn stream_text_held(&self, pieces: &[&str]) -> Gate {
        let gate = Gate::new();
        self.stream_pieces(pieces, Hold::Until(gate.clone()));
        gate
    }

    fn stream_pieces(&self, pieces: &[&str], rest: Hold) {
        let mut events = vec![(chunk(json!({"role": "assistant", "content": ""}), None), Hold::AtOnce)];
        events.extend(pieces.iter().enumerate().map(|(n, p)| {
            (chunk(json!({"content": p}), None), if n == 0 { Hold::AtOnce } else { rest.clone() })
        }));
        events.push((chunk(json!({}), Some("stop")), Hold::AtOnce));
        let body = text(&pieces.concat());
        self.inner.lock().unwrap().script.push_back(Answer {
            status: 200,
            body,
            hold: Hold::AtOnce,
            headers: Vec::new(),
            events: Some(events),
        });
    }

    /// The next answer streams a tool call, its arguments in `fragments`.
    pub fn stream_tool_call(&self, name: &str, fragments: &[&str]) {
        let mut events = vec![(
            chunk(
                json!({"role": "assistant", "content": null, "tool_calls": [{"index": 0, "id": "call_s1", "type": "function", "function": {"name": name, "arguments": ""}}]}),
                None,
            ),
            Hold::AtOnce,
        )];
        events.extend(fragments.iter().map(|f| {
            (chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": f}}]}), None), Hold::AtOnce)
        }));
        events.push((chunk(json!({}), Some("tool_calls")), Hold::AtOnce));
        let arguments: Value = serde_json::from_str(&fragments.concat()).unwrap();
        self.inner.lock().unwrap().script.push_back(Answer {
            status: 200,
            body: tool_call(name, arguments),
            hold: Hold::AtOnce,
            headers: Vec::new(),
            events: Some(events),
        });
    }

    /// The most calls that were ever in flight at once.
    /// How many requests are being answered now (a slow answer counts until it is sent).
    pub fn in_flight(&self) -> usize {
        self.inner.lock().unwrap().in_flight
    }

    pub fn peak_in_flight(&self) -> usize {
        self.inner.lock().unwrap().peak_in_flight
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

/// OpenAI's 429 for a request-rate limit.
fn rate_limited(retry_after: Option<String>) -> Answer {
    let body = json!({"error": {
        "message": "Rate limit reached for test-model in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.",
        "type": "requests", "param": null, "code": "rate_limit_exceeded"}});
    let headers = retry_after.map(|s| vec![("retry-after", s)]).unwrap_or_default();
    Answer { status: 429, body, hold: Hold::AtOnce, headers, events: None }
}

async fn complete(
    State(inner): State<Arc<Mutex<Inner>>>,
    Json(body): Json<Value>,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let wants_stream = body["stream"] == true;
    let answer = {
        let mut inner = inner.lock().unwrap();
        let last = body["messages"].as_array().and_then(|m| m.last()).cloned().unwrap_or_default();
        let tool_result = (last["role"] == "tool")
            .then(|| serde_json::from_str::<Value>(last["content"].as_str().unwrap_or_default()).ok())
            .flatten();
        inner.requests.push(body);
        inner.arrivals.push(std::time::Instant::now());
        if let Some(at) = inner.clock.as_ref().map(socio::clock::Clock::now_ms) {
            inner.arrivals_on_clock.push(at);
        }
        inner.in_flight += 1;
        inner.peak_in_flight = inner.peak_in_flight.max(inner.in_flight);
        let default_hold = inner.default_hold.clone().map_or(Hold::AtOnce, Hold::Until);
        let limited = inner.limited_until.clone().filter(|(until, _)| std::time::Instant::now() < *until);
        if let Some((_, retry_after)) = limited {
            rate_limited(retry_after)
        } else if let Some(scripted) = inner.script.pop_front() {
            scripted
        } else if let (Some(quote), Some(result)) = (inner.quote_tool.as_ref(), tool_result.as_ref()) {
            Answer {
                status: 200,
                body: text(&quote(result)),
                hold: default_hold.clone(),
                headers: Vec::new(),
                events: None,
            }
        } else {
            Answer {
                status: 200,
                body: text("Olá! Sou o Sócio, com o modelo."),
                hold: default_hold.clone(),
                headers: Vec::new(),
                events: None,
            }
        }
    };
    answer.hold.passed().await;
    inner.lock().unwrap().in_flight -= 1;
    if let (true, Some(events)) = (wants_stream, answer.events) {
        use futures::StreamExt;
        let frames =
            futures::stream::iter(events.into_iter().map(Some).chain([None])).then(|event| async move {
                let frame = match event {
                    Some((chunk, hold)) => {
                        hold.passed().await;
                        format!("data: {chunk}\n\n")
                    }
                    None => "data: [DONE]\n\n".to_owned(),
                };
                Ok::<_, std::convert::Infallible>(axum::body::Bytes::from(frame))
            });
        let mut response = axum::body::Body::from_stream(frames).into_response();
        response.headers_mut().insert("content-type", "text/event-stream".parse().unwrap());
        return response;
    }
    let mut response = (StatusCode::from_u16(answer.status).unwrap(), Json(answer.body)).into_response();
    for (name, value) in answer.headers {
        response.headers_mut().insert(name, value.parse().unwrap());
    }
    response
}
