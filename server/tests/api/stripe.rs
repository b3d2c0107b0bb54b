//! Billing with Stripe, against a local fake of its API and signed webhook events: Checkout
//! Session parameters, signatures (good, bad, stale, replayed), payment failure, refund.

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
use socio::billing::stripe::sign;

use crate::{
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines, on_postgres,
};

const ANA: &str = "+5511987654321";
const ADMIN: &str = "+5531999990000";
const SECRET: &str = "whsec_test_secret";

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
/// - errors are `{"error": {"type", "code", "message"}}` with a 4xx (refused) or 5xx status.
#[derive(Default)]
struct Inner {
    created: Vec<(Vec<(String, String)>, String)>,
    sessions: HashMap<String, Value>,
    subscriptions: HashMap<String, Value>,
    invoices: HashMap<String, Value>,
    payment_intents: HashMap<String, Value>,
    charges: HashMap<String, Value>,
    refunds: Vec<String>,
    /// Answers already given, by idempotency key.
    replays: HashMap<String, (u16, Value)>,
    /// Failures to answer with next, by "METHOD /path" prefix.
    failures: Vec<(String, u16, Value)>,
    versions: Vec<String>,
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
struct FakeStripe {
    url: String,
    inner: Arc<Mutex<Inner>>,
}

impl FakeStripe {
    async fn start() -> Self {
        let inner = Arc::new(Mutex::new(Inner::default()));
        let app = Router::new()
            .route("/v1/checkout/sessions", post(create))
            .route("/v1/checkout/sessions/{id}", get(fetch_session))
            .route(
                "/v1/subscriptions/{id}",
                get(fetch_subscription).post(update_subscription).delete(cancel_subscription),
            )
            .route("/v1/refunds", post(refund))
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { url, inner }
    }

    /// The next request matching `request` ("POST /v1/refunds") answers `status` with Stripe's error shape.
    fn fail_next(&self, request: &str, status: u16, code: &str) {
        let body = json!({"error": {"type": if status >= 500 { "api_error" } else { "invalid_request_error" }, "code": code, "message": format!("{code} (fake)")}});
        self.inner.lock().unwrap().failures.push((request.to_owned(), status, body));
    }

    fn subscription(&self, id: &str) -> Value {
        self.inner.lock().unwrap().subscriptions.get(id).cloned().unwrap_or(Value::Null)
    }

    fn refunds(&self) -> Vec<String> {
        self.inner.lock().unwrap().refunds.clone()
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
    // The person pays on Stripe's page: the session is complete and paid by the time it is read.
    let (subscription, payment_intent) = if subscription_mode {
        let (sub, invoice) = (format!("sub_{n}"), format!("in_{n}"));
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

async fn app(db: TestDatabase, stripe: &FakeStripe) -> TestApp {
    let app = spawn_app_with(
        db,
        &[
            ("PAYMENTS_PROVIDER", "stripe".into()),
            ("STRIPE_SECRET_KEY", "sk_test_123".into()),
            ("STRIPE_WEBHOOK_SECRET", SECRET.into()),
            ("STRIPE_PRICE_PRO_MONTHLY", "price_monthly".into()),
            ("STRIPE_PRICE_PRO_YEARLY", "price_yearly".into()),
            ("STRIPE_API_URL", stripe.url.clone()),
            ("WHATSAPP_BATCH_WINDOW_MS", "10".into()),
            ("ADMIN_PHONES", ADMIN.into()),
        ],
    )
    .await;
    let hello = json!({"from": ANA, "name": "Ana Lima", "text": "Oi"}).to_string();
    app.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &hello).await;
    app
}

async fn checkout(app: &TestApp, interval: &str) -> String {
    let (status, body) = app
        .call(
            reqwest::Method::POST,
            "/api/subscriptions/checkout",
            json!({"planType": "pro", "phoneNumber": ANA, "interval": interval}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["checkoutUrl"].as_str().unwrap().rsplit('/').next().unwrap().to_owned()
}

async fn deliver(app: &TestApp, event: &Value, age_s: i64) -> u16 {
    let body = event.to_string();
    let t = app.db.now_ms() / 1000 - age_s;
    app.http
        .post(format!("{}/api/webhooks/stripe", app.address))
        .header("stripe-signature", sign(SECRET, body.as_bytes(), t))
        .body(body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

fn completed(cs: &str, event_id: &str) -> Value {
    json!({"id": event_id, "object": "event", "type": "checkout.session.completed", "data": {"object": {"id": cs, "object": "checkout.session"}}})
}

async fn tier(app: &TestApp) -> String {
    app.tier_of(ANA).await
}

async fn a_second_click_on_pay_reopens_the_stripe_checkout_without_asking_stripe_again(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let first = checkout(&app, "monthly").await;
    let again = checkout(&app, "monthly").await;
    assert_eq!(first, again);
    assert_eq!(stripe.inner.lock().unwrap().created.len(), 1, "Stripe was asked once");
}
on_both_engines!(a_second_click_on_pay_reopens_the_stripe_checkout_without_asking_stripe_again);

async fn clicks_on_pay_at_the_same_moment_open_one_stripe_checkout(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let clicks = (0..6).map(|_| checkout(&app, "monthly"));
    let opened: std::collections::HashSet<String> =
        futures::future::join_all(clicks).await.into_iter().collect();
    assert_eq!(opened.len(), 1, "every click reopens the same checkout: {opened:?}");
    assert_eq!(stripe.inner.lock().unwrap().created.len(), 1, "Stripe was asked once");
    assert_eq!(app.count("select count(*) as n from checkout_sessions").await, 1);
}
on_both_engines!(clicks_on_pay_at_the_same_moment_open_one_stripe_checkout);

async fn clicks_through_two_servers_at_once_open_one_stripe_checkout(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let second_db = db.shared();
    let (first, second) = (app(db, &stripe).await, app(second_db, &stripe).await);
    let clicks = (0..6).map(|n| checkout(if n % 2 == 0 { &first } else { &second }, "monthly"));
    let opened: std::collections::HashSet<String> =
        futures::future::join_all(clicks).await.into_iter().collect();
    assert_eq!(opened.len(), 1, "{opened:?}");
    assert_eq!(
        stripe.inner.lock().unwrap().created.len(),
        1,
        "Stripe was asked once, whichever server was asked"
    );
}
on_postgres!(clicks_through_two_servers_at_once_open_one_stripe_checkout);

async fn checkout_sessions_carry_the_plan_the_payment_methods_and_our_ids(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    checkout(&app, "monthly").await;
    checkout(&app, "yearly").await;
    let created = stripe.inner.lock().unwrap().created.clone();
    let field = |i: usize, k: &str| {
        created[i].0.iter().filter(|(key, _)| key == k).map(|(_, v)| v.clone()).collect::<Vec<_>>()
    };
    assert_eq!(field(0, "mode"), ["subscription"]);
    assert_eq!(field(0, "line_items[0][price]"), ["price_monthly"]);
    assert_eq!(
        [field(0, "payment_method_types[0]"), field(0, "payment_method_types[1]")].concat(),
        ["card", "boleto"]
    );
    assert_eq!(field(1, "mode"), ["payment"]);
    assert_eq!(field(1, "line_items[0][price]"), ["price_yearly"]);
    assert_eq!(field(1, "payment_method_types[2]"), ["pix"]);
    assert_eq!(
        field(0, "success_url"),
        [format!("http://localhost:8080/success?session={}&phoneNumber=%2B5511987654321", created[0].1)],
        "the page after paying knows which checkout it was"
    );
    assert_eq!(field(0, "cancel_url"), ["http://localhost:8080/checkout/5511987654321"]);
    assert_eq!(
        field(0, "subscription_data[metadata][checkout_session_id]"),
        field(0, "client_reference_id"),
        "the subscription names our session too"
    );
    assert_eq!(
        field(0, "client_reference_id"),
        [created[0].1.clone()],
        "our session id, also the idempotency key"
    );
    assert_eq!(tier(&app).await, "free");
}
on_both_engines!(checkout_sessions_carry_the_plan_the_payment_methods_and_our_ids);

async fn a_signed_completed_checkout_makes_the_user_pro_once_and_bad_or_stale_signatures_are_refused(
    db: TestDatabase,
) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let cs = checkout(&app, "monthly").await;
    let event = completed(&cs, "evt_1");
    let forged = app
        .http
        .post(format!("{}/api/webhooks/stripe", app.address))
        .header("stripe-signature", sign("whsec_wrong", event.to_string().as_bytes(), app.db.now_ms() / 1000))
        .body(event.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 400);
    assert_eq!(deliver(&app, &event, 400).await, 400, "older than five minutes");
    assert_eq!(tier(&app).await, "free");
    assert_eq!(deliver(&app, &event, 0).await, 200);
    assert_eq!(tier(&app).await, "pro");
    assert_eq!(deliver(&app, &event, 0).await, 200, "a replay is acknowledged");
    assert_eq!(deliver(&app, &completed(&cs, "evt_2"), 0).await, 200, "a second event for the same session");
    assert_eq!(app.count("select count(*) as n from subscriptions").await, 1, "and changes nothing");
}
on_both_engines!(a_signed_completed_checkout_makes_the_user_pro_once_and_bad_or_stale_signatures_are_refused);

/// Our checkout session behind Stripe's (its `client_reference_id`).
fn ours(stripe: &FakeStripe, cs: &str) -> String {
    let inner = stripe.inner.lock().unwrap();
    inner.sessions[cs]["client_reference_id"].as_str().unwrap().to_owned()
}

async fn result(app: &TestApp, session: &str) -> (u16, Value) {
    app.call(reqwest::Method::GET, &format!("/api/subscriptions/checkout/{session}"), Value::Null, None).await
}

async fn the_page_after_paying_shows_the_payment_and_stripe_s_receipt_once_stripe_confirms_it(
    db: TestDatabase,
) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let monthly = checkout(&app, "monthly").await;
    let session = ours(&stripe, &monthly);
    let (status, before) = result(&app, &session).await;
    assert_eq!(status, 200, "{before}");
    assert_eq!(before["data"]["state"], "open", "back from Stripe before its event: not paid yet");
    assert_eq!(before["data"]["receiptUrl"], "");
    assert_eq!(before["data"]["amount"], 100.0);
    deliver(&app, &completed(&monthly, "evt_1"), 0).await;
    let (_, paid) = result(&app, &session).await;
    assert_eq!(paid["data"]["state"], "paid", "{paid}");
    assert_eq!(paid["data"]["interval"], "monthly");
    assert_eq!(
        paid["data"]["receiptUrl"], "https://invoice.stripe.com/i/acct_test/in_1",
        "the first invoice's page"
    );
    assert!(paid["data"]["paidAt"].as_str().is_some_and(|t| t.starts_with("20")), "{paid}");
    assert!(paid["data"]["whatsappUrl"].as_str().unwrap().starts_with("https://wa.me/"));
    assert!(
        paid.to_string().find("Ana").is_none() && paid.to_string().find("98765").is_none(),
        "it names no person"
    );

    let yearly = checkout(&app, "yearly").await;
    deliver(&app, &completed(&yearly, "evt_2"), 0).await;
    let (_, paid) = result(&app, &ours(&stripe, &yearly)).await;
    assert_eq!(
        paid["data"]["receiptUrl"], "https://pay.stripe.com/receipts/payment/ch_2",
        "the charge's receipt"
    );
    assert_eq!(paid["data"]["amount"], 899.0);

    for unknown in [uuid::Uuid::new_v4().to_string(), "not-a-session".into(), monthly.clone()] {
        let (status, body) = result(&app, &unknown).await;
        assert_eq!(status, 404, "{unknown}: {body}");
    }
}
on_both_engines!(the_page_after_paying_shows_the_payment_and_stripe_s_receipt_once_stripe_confirms_it);

async fn a_failed_renewal_is_past_due_and_the_user_is_told_on_whatsapp(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let cs = checkout(&app, "monthly").await;
    deliver(&app, &completed(&cs, "evt_1"), 0).await;
    let failed = json!({"id": "evt_3", "type": "invoice.payment_failed", "data": {"object": {"id": "in_1", "subscription": "sub_1"}}});
    assert_eq!(deliver(&app, &failed, 0).await, 200);
    let (token, _) = app.login(ANA).await;
    let (_, status) =
        app.call(reqwest::Method::GET, "/api/subscriptions/status", Value::Null, Some(&token)).await;
    assert_eq!(status["data"]["subscription"]["state"], "past_due");
    eventually("the notice reaches WhatsApp", || async {
        app.outbox_has("+5511987654321", "Não conseguimos renovar").await
    })
    .await;
    let deleted = json!({"id": "evt_4", "type": "customer.subscription.deleted", "data": {"object": {"id": "sub_1", "status": "canceled"}}});
    assert_eq!(deliver(&app, &deleted, 0).await, 200);
    assert_eq!(tier(&app).await, "free");
}
on_both_engines!(a_failed_renewal_is_past_due_and_the_user_is_told_on_whatsapp);

async fn cancel(app: &TestApp, token: &str) -> (u16, Value) {
    app.call(reqwest::Method::POST, "/api/subscriptions/cancel", json!({}), Some(token)).await
}

/// A paid monthly plan (`sub_1`, first invoice paid by `pi_invoice_1`) and Ana's session.
async fn paid_monthly(app: &TestApp) -> String {
    let cs = checkout(app, "monthly").await;
    assert_eq!(deliver(app, &completed(&cs, "evt_1"), 0).await, 200);
    assert_eq!(tier(app).await, "pro");
    app.login(ANA).await.0
}

async fn cancelling_a_monthly_plan_within_the_guarantee_refunds_its_first_invoice_and_ends_it_at_stripe(
    db: TestDatabase,
) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let token = paid_monthly(&app).await;
    let (status, body) = cancel(&app, &token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["refunded"], true);
    assert!(body["message"].as_str().unwrap().contains("reembolsado"), "{body}");
    assert_eq!(stripe.refunds(), ["pi_invoice_1"], "the first invoice's payment: the session has none");
    assert_eq!(stripe.subscription("sub_1")["status"], "canceled", "no further invoice");
    assert_eq!(tier(&app).await, "free");
    assert!(
        stripe.inner.lock().unwrap().versions.iter().all(|v| v == "2024-06-20"),
        "the pinned API version"
    );
}
on_both_engines!(
    cancelling_a_monthly_plan_within_the_guarantee_refunds_its_first_invoice_and_ends_it_at_stripe
);

async fn cancelling_the_yearly_plan_within_the_guarantee_refunds_the_session_s_payment(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let cs = checkout(&app, "yearly").await;
    deliver(&app, &completed(&cs, "evt_1"), 0).await;
    let (token, _) = app.login(ANA).await;
    let (status, body) = cancel(&app, &token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["refunded"], true);
    assert_eq!(stripe.refunds(), ["pi_1"]);
    assert_eq!(tier(&app).await, "free");
}
on_both_engines!(cancelling_the_yearly_plan_within_the_guarantee_refunds_the_session_s_payment);

async fn cancelling_after_the_guarantee_ends_at_the_period_s_end_and_stripe_says_when(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    paid_monthly(&app).await;
    // Ten days later: past the seven days of regret (a new sign-in, the first token has lapsed).
    app.db.clock().advance(10 * 86_400_000);
    let (token, _) = app.login(ANA).await;
    let (status, body) = cancel(&app, &token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["refunded"], false);
    assert_eq!(body["data"]["subscription"]["cancelAtPeriodEnd"], true);
    assert!(stripe.refunds().is_empty());
    assert_eq!(
        stripe.subscription("sub_1")["cancel_at_period_end"],
        true,
        "set at Stripe: no further invoice"
    );
    assert_eq!(stripe.subscription("sub_1")["status"], "active");
    assert_eq!(tier(&app).await, "pro", "Pro until the paid period ends");
    assert_eq!(
        app.count("select count(*) as n from jobs where kind = 'subscription_expiry'").await,
        0,
        "Stripe says when"
    );
    let deleted = json!({"id": "evt_9", "type": "customer.subscription.deleted", "data": {"object": {"id": "sub_1", "object": "subscription", "status": "canceled"}}});
    assert_eq!(deliver(&app, &deleted, 0).await, 200);
    assert_eq!(tier(&app).await, "free");
}
on_both_engines!(cancelling_after_the_guarantee_ends_at_the_period_s_end_and_stripe_says_when);

async fn when_stripe_is_down_or_refuses_nothing_changes_here_and_trying_again_is_safe(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let token = paid_monthly(&app).await;

    stripe.fail_next("POST /v1/refunds", 500, "api_error");
    let (status, body) = cancel(&app, &token).await;
    assert_eq!(status, 503, "{body}");
    assert!(body["message"].as_str().unwrap().contains("Nada foi alterado"), "{body}");
    assert_eq!((tier(&app).await, stripe.refunds().len()), ("pro".into(), 0));

    // Refunded, then the cancellation fails: still nothing changes here, and the retry refunds once.
    stripe.fail_next("DELETE /v1/subscriptions/sub_1", 503, "api_error");
    let (status, _) = cancel(&app, &token).await;
    assert_eq!(status, 503);
    assert_eq!(tier(&app).await, "pro");
    assert_eq!(app.count("select count(*) as n from subscriptions where status = 'active'").await, 1);
    let (status, body) = cancel(&app, &token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(stripe.refunds(), ["pi_invoice_1"], "refunded exactly once");
    assert_eq!(stripe.subscription("sub_1")["status"], "canceled");
    assert_eq!(tier(&app).await, "free");
}
on_both_engines!(when_stripe_is_down_or_refuses_nothing_changes_here_and_trying_again_is_safe);

async fn a_refund_stripe_refuses_is_a_clear_error_and_the_plan_stays(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let token = paid_monthly(&app).await;
    stripe.fail_next("POST /v1/refunds", 402, "card_declined");
    let response = app
        .http
        .post(format!("{}/api/subscriptions/cancel", app.address))
        .header("accept-language", "en")
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 409);
    let body: Value = response.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().starts_with("The payment provider refused"), "{body}");
    assert_eq!(tier(&app).await, "pro");
    assert_eq!(stripe.subscription("sub_1")["status"], "active");
}
on_both_engines!(a_refund_stripe_refuses_is_a_clear_error_and_the_plan_stays);

async fn the_first_invoice_paid_before_the_checkout_completed_does_no_harm(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let cs = checkout(&app, "monthly").await;
    // Stripe's documented order is not guaranteed: the first invoice's event comes first.
    let period_end = app.db.now_ms() / 1000 + 31 * 86_400;
    let early = json!({"id": "evt_0", "type": "invoice.paid", "data": {"object": {"id": "in_1", "object": "invoice",
        "subscription": "sub_1", "billing_reason": "subscription_create", "payment_intent": "pi_invoice_1",
        "lines": {"data": [{"period": {"end": period_end}}]}}}});
    assert_eq!(deliver(&app, &early, 0).await, 200, "acknowledged");
    let unknown = json!({"id": "evt_x", "type": "some.future.event", "data": {"object": {}}});
    assert_eq!(deliver(&app, &unknown, 0).await, 200);
    assert_eq!(tier(&app).await, "free");
    assert_eq!(deliver(&app, &completed(&cs, "evt_1"), 0).await, 200);
    assert_eq!(tier(&app).await, "pro");
    // The session's own first invoice gave the payment to refund, though the event came first.
    let payment: String = sqlx::query("select provider_payment_id from subscriptions")
        .fetch_one(app.db.pool())
        .await
        .map(|r| sqlx::Row::get(&r, "provider_payment_id"))
        .unwrap();
    assert_eq!(payment, "pi_invoice_1");
    let renewal = json!({"id": "evt_2", "type": "invoice.paid", "data": {"object": {"id": "in_2", "subscription": "sub_1",
        "billing_reason": "subscription_cycle", "lines": {"data": [{"period": {"end": period_end}}]}}}});
    assert_eq!(deliver(&app, &renewal, 0).await, 200);
    let (token, _) = app.login(ANA).await;
    let (_, status) =
        app.call(reqwest::Method::GET, "/api/subscriptions/status", Value::Null, Some(&token)).await;
    assert_eq!(status["data"]["subscription"]["state"], "active");
    let ends = status["data"]["subscription"]["currentPeriodEnd"].as_str().unwrap().to_owned();
    assert!(ends.starts_with(&socio::clock::CivilDate::utc(period_end * 1000).iso()), "{ends}");
}
on_both_engines!(the_first_invoice_paid_before_the_checkout_completed_does_no_harm);

async fn moving_to_yearly_or_an_admin_s_free_never_leaves_stripe_charging(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let token = paid_monthly(&app).await;
    let (status, body) = app
        .call(
            reqwest::Method::POST,
            "/api/subscriptions/upgrade",
            json!({"newPlanType": "pro", "interval": "yearly"}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let yearly = body["data"]["checkoutUrl"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    assert_eq!(deliver(&app, &completed(&yearly, "evt_2"), 0).await, 200);
    eventually("the monthly subscription stops renewing at Stripe", || async {
        stripe.subscription("sub_1")["cancel_at_period_end"] == true
    })
    .await;
    assert_eq!(tier(&app).await, "pro");

    // Back to monthly, then an admin makes Ana free: the new subscription ends at Stripe at once.
    let again = checkout(&app, "monthly").await;
    assert_eq!(deliver(&app, &completed(&again, "evt_3"), 0).await, 200);
    let (admin, _) = app.login(ADMIN).await;
    let id = app.user_column(ANA, "id").await;
    let (status, body) = app
        .call(
            reqwest::Method::PUT,
            &format!("/api/admin/users/{id}/subscription"),
            json!({"subscriptionStatus": "free"}),
            Some(&admin),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(tier(&app).await, "free");
    eventually("Stripe stops charging someone who is free here", || async {
        stripe.subscription("sub_3")["status"] == "canceled"
    })
    .await;
    assert_eq!(app.count("select count(*) as n from subscriptions where status <> 'canceled'").await, 0);
}
on_both_engines!(moving_to_yearly_or_an_admin_s_free_never_leaves_stripe_charging);
