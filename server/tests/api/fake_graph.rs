//! A local stand-in for Meta's Graph API that speaks its wire format: it records every
//! `POST /{phone-number-id}/messages` and answers from a script (then 200 with a fresh wamid).
//!
//! Like the Cloud API it resolves the recipient to a WhatsApp account: the send response lists
//! `contacts[].input` (what was sent as `to`) and `contacts[].wa_id` (the account WhatsApp resolved),
//! per Meta's "Send messages" reference
//! (<https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages>). Accounts added
//! with [`FakeGraph::add_account`] are found under either spelling of a Brazilian mobile, the way
//! WhatsApp reaches an older account whose `wa_id` lacks the ninth digit.
//!
//! A read receipt with a typing indicator goes to the same endpoint (`status: read`, `message_id`,
//! `typing_indicator`) and is answered `{"success": true}`, per Meta's "Typing indicators" page
//! (<https://developers.facebook.com/documentation/business-messaging/whatsapp/typing-indicators/>);
//! those are kept apart ([`FakeGraph::reads`]) so that the script and the counts are about sends.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    Json, Router,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    routing::post,
};
use serde_json::{Value, json};

pub const PHONE_NUMBER_ID: &str = "106540352242922";
pub const ACCESS_TOKEN: &str = "test-access-token";
pub const APP_SECRET: &str = "test-app-secret";
pub const VERIFY_TOKEN: &str = "test-verify-token";

#[derive(Clone, Debug)]
pub struct Recorded {
    pub phone_number_id: String,
    pub authorization: String,
    pub body: Value,
}

#[derive(Default)]
struct Inner {
    requests: Vec<Recorded>,
    reads: Vec<(std::time::Instant, Value)>,
    reads_fail: bool,
    script: VecDeque<(u16, Value)>,
    sent: u32,
    accounts: Vec<String>,
}

/// A Brazilian mobile's digits without the ninth digit (`5531987654321` → `553187654321`).
fn without_ninth_digit(digits: &str) -> String {
    if digits.len() == 13 && digits.starts_with("55") && digits.as_bytes()[4] == b'9' {
        format!("{}{}", &digits[..4], &digits[5..])
    } else {
        digits.to_owned()
    }
}

#[derive(Clone)]
pub struct FakeGraph {
    pub url: String,
    inner: Arc<Mutex<Inner>>,
}

impl FakeGraph {
    pub async fn start() -> Self {
        let inner = Arc::new(Mutex::new(Inner::default()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let media_base = url.clone();
        // Media: the id gives a URL, the URL gives the bytes (a voice note here).
        let app = Router::new()
            .route("/{phone_number_id}/messages", post(messages))
            .route(
                "/{media_id}",
                axum::routing::get(move |Path(id): Path<String>| async move {
                    Json(serde_json::json!({"messaging_product": "whatsapp", "url": format!("{media_base}/media/{id}"), "mime_type": "audio/ogg", "id": id}))
                }),
            )
            .route("/media/{id}", axum::routing::get(|| async { b"OggS fake voice note".to_vec() }))
            .with_state(inner.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { url, inner }
    }

    /// The next answers, in order, before the default 200s.
    pub fn answer_with(&self, answers: impl IntoIterator<Item = (u16, Value)>) {
        self.inner.lock().unwrap().script.extend(answers);
    }

    /// A WhatsApp account, by its `wa_id`.
    pub fn add_account(&self, wa_id: &str) {
        self.inner.lock().unwrap().accounts.push(wa_id.to_owned());
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.inner.lock().unwrap().requests.clone()
    }

    /// The read receipts (with their typing indicators) asked for, with when they came.
    pub fn reads(&self) -> Vec<(std::time::Instant, Value)> {
        self.inner.lock().unwrap().reads.clone()
    }

    /// Every read receipt from now on fails with Meta's generic 500.
    pub fn fail_reads(&self) {
        self.inner.lock().unwrap().reads_fail = true;
    }

    /// Waits until at least `n` requests arrived; returns them.
    pub async fn wait_for_requests(&self, n: usize) -> Vec<Recorded> {
        for _ in 0..1000 {
            let requests = self.requests();
            if requests.len() >= n {
                return requests;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the Graph API got {} requests, expected {n}", self.requests().len());
    }

    /// The configuration that points the app at this fake in cloud mode.
    pub fn cloud_config(&self) -> Vec<(&'static str, String)> {
        vec![
            ("WHATSAPP_MODE", "cloud".into()),
            ("WHATSAPP_GRAPH_URL", self.url.clone()),
            ("WHATSAPP_PHONE_NUMBER_ID", PHONE_NUMBER_ID.into()),
            ("WHATSAPP_ACCESS_TOKEN", ACCESS_TOKEN.into()),
            ("WHATSAPP_APP_SECRET", APP_SECRET.into()),
            ("WHATSAPP_VERIFY_TOKEN", VERIFY_TOKEN.into()),
            ("WHATSAPP_BATCH_WINDOW_MS", "150".into()),
            ("SOCIO_JOB_RETRY_BASE_MS", "5".into()),
        ]
    }
}

async fn messages(
    State(inner): State<Arc<Mutex<Inner>>>,
    Path(phone_number_id): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    let mut inner = inner.lock().unwrap();
    if body["status"] == "read" {
        inner.reads.push((std::time::Instant::now(), body));
        return if inner.reads_fail {
            let error = json!({"error": {"message": "An unknown error occurred", "type": "OAuthException", "code": 1}});
            (StatusCode::INTERNAL_SERVER_ERROR, Json(error))
        } else {
            (StatusCode::OK, Json(json!({ "success": true })))
        };
    }
    inner.requests.push(Recorded {
        phone_number_id,
        authorization: headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned(),
        body: body.clone(),
    });
    if let Some((status, answer)) = inner.script.pop_front() {
        return (StatusCode::from_u16(status).unwrap(), Json(answer));
    }
    inner.sent += 1;
    let to = body["to"].as_str().unwrap_or_default().to_owned();
    let wa_id = inner
        .accounts
        .iter()
        .find(|account| without_ninth_digit(account) == without_ninth_digit(&to))
        .cloned()
        .unwrap_or_else(|| to.clone());
    (
        StatusCode::OK,
        Json(json!({
            "messaging_product": "whatsapp",
            "contacts": [{ "input": to, "wa_id": wa_id }],
            "messages": [{ "id": format!("wamid.fake.{}", inner.sent) }],
        })),
    )
}
