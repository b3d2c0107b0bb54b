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
//!
//! A person known only by a business-scoped user id (BSUID) is addressed with `recipient` instead
//! of `to`; when both come, `to` wins; the answer's contact then carries `user_id` instead of
//! `wa_id`, and a message naming neither is refused as Meta refuses a bad parameter (400, code 100),
//! per Meta's "Business-scoped user IDs" page
//! (<https://developers.facebook.com/documentation/business-messaging/whatsapp/business-scoped-user-ids/>).
//!
//! What Meta bills shows in the status webhooks it sends later (`statuses[].pricing`: `billable`,
//! `pricing_model` `PMP`, `category`, `type`), per the "Status messages webhook reference"
//! (<https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status/>)
//! and the "Pricing" page (per-message pricing since 1 July 2025): a template is billed by its
//! category (`regular`), free-form text inside the customer-service window is
//! `free_customer_service` in the `service` category, not billable. [`FakeGraph::status_webhook`]
//! writes that delivery for a message it accepted, to post to the app as Meta would.
//!
//! A template message must name an approved template in the language sent, with as many body
//! parameters as the template has variables, each a non-empty text without new lines, tabs or more
//! than four spaces in a row; otherwise Meta refuses it (132001 "Template does not exist",
//! 132000 "Number of parameters does not match", 132018 "There's an issue with the parameters in
//! your template"), per Meta's "Error codes" page
//! (<https://developers.facebook.com/documentation/business-messaging/whatsapp/support/error-codes>)
//! and "Send message templates" (<https://developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates>).
//! The approved ones here are ours, as the README registers them: the login code and the notice
//! (one variable each) and the check-in and the reminder (two each), under [`FakeGraph::cloud_config`]'s names.
//!
//! Media uploads (`POST /{phone-number-id}/media`) are multipart form data with `messaging_product`
//! (`whatsapp`), `type` (the MIME type) and `file`, answered `{"id": "<media id>"}`, per Meta's
//! "Media" reference (<https://developers.facebook.com/docs/whatsapp/cloud-api/reference/media>);
//! an upload without `messaging_product` or the file is refused as Meta refuses a bad parameter
//! (400, code 100). A `document` message then names the media id, a `filename` and a `caption`
//! (<https://developers.facebook.com/docs/whatsapp/cloud-api/messages/document-messages>).

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
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

/// A file uploaded to `/media`.
#[derive(Clone, Debug)]
pub struct Upload {
    pub media_id: String,
    pub messaging_product: String,
    pub mime_type: String,
    pub file_name: String,
    pub file_type: String,
    pub bytes: Vec<u8>,
}

#[derive(Default)]
struct Inner {
    uploads: Vec<Upload>,
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
            .route("/{phone_number_id}/media", post(upload))
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

    pub fn uploads(&self) -> Vec<Upload> {
        self.inner.lock().unwrap().uploads.clone()
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
        let what = format!("the Graph API gets {n} requests");
        crate::helpers::eventually(&what, || async { self.requests().len() >= n }).await;
        self.requests()
    }

    /// The status webhook Meta sends for the `n`th message it accepted (from 1), with what it was
    /// billed as: the body to post to the app, signed, as Meta would.
    pub fn status_webhook(&self, n: usize, status: &str) -> Vec<u8> {
        let requests = self.requests();
        let body = &requests[n - 1].body;
        let mut status_body = json!({
            "id": format!("wamid.fake.{n}"),
            "status": status,
            "timestamp": "1795253690",
            "pricing": pricing_of(body),
        });
        match (body["to"].as_str(), body["recipient"].as_str()) {
            (Some(to), _) => status_body["recipient_id"] = json!(to),
            (None, Some(bsuid)) => status_body["recipient_user_id"] = json!(bsuid),
            (None, None) => {}
        }
        json!({
            "object": "whatsapp_business_account",
            "entry": [{ "id": "102290129340398", "changes": [{ "field": "messages", "value": {
                "messaging_product": "whatsapp",
                "metadata": { "display_phone_number": "5511900000000", "phone_number_id": PHONE_NUMBER_ID },
                "statuses": [status_body]
            }}]}]
        })
        .to_string()
        .into_bytes()
    }

    /// The configuration that points the app at this fake in cloud mode.
    pub fn cloud_config(&self) -> Vec<(&'static str, String)> {
        vec![
            ("WHATSAPP_MODE", "cloud".into()),
            ("WHATSAPP_BUSINESS_NUMBER", "5511900000000".into()),
            ("WHATSAPP_GRAPH_URL", self.url.clone()),
            ("WHATSAPP_PHONE_NUMBER_ID", PHONE_NUMBER_ID.into()),
            ("WHATSAPP_ACCESS_TOKEN", ACCESS_TOKEN.into()),
            ("WHATSAPP_APP_SECRET", APP_SECRET.into()),
            ("WHATSAPP_VERIFY_TOKEN", VERIFY_TOKEN.into()),
            ("WHATSAPP_BATCH_WINDOW_MS", "150".into()),
            ("SOCIO_JOB_RETRY_BASE_MS", "5".into()),
            ("WHATSAPP_TEMPLATE_CHECKIN", "socio_checkin".into()),
            ("WHATSAPP_TEMPLATE_REMINDER", "socio_reminder".into()),
        ]
    }
}

/// The parts of a multipart form: (name, file name, content type, bytes).
fn form_parts(content_type: &str, body: &[u8]) -> Vec<(String, String, String, Vec<u8>)> {
    let Some(boundary) = content_type.split("boundary=").nth(1).map(|b| b.trim_matches('"')) else {
        return Vec::new();
    };
    let delimiter = format!("--{boundary}");
    let mut parts = Vec::new();
    let mut rest = body;
    while let Some(start) = find(rest, delimiter.as_bytes()) {
        rest = &rest[start + delimiter.len()..];
        if rest.starts_with(b"--") {
            break;
        }
        let Some(head_end) = find(rest, b"\r\n\r\n") else { break };
        let head = String::from_utf8_lossy(&rest[..head_end]).to_string();
        let content = &rest[head_end + 4..];
        let end = find(content, format!("\r\n{delimiter}").as_bytes()).unwrap_or(content.len());
        let attribute = |key: &str| {
            head.split(';')
                .find_map(|p| p.trim().strip_prefix(&format!("{key}=\"")))
                .map(|v| v.trim_end_matches('"').split('"').next().unwrap_or_default().to_owned())
        };
        let content_type = head
            .lines()
            .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-type:").map(|v| v.trim().to_owned()))
            .unwrap_or_default();
        parts.push((
            attribute("name").unwrap_or_default(),
            attribute("filename").unwrap_or_default(),
            content_type,
            content[..end].to_vec(),
        ));
        rest = &content[end..];
    }
    parts
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

async fn upload(
    State(inner): State<Arc<Mutex<Inner>>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> (StatusCode, Json<Value>) {
    let content_type = headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
    let parts = form_parts(content_type, &body);
    let field = |name: &str| parts.iter().find(|p| p.0 == name);
    let text =
        |name: &str| field(name).map(|p| String::from_utf8_lossy(&p.3).to_string()).unwrap_or_default();
    let (Some(file), product) = (field("file"), text("messaging_product")) else {
        let error = json!({"error": {"message": "(#100) The parameter file is required.", "type": "OAuthException", "code": 100}});
        return (StatusCode::BAD_REQUEST, Json(error));
    };
    if product != "whatsapp" {
        let error = json!({"error": {"message": "(#100) The parameter messaging_product is required.", "type": "OAuthException", "code": 100}});
        return (StatusCode::BAD_REQUEST, Json(error));
    }
    let mut inner = inner.lock().unwrap();
    let media_id = format!("{}", 4_490_709_327_384_033u64 + inner.uploads.len() as u64);
    inner.uploads.push(Upload {
        media_id: media_id.clone(),
        messaging_product: product,
        mime_type: text("type"),
        file_name: file.1.clone(),
        file_type: file.2.clone(),
        bytes: file.3.clone(),
    });
    (StatusCode::OK, Json(json!({ "id": media_id })))
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
    if body["type"] == "template"
        && let Err((status, code, message)) = check_template(&body["template"])
    {
        let error = json!({"error": {"message": format!("(#{code}) {message}"), "type": "OAuthException", "code": code}});
        return (StatusCode::from_u16(status).unwrap(), Json(error));
    }
    let to = body["to"].as_str().unwrap_or_default().to_owned();
    let recipient = body["recipient"].as_str().unwrap_or_default().to_owned();
    if to.is_empty() && recipient.is_empty() {
        let error = json!({"error": {"message": "(#100) The parameter to is required.", "type": "OAuthException", "code": 100}});
        return (StatusCode::BAD_REQUEST, Json(error));
    }
    inner.sent += 1;
    let id = format!("wamid.fake.{}", inner.sent);
    if to.is_empty() {
        return (
            StatusCode::OK,
            Json(json!({
                "messaging_product": "whatsapp",
                "contacts": [{ "input": recipient, "user_id": recipient }],
                "messages": [{ "id": id }],
            })),
        );
    }
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
            "messages": [{ "id": id }],
        })),
    )
}

/// The approved templates and their body variables.
const APPROVED_TEMPLATES: &[(&str, usize)] =
    &[("login_code", 1), ("account_notice", 1), ("socio_checkin", 2), ("socio_reminder", 2)];

/// Refuses a template message as Meta does: unknown name, wrong number of body parameters, or a
/// parameter Meta does not take.
fn check_template(template: &Value) -> Result<(), (u16, i64, &'static str)> {
    let name = template["name"].as_str().unwrap_or_default();
    let Some((_, variables)) = APPROVED_TEMPLATES.iter().find(|(n, _)| *n == name) else {
        return Err((404, 132001, "Template name does not exist in the translation"));
    };
    let body = template["components"].as_array().and_then(|c| c.iter().find(|c| c["type"] == "body"));
    let params = body.and_then(|b| b["parameters"].as_array()).cloned().unwrap_or_default();
    if params.len() != *variables {
        return Err((400, 132000, "Number of parameters does not match the expected number of params"));
    }
    let bad = |text: &str| text.trim().is_empty() || text.contains(['\n', '\t']) || text.contains("     ");
    if params.iter().any(|p| bad(p["text"].as_str().unwrap_or_default())) {
        return Err((400, 132018, "There's an issue with the parameters in your template"));
    }
    Ok(())
}

/// What Meta bills a message as: a template by the category it was approved in (our login code
/// is an authentication template, the notice a utility one), free-form text inside the window is
/// a free service message.
fn pricing_of(body: &Value) -> Value {
    match body["type"].as_str() {
        Some("template") => {
            let category =
                if body["template"]["name"] == "login_code" { "authentication" } else { "utility" };
            json!({ "billable": true, "pricing_model": "PMP", "category": category, "type": "regular" })
        }
        _ => {
            json!({ "billable": false, "pricing_model": "PMP", "category": "service", "type": "free_customer_service" })
        }
    }
}

/// Meta's `user_preferences` webhook for Ana: she stopped (`stop`) or resumed (`resume`) the
/// business's marketing messages at `seconds` (Unix). The shape of Meta's "user_preferences webhook
/// reference" (developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/user_preferences):
/// `category` marketing_messages, `value` stop or resume, a numeric `timestamp`, a `detail` on a stop.
pub fn user_preferences(value: &str, seconds: i64) -> String {
    let mut preference = json!({"wa_id": "5511987654321", "category": "marketing_messages", "value": value, "timestamp": seconds});
    if value == "stop" {
        preference["detail"] = json!("User requested to stop marketing messages");
    }
    json!({"object": "whatsapp_business_account", "entry": [{"id": "102290129340398", "changes": [{"field": "user_preferences", "value": {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "5511900000000", "phone_number_id": PHONE_NUMBER_ID},
        "contacts": [{"profile": {"name": "Ana"}, "wa_id": "5511987654321"}],
        "user_preferences": [preference]
    }}]}]})
    .to_string()
}
