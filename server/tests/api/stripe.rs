//! Billing with Stripe, against a local fake of its API and signed webhook events: Checkout
//! Session parameters, signatures (good, bad, stale, replayed), payment failure, refund.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    Form, Json, Router,
    extract::{Path, State},
    http::HeaderMap,
    routing::{get, post},
};
use serde_json::{Value, json};
use socio::billing::stripe::sign;

use crate::{
    auth::{call, login},
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines,
};

const ANA: &str = "+5511987654321";
const SECRET: &str = "whsec_test_secret";

#[derive(Default)]
struct Inner {
    created: Vec<(Vec<(String, String)>, String)>,
    sessions: HashMap<String, Value>,
    refunds: Vec<String>,
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
            .route("/v1/checkout/sessions/{id}", get(fetch))
            .route("/v1/refunds", post(refund))
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { url, inner }
    }
}

async fn create(
    State(inner): State<Arc<Mutex<Inner>>>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> Json<Value> {
    let mut inner = inner.lock().unwrap();
    let id = format!("cs_test_{}", inner.created.len() + 1);
    let get = |k: &str| form.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone()).unwrap_or_default();
    let subscription_mode = get("mode") == "subscription";
    inner.sessions.insert(
        id.clone(),
        json!({"id": id, "object": "checkout.session", "payment_status": "paid", "status": "complete",
               "client_reference_id": get("client_reference_id"), "customer": "cus_1",
               "subscription": if subscription_mode { json!("sub_1") } else { Value::Null },
               "payment_intent": if subscription_mode { Value::Null } else { json!("pi_1") }}),
    );
    let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    inner.created.push((form, key));
    Json(json!({"id": id, "object": "checkout.session", "url": format!("https://checkout.stripe.test/{id}")}))
}

async fn fetch(State(inner): State<Arc<Mutex<Inner>>>, Path(id): Path<String>) -> Json<Value> {
    Json(inner.lock().unwrap().sessions.get(&id).cloned().unwrap_or(Value::Null))
}

async fn refund(
    State(inner): State<Arc<Mutex<Inner>>>,
    Form(form): Form<Vec<(String, String)>>,
) -> Json<Value> {
    let payment =
        form.iter().find(|(k, _)| k == "payment_intent").map(|(_, v)| v.clone()).unwrap_or_default();
    inner.lock().unwrap().refunds.push(payment);
    Json(json!({"id": "re_1", "object": "refund", "status": "succeeded"}))
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
        ],
    )
    .await;
    let hello = json!({"from": ANA, "name": "Ana Lima", "text": "Oi"}).to_string();
    app.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &hello).await;
    app
}

async fn checkout(app: &TestApp, interval: &str) -> String {
    let (status, body) = call(
        app,
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
    let t = socio::db::now_ms() / 1000 - age_s;
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
    assert_eq!(field(0, "success_url"), ["http://localhost:8080/success?phoneNumber=%2B5511987654321"]);
    assert_eq!(field(0, "cancel_url"), ["http://localhost:8080/checkout/5511987654321"]);
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
        .header(
            "stripe-signature",
            sign("whsec_wrong", event.to_string().as_bytes(), socio::db::now_ms() / 1000),
        )
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

async fn a_failed_renewal_is_past_due_and_the_user_is_told_on_whatsapp(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let cs = checkout(&app, "monthly").await;
    deliver(&app, &completed(&cs, "evt_1"), 0).await;
    let failed = json!({"id": "evt_3", "type": "invoice.payment_failed", "data": {"object": {"id": "in_1", "subscription": "sub_1"}}});
    assert_eq!(deliver(&app, &failed, 0).await, 200);
    let (token, _) = login(&app, ANA).await;
    let (_, status) =
        call(&app, reqwest::Method::GET, "/api/subscriptions/status", Value::Null, Some(&token)).await;
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

async fn cancelling_within_the_guarantee_refunds_through_stripe(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let cs = checkout(&app, "yearly").await;
    deliver(&app, &completed(&cs, "evt_1"), 0).await;
    let (token, _) = login(&app, ANA).await;
    let (status, body) =
        call(&app, reqwest::Method::POST, "/api/subscriptions/cancel", json!({}), Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["refunded"], true);
    assert_eq!(stripe.inner.lock().unwrap().refunds, ["pi_1"]);
    assert_eq!(tier(&app).await, "free");
}
on_both_engines!(cancelling_within_the_guarantee_refunds_through_stripe);

async fn events_out_of_order_do_no_harm(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let cs = checkout(&app, "monthly").await;
    let early = json!({"id": "evt_0", "type": "invoice.paid", "data": {"object": {"id": "in_0", "subscription": "sub_1"}}});
    assert_eq!(
        deliver(&app, &early, 0).await,
        200,
        "a renewal for a subscription we do not know yet is acknowledged"
    );
    let unknown = json!({"id": "evt_x", "type": "some.future.event", "data": {"object": {}}});
    assert_eq!(deliver(&app, &unknown, 0).await, 200);
    assert_eq!(tier(&app).await, "free");
    assert_eq!(deliver(&app, &completed(&cs, "evt_1"), 0).await, 200);
    assert_eq!(tier(&app).await, "pro");
}
on_both_engines!(events_out_of_order_do_no_harm);
