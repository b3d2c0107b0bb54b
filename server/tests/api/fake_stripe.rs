//! A local Stripe: Checkout Sessions, subscriptions, invoices, payment intents, charges and
//! refunds as its API keeps them, for the billing tests (`stripe.rs`).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    Form, Json, Router,
    extract::{Path, RawQuery, State},
    http::{HeaderMap, StatusCode},
    routing::{get, post},
};
use serde_json::{Value, json};

/// A local Stripe that keeps its objects the way Stripe's API reference shows them (API version
/// 2024-06-20, the one the client pins):
/// - a Checkout Session in `subscription` mode has `payment_intent: null` and a `subscription`; the
///   first payment is on the subscription's `latest_invoice` (<https://docs.stripe.com/api/checkout/sessions/object>,
///   <https://docs.stripe.com/api/subscriptions/object#subscription_object-latest_invoice>,
///   <https://docs.stripe.com/api/invoices/object?api-version=2024-06-20#invoice_object-payment_intent>);
///   in `payment` mode it has a `payment_intent` and `subscription: null`;
/// - `expand[]` replaces an id with its object (<https://docs.stripe.com/api/expanding_objects>);
/// - receipts: a finalised invoice has a `hosted_invoice_url`
///   (<https://docs.stripe.com/api/invoices/object#invoice_object-hosted_invoice_url>); a payment
///   intent names its `latest_charge` (<https://docs.stripe.com/api/payment_intents/object#payment_intent_object-latest_charge>),
///   whose `receipt_url` shows the receipt (<https://docs.stripe.com/api/charges/object#charge_object-receipt_url>);
/// - `DELETE /v1/subscriptions/{id}` cancels now, `POST /v1/subscriptions/{id}` with
///   `cancel_at_period_end=true` at the period's end (<https://docs.stripe.com/api/subscriptions/cancel>,
///   <https://docs.stripe.com/api/subscriptions/update>);
/// - `POST /v1/refunds` refunds a `payment_intent`, once: a second refund of it is refused with
///   `charge_already_refunded` (<https://docs.stripe.com/api/refunds/create>,
///   <https://docs.stripe.com/error-codes#charge-already-refunded>);
/// - a POST repeated with the same `Idempotency-Key` gets the first answer again and does nothing
///   twice (<https://docs.stripe.com/api/idempotent_requests>);
/// - a charge says how it was paid in `payment_method_details.type` ("card", "boleto", "pix";
///   <https://docs.stripe.com/api/charges/object#charge_object-payment_method_details-type>), read
///   through `GET /v1/payment_intents/{id}?expand[]=latest_charge`
///   (<https://docs.stripe.com/api/payment_intents/retrieve>);
/// - a boleto cannot be refunded ("Refunds / Partial refunds: No / No",
///   <https://docs.stripe.com/payments/boleto#refunds>): `POST /v1/refunds` for one is refused;
/// - errors are `{"error": {"type", "code", "message"}}` with a 4xx (refused) or 5xx status.
#[derive(Default)]
pub struct Inner {
    pub created: Vec<(Vec<(String, String)>, String)>,
    pub sessions: HashMap<String, Value>,
    subscriptions: HashMap<String, Value>,
    invoices: HashMap<String, Value>,
    payment_intents: HashMap<String, Value>,
    charges: HashMap<String, Value>,
    refunds: Vec<String>,
    /// How the next checkouts are paid ("card" unless `pay_with` says otherwise).
    method: Option<String>,
    /// Answers already given, by idempotency key.
    replays: HashMap<String, (u16, Value)>,
    /// Failures to answer with next, by "METHOD /path" prefix.
    failures: Vec<(String, u16, Value)>,
    pub versions: Vec<String>,
}

impl Inner {
    fn fail(&mut self, request: &str) -> Option<(StatusCode, Json<Value>)> {
        let at = self.failures.iter().position(|(prefix, _, _)| request.starts_with(prefix.as_str()))?;
        let (_, status, body) = self.failures.remove(at);
        Some((StatusCode::from_u16(status).unwrap(), Json(body)))
    }

    fn expanded(&self, value: &Value, path: &str) -> Value {
        let mut value = value.clone();
        let (head, rest) = path.split_once('.').unwrap_or((path, ""));
        if let Some(id) = value[head].as_str() {
            let object = [&self.subscriptions, &self.invoices, &self.payment_intents, &self.charges]
                .iter()
                .find_map(|objects| objects.get(id))
                .cloned()
                .unwrap_or(Value::Null);
            value[head] = if rest.is_empty() { object } else { self.expanded(&object, rest) };
        }
        value
    }
}

#[derive(Clone)]
pub struct FakeStripe {
    pub url: String,
    pub inner: Arc<Mutex<Inner>>,
}

impl FakeStripe {
    pub async fn start() -> Self {
        let inner = Arc::new(Mutex::new(Inner::default()));
        let app = Router::new()
            .route("/v1/checkout/sessions", post(create))
            .route("/v1/checkout/sessions/{id}", get(fetch_session))
            .route(
                "/v1/subscriptions/{id}",
                get(fetch_subscription).post(update_subscription).delete(cancel_subscription),
            )
            .route("/v1/payment_intents/{id}", get(fetch_payment_intent))
            .route("/v1/refunds", post(refund))
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { url, inner }
    }

    /// The next request matching `request` ("POST /v1/refunds") answers `status` with Stripe's error shape.
    pub fn fail_next(&self, request: &str, status: u16, code: &str) {
        let body = json!({"error": {"type": if status >= 500 { "api_error" } else { "invalid_request_error" }, "code": code, "message": format!("{code} (fake)")}});
        self.inner.lock().unwrap().failures.push((request.to_owned(), status, body));
    }

    /// Checkouts from now on are paid with `method` ("boleto", "pix", "card").
    pub fn pay_with(&self, method: &str) {
        self.inner.lock().unwrap().method = Some(method.to_owned());
    }

    pub fn subscription(&self, id: &str) -> Value {
        self.inner.lock().unwrap().subscriptions.get(id).cloned().unwrap_or(Value::Null)
    }

    pub fn refunds(&self) -> Vec<String> {
        self.inner.lock().unwrap().refunds.clone()
    }

    /// How many Checkout Sessions were created.
    pub fn checkout_sessions_created(&self) -> usize {
        self.inner.lock().unwrap().sessions.len()
    }
}

fn expand_paths(query: &Option<String>) -> Vec<String> {
    query
        .as_deref()
        .unwrap_or_default()
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .filter(|(k, _)| k.replace("%5B%5D", "[]") == "expand[]")
        .map(|(_, v)| v.to_owned())
        .collect()
}

fn idempotency_key(headers: &HeaderMap) -> String {
    headers.get("idempotency-key").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
}

fn record_version(inner: &mut Inner, headers: &HeaderMap) {
    inner
        .versions
        .push(headers.get("stripe-version").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned());
}

async fn create(
    State(inner): State<Arc<Mutex<Inner>>>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> Json<Value> {
    // Creating a session takes Stripe a moment, as over the network: long enough for requests
    // racing each other to overlap.
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    let mut inner = inner.lock().unwrap();
    record_version(&mut inner, &headers);
    let n = inner.created.len() + 1;
    let id = format!("cs_test_{n}");
    let get = |k: &str| form.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone()).unwrap_or_default();
    let subscription_mode = get("mode") == "subscription";
    let method = inner.method.clone().unwrap_or_else(|| "card".into());
    let details = json!({"type": method});
    // The person pays on Stripe's page: the session is complete and paid by the time it is read.
    let (subscription, payment_intent) = if subscription_mode {
        let (sub, invoice) = (format!("sub_{n}"), format!("in_{n}"));
        let (payment, charge) = (format!("pi_invoice_{n}"), format!("ch_invoice_{n}"));
        inner.charges.insert(
            charge.clone(),
            json!({"id": charge, "object": "charge", "paid": true, "payment_intent": payment,
                   "payment_method_details": details, "receipt_url": null}),
        );
        inner.payment_intents.insert(
            payment.clone(),
            json!({"id": payment, "object": "payment_intent", "status": "succeeded", "latest_charge": charge}),
        );
        inner.invoices.insert(
            invoice.clone(),
            json!({"id": invoice, "object": "invoice", "subscription": sub, "status": "paid",
                   "billing_reason": "subscription_create", "payment_intent": format!("pi_invoice_{n}"),
                   "hosted_invoice_url": format!("https://invoice.stripe.com/i/acct_test/{invoice}")}),
        );
        inner.subscriptions.insert(
            sub.clone(),
            json!({"id": sub, "object": "subscription", "status": "active", "cancel_at_period_end": false,
                   "latest_invoice": invoice, "metadata": {"checkout_session_id": get("subscription_data[metadata][checkout_session_id]")}}),
        );
        (json!(sub), Value::Null)
    } else {
        let (payment, charge) = (format!("pi_{n}"), format!("ch_{n}"));
        inner.charges.insert(
            charge.clone(),
            json!({"id": charge, "object": "charge", "paid": true, "payment_intent": payment,
                   "payment_method_details": details,
                   "receipt_url": format!("https://pay.stripe.com/receipts/payment/{charge}")}),
        );
        inner.payment_intents.insert(
            payment.clone(),
            json!({"id": payment, "object": "payment_intent", "status": "succeeded", "latest_charge": charge}),
        );
        (Value::Null, json!(payment))
    };
    inner.sessions.insert(
        id.clone(),
        json!({"id": id, "object": "checkout.session", "mode": get("mode"), "payment_status": "paid", "status": "complete",
               "client_reference_id": get("client_reference_id"), "customer": "cus_1",
               "subscription": subscription, "payment_intent": payment_intent}),
    );
    let key = idempotency_key(&headers);
    inner.created.push((form, key));
    Json(json!({"id": id, "object": "checkout.session", "url": format!("https://checkout.stripe.test/{id}")}))
}

async fn fetch_session(
    State(inner): State<Arc<Mutex<Inner>>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Json<Value> {
    let inner = inner.lock().unwrap();
    let mut session = inner.sessions.get(&id).cloned().unwrap_or(Value::Null);
    for path in expand_paths(&query) {
        session = inner.expanded(&session, &path);
    }
    Json(session)
}

async fn fetch_subscription(
    State(inner): State<Arc<Mutex<Inner>>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> (StatusCode, Json<Value>) {
    let inner = inner.lock().unwrap();
    let Some(mut subscription) = inner.subscriptions.get(&id).cloned() else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"error": {"type": "invalid_request_error", "code": "resource_missing"}})),
        );
    };
    for path in expand_paths(&query) {
        subscription = inner.expanded(&subscription, &path);
    }
    (StatusCode::OK, Json(subscription))
}

async fn fetch_payment_intent(
    State(inner): State<Arc<Mutex<Inner>>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> (StatusCode, Json<Value>) {
    let inner = inner.lock().unwrap();
    let Some(mut payment) = inner.payment_intents.get(&id).cloned() else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"error": {"type": "invalid_request_error", "code": "resource_missing"}})),
        );
    };
    for path in expand_paths(&query) {
        payment = inner.expanded(&payment, &path);
    }
    (StatusCode::OK, Json(payment))
}

/// Runs a POST or DELETE once per idempotency key; a repeat gets the first answer.
fn once(
    inner: &mut Inner,
    request: String,
    headers: &HeaderMap,
    act: impl FnOnce(&mut Inner) -> (u16, Value),
) -> (StatusCode, Json<Value>) {
    record_version(inner, headers);
    let key = idempotency_key(headers);
    if let Some((status, body)) = inner.replays.get(&key).filter(|_| !key.is_empty()) {
        return (StatusCode::from_u16(*status).unwrap(), Json(body.clone()));
    }
    if let Some(failure) = inner.fail(&request) {
        return failure; // a failed request is not stored: a retry runs it
    }
    let (status, body) = act(inner);
    if !key.is_empty() {
        inner.replays.insert(key, (status, body.clone()));
    }
    (StatusCode::from_u16(status).unwrap(), Json(body))
}

async fn update_subscription(
    State(inner): State<Arc<Mutex<Inner>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> (StatusCode, Json<Value>) {
    let mut inner = inner.lock().unwrap();
    once(&mut inner, format!("POST /v1/subscriptions/{id}"), &headers, |inner| {
        let Some(subscription) = inner.subscriptions.get_mut(&id) else {
            return (404, json!({"error": {"code": "resource_missing"}}));
        };
        if form.iter().any(|(k, v)| k == "cancel_at_period_end" && v == "true") {
            subscription["cancel_at_period_end"] = json!(true);
        }
        (200, subscription.clone())
    })
}

async fn cancel_subscription(
    State(inner): State<Arc<Mutex<Inner>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> (StatusCode, Json<Value>) {
    let mut inner = inner.lock().unwrap();
    once(&mut inner, format!("DELETE /v1/subscriptions/{id}"), &headers, |inner| {
        let Some(subscription) = inner.subscriptions.get_mut(&id) else {
            return (404, json!({"error": {"code": "resource_missing"}}));
        };
        subscription["status"] = json!("canceled");
        (200, subscription.clone())
    })
}

async fn refund(
    State(inner): State<Arc<Mutex<Inner>>>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> (StatusCode, Json<Value>) {
    let payment =
        form.iter().find(|(k, _)| k == "payment_intent").map(|(_, v)| v.clone()).unwrap_or_default();
    let mut inner = inner.lock().unwrap();
    once(&mut inner, "POST /v1/refunds".into(), &headers, |inner| {
        let charge =
            inner.payment_intents.get(&payment).and_then(|p| p["latest_charge"].as_str().map(str::to_owned));
        let method =
            charge.and_then(|c| inner.charges.get(&c)).map(|c| c["payment_method_details"]["type"].clone());
        if method == Some(json!("boleto")) {
            return (
                400,
                json!({"error": {"type": "invalid_request_error", "message": "Boleto payments cannot be refunded."}}),
            );
        }
        if inner.refunds.contains(&payment) {
            return (
                400,
                json!({"error": {"type": "invalid_request_error", "code": "charge_already_refunded"}}),
            );
        }
        inner.refunds.push(payment.clone());
        (
            200,
            json!({"id": format!("re_{}", inner.refunds.len()), "object": "refund", "payment_intent": payment, "status": "succeeded"}),
        )
    })
}
