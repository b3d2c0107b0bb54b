//! Billing with the sandbox provider, end to end over REST: checkout for a registered number, the
//! test payment completing through the provider path, Pro at once with a WhatsApp welcome, the
//! subscription's status, and cancelling inside and outside the 7-day guarantee.

use serde_json::{Value, json};
use socio::clock::DAY_MS;

use crate::{
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines,
};

const ANA: &str = "+5511987654321";

async fn app(db: TestDatabase) -> TestApp {
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "10".into())]).await;
    let body = json!({"from": ANA, "name": "Ana Lima", "text": "Oi"}).to_string();
    assert_eq!(app.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &body).await.0, 200);
    app
}

async fn tier(app: &TestApp) -> String {
    app.tier_of(ANA).await
}

async fn checkout(app: &TestApp, body: Value, token: Option<&str>) -> (u16, Value) {
    app.call(reqwest::Method::POST, "/api/subscriptions/checkout", body, token).await
}

/// Takes Pro through the sandbox; returns the session id.
async fn pay(app: &TestApp, interval: &str) -> String {
    let (status, body) = checkout(
        app,
        json!({"planType": "pro", "phoneNumber": ANA, "language": "pt-BR", "interval": interval}),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let url = body["data"]["checkoutUrl"].as_str().unwrap();
    assert!(url.starts_with("http://localhost:8080/checkout/sandbox/"), "{url}");
    let session = url.rsplit('/').next().unwrap().to_owned();
    let (status, body) = app.complete_sandbox(&session, true).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["redirectUrl"],
        format!("http://localhost:8080/success?session={session}&phoneNumber=%2B5511987654321")
    );
    session
}

async fn the_page_after_paying_in_the_sandbox_reads_the_payment_without_a_login(db: TestDatabase) {
    let app = app(db).await;
    let session = pay(&app, "yearly").await;
    let (status, body) = app
        .call(reqwest::Method::GET, &format!("/api/subscriptions/checkout/{session}"), Value::Null, None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["state"], "paid");
    assert_eq!(body["data"]["provider"], "sandbox");
    assert_eq!(body["data"]["amount"], 899.0);
    assert_eq!(body["data"]["receiptUrl"], "", "the sandbox gives no provider receipt");
}
on_both_engines!(the_page_after_paying_in_the_sandbox_reads_the_payment_without_a_login);

async fn a_registered_number_takes_pro_in_the_sandbox_and_is_welcomed_on_whatsapp(db: TestDatabase) {
    let app = app(db).await;
    let (status, body) = checkout(
        &app,
        json!({"planType": "pro", "phoneNumber": "(11) 98765-4321", "interval": "yearly"}),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let session = body["data"]["checkoutUrl"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let (_, shown) = app.rest_get(&format!("/api/subscriptions/sandbox/{session}"), "pt-BR").await;
    assert_eq!(
        (shown["data"]["amount"].clone(), shown["data"]["currency"].clone()),
        (json!(899), json!("BRL"))
    );
    assert_eq!(shown["data"]["state"], json!("open"));
    assert!(
        shown["data"].get("phoneNumber").is_none() && !shown.to_string().contains("98765"),
        "the page shows no number: anyone holding its address could read it: {shown}"
    );
    assert_eq!(tier(&app).await, "free", "nothing changes before paying");

    app.complete_sandbox(&session, true).await;
    assert_eq!(tier(&app).await, "pro");
    let (_, again) = app.complete_sandbox(&session, true).await;
    assert!(again["success"] == true);
    assert_eq!(app.count("select count(*) as n from subscriptions").await, 1, "a session completes once");

    eventually("the Pro welcome reaches WhatsApp", || async {
        app.outbox_has("+5511987654321", "Bem-vindo ao Sócio Pro").await
    })
    .await;

    let (token, _) = app.login(ANA).await;
    let (_, status) =
        app.call(reqwest::Method::GET, "/api/subscriptions/status", Value::Null, Some(&token)).await;
    assert_eq!(status["data"]["subscriptionStatus"], "pro");
    assert_eq!(status["data"]["subscription"]["interval"], "yearly");
    assert_eq!(status["data"]["subscription"]["state"], "active");
    assert_eq!(status["data"]["subscription"]["refundable"], true);
}
on_both_engines!(a_registered_number_takes_pro_in_the_sandbox_and_is_welcomed_on_whatsapp);

async fn free_checkout_redirects_and_an_abandoned_payment_changes_nothing(db: TestDatabase) {
    let app = app(db).await;
    let (status, body) = checkout(&app, json!({"planType": "free", "phoneNumber": ANA}), None).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["redirectUrl"], "http://localhost:8080/success?phoneNumber=%2B5511987654321");
    let (_, body) = checkout(&app, json!({"planType": "pro", "phoneNumber": ANA}), None).await;
    let session = body["data"]["checkoutUrl"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let (_, body) = app.complete_sandbox(&session, false).await;
    assert_eq!(body["data"]["redirectUrl"], "http://localhost:8080/checkout/5511987654321");
    assert_eq!(tier(&app).await, "free");
}
on_both_engines!(free_checkout_redirects_and_an_abandoned_payment_changes_nothing);

async fn checkout_needs_a_registered_number_and_the_callers_own(db: TestDatabase) {
    let app = app(db).await;
    let (status, body) =
        checkout(&app, json!({"planType": "pro", "phoneNumber": "+5521912345678"}), None).await;
    assert_eq!((status, body["isUnregistered"].clone()), (404, json!(true)));
    assert!(body["data"]["whatsappUrl"].as_str().unwrap().starts_with("https://wa.me/"));
    let other = json!({"from": "+5521998765432", "name": "Bruno", "text": "Oi"}).to_string();
    app.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &other).await;
    let (bruno, _) = app.login("+5521998765432").await;
    let (status, _) = checkout(&app, json!({"planType": "pro", "phoneNumber": ANA}), Some(&bruno)).await;
    assert_eq!(status, 403, "a logged-in user checks out for their own number only");
    let (status, _) = app.rest_get("/api/subscriptions/sandbox/not-a-session", "pt-BR").await;
    assert_eq!(status, 404);
}
on_both_engines!(checkout_needs_a_registered_number_and_the_callers_own);

async fn cancelling_within_seven_days_refunds_and_later_ends_with_the_period(db: TestDatabase) {
    let app = app(db).await;
    pay(&app, "monthly").await;
    let (token, _) = app.login(ANA).await;
    let (status, body) =
        app.call(reqwest::Method::POST, "/api/subscriptions/cancel", json!({}), Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["refunded"], true);
    assert_eq!(body["data"]["subscriptionStatus"], "free");
    assert_eq!(tier(&app).await, "free", "free at once");

    pay(&app, "monthly").await;
    // Ten days later: past the seven days of regret (a new sign-in, the first token has lapsed).
    app.db.clock().advance(10 * DAY_MS);
    let (token, _) = app.login(ANA).await;
    let (_, body) =
        app.call(reqwest::Method::POST, "/api/subscriptions/cancel", json!({}), Some(&token)).await;
    assert_eq!(body["data"]["refunded"], false);
    assert_eq!(body["data"]["subscription"]["cancelAtPeriodEnd"], true);
    assert_eq!(tier(&app).await, "pro", "Pro until the paid period ends");

    // A month on, the paid period is over: its expiry job falls due.
    app.db.clock().advance(31 * DAY_MS);
    eventually("the period ends", || async { tier(&app).await == "free" }).await;
}
on_both_engines!(cancelling_within_seven_days_refunds_and_later_ends_with_the_period);

async fn a_pro_welcome_outside_the_24_hour_window_goes_as_the_notice_template(db: TestDatabase) {
    let graph = crate::fake_graph::FakeGraph::start().await;
    let app = spawn_app_with(db, &graph.cloud_config()).await;
    let body = crate::helpers::fixture("whatsapp/inbound-text.json");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(crate::fake_graph::APP_SECRET)).await, 200);
    graph.wait_for_requests(1).await;
    // Two days later: WhatsApp's 24-hour customer-service window has closed.
    app.db.clock().advance(2 * DAY_MS);
    pay(&app, "monthly").await;
    let requests = graph.wait_for_requests(2).await;
    let notice = &requests[1].body;
    assert_eq!(notice["type"], "template");
    assert_eq!(notice["template"]["name"], "account_notice");
    assert_eq!(notice["template"]["language"]["code"], "pt_BR");
    assert!(
        notice["template"]["components"][0]["parameters"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Bem-vindo ao Sócio Pro")
    );
}
on_both_engines!(a_pro_welcome_outside_the_24_hour_window_goes_as_the_notice_template);

async fn asking_again_for_a_checkout_reopens_the_open_one_and_anonymous_asks_are_limited(db: TestDatabase) {
    let app = app(db).await;
    let ask = json!({"planType": "pro", "phoneNumber": ANA, "interval": "monthly"});
    let (status, first) = checkout(&app, ask.clone(), None).await;
    assert_eq!(status, 200, "{first}");
    let (_, again) = checkout(&app, ask.clone(), None).await;
    assert_eq!(again["data"]["checkoutUrl"], first["data"]["checkoutUrl"], "the open checkout, reopened");
    let yearly = json!({"planType": "pro", "phoneNumber": ANA, "interval": "yearly"});
    let (_, other) = checkout(&app, yearly, None).await;
    assert_ne!(
        other["data"]["checkoutUrl"], first["data"]["checkoutUrl"],
        "another plan is another checkout"
    );
    assert_eq!(app.count("select count(*) as n from checkout_sessions").await, 2);

    let mut statuses = Vec::new();
    for _ in 0..10 {
        statuses.push(checkout(&app, ask.clone(), None).await.0);
    }
    assert_eq!(statuses[..7], [200; 7], "ten a number in ten minutes: {statuses:?}");
    assert!(statuses[7..].iter().all(|s| *s == 429), "{statuses:?}");
    assert_eq!(app.count("select count(*) as n from checkout_sessions").await, 2, "and still no new session");
}
on_both_engines!(asking_again_for_a_checkout_reopens_the_open_one_and_anonymous_asks_are_limited);

/// A checkout by number, without a token, from the client address `from` (behind a trusted proxy).
async fn checkout_from(app: &TestApp, from: &str, body: &Value) -> (u16, Value) {
    let response = app
        .http
        .post(format!("{}/api/subscriptions/checkout", app.address))
        .header("x-forwarded-for", from)
        .json(body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

async fn someone_else_asking_with_a_persons_number_never_gets_their_open_checkout(db: TestDatabase) {
    let app = spawn_app_with(
        db,
        &[("WHATSAPP_BATCH_WINDOW_MS", "10".into()), ("TRUSTED_PROXIES", "127.0.0.1/32".into())],
    )
    .await;
    app.register(ANA).await;
    let ask = json!({"planType": "pro", "phoneNumber": ANA, "interval": "monthly"});
    let (status, ana) = checkout_from(&app, "198.51.100.7", &ask).await;
    assert_eq!(status, 200, "{ana}");
    let (_, ana_again) = checkout_from(&app, "198.51.100.7", &ask).await;
    assert_eq!(ana_again["data"]["checkoutUrl"], ana["data"]["checkoutUrl"], "her own reload reopens hers");
    let (status, stranger) = checkout_from(&app, "203.0.113.9", &ask).await;
    assert_eq!(status, 200, "{stranger}");
    assert_ne!(
        stranger["data"]["checkoutUrl"], ana["data"]["checkoutUrl"],
        "another address gets a checkout of its own, not the one Ana opened"
    );
    // Logged in, Ana gets her own again (a checkout she opened herself, not the stranger's).
    let (token, _) = app.login(ANA).await;
    let (_, logged_in) = checkout(&app, ask.clone(), Some(&token)).await;
    assert_ne!(logged_in["data"]["checkoutUrl"], stranger["data"]["checkoutUrl"]);
    let (_, logged_in_again) = checkout(&app, ask, Some(&token)).await;
    assert_eq!(logged_in_again["data"]["checkoutUrl"], logged_in["data"]["checkoutUrl"]);
}
on_both_engines!(someone_else_asking_with_a_persons_number_never_gets_their_open_checkout);

async fn looking_up_checkouts_without_a_token_is_limited_per_address(db: TestDatabase) {
    let app = app(db).await;
    let session = pay(&app, "monthly").await;
    // The limit counts in fixed windows of a minute: the 122 lookups in one of them.
    app.at_a_minute_s_start();
    let mut statuses = Vec::new();
    for _ in 0..122 {
        let (status, _) = app.rest_get(&format!("/api/subscriptions/checkout/{session}"), "pt-BR").await;
        statuses.push(status);
    }
    assert!(
        statuses[..120].iter().all(|s| *s == 200),
        "a page polling every 2 s is far within: {statuses:?}"
    );
    assert_eq!(statuses[121], 429, "{statuses:?}");
    let (status, body) = app.rest_get(&format!("/api/subscriptions/sandbox/{session}"), "en").await;
    assert_eq!(status, 429, "the sandbox's page shares the budget: {body}");
    assert!(body["retryAfter"].as_u64().is_some_and(|s| s >= 1), "{body}");
}
on_both_engines!(looking_up_checkouts_without_a_token_is_limited_per_address);

/// Issue 62: ten anonymous checkouts for someone else's number from one address leave the person's
/// own checkout from another address, and through the signed link we sent her, untouched.
async fn one_address_asking_for_someone_s_number_never_locks_out_her_own_checkout(db: TestDatabase) {
    let app = spawn_app_with(
        db,
        &[("WHATSAPP_BATCH_WINDOW_MS", "10".into()), ("TRUSTED_PROXIES", "127.0.0.1/32".into())],
    )
    .await;
    app.say(ANA, "Oi").await;
    app.still_at_a_window_s_start(600_000);
    let ask = json!({"planType": "pro", "phoneNumber": ANA, "interval": "monthly"});
    let mut statuses = Vec::new();
    for _ in 0..12 {
        statuses.push(checkout_from(&app, "203.0.113.9", &ask).await.0);
    }
    assert!(
        statuses[..10].iter().all(|s| *s == 200) && statuses[10..].iter().all(|s| *s == 429),
        "{statuses:?}"
    );
    let (status, body) = checkout_from(&app, "198.51.100.7", &ask).await;
    assert_eq!(status, 200, "her own, from her address: {body}");
    // The link the consultant sent her is signed: from the crowded address too, she is herself.
    let sent = app.outbox_messages(ANA).await;
    let url = sent
        .iter()
        .filter_map(|m| m["text"].as_str())
        .find_map(|t| t.split_whitespace().find(|w| w.contains("/checkout/") && w.contains("link=")))
        .expect("a signed checkout link on WhatsApp")
        .to_owned();
    let link: String = url
        .split("link=")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let by_link = json!({"planType": "pro", "phoneNumber": ANA, "link": link, "interval": "monthly"});
    let (status, body) = checkout_from(&app, "203.0.113.9", &by_link).await;
    assert_eq!(status, 200, "{body}");
}
on_both_engines!(one_address_asking_for_someone_s_number_never_locks_out_her_own_checkout);
