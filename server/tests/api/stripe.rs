//! Billing with Stripe, against a local fake of its API (`fake_stripe.rs`) and signed webhook
//! events: Checkout Session parameters, signatures (good, bad, stale, replayed), payment failure,
//! refund.

use serde_json::{Value, json};
use socio::billing::stripe::sign;

use crate::{
    fake_stripe::FakeStripe,
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines, on_postgres,
};

pub(crate) const ANA: &str = "+5511987654321";
pub(crate) const ADMIN: &str = "+5531999990000";
const SECRET: &str = "whsec_test_secret";

pub(crate) async fn app(db: TestDatabase, stripe: &FakeStripe) -> TestApp {
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

pub(crate) async fn checkout(app: &TestApp, interval: &str) -> String {
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

pub(crate) async fn deliver(app: &TestApp, event: &Value, age_s: i64) -> u16 {
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

pub(crate) fn completed(cs: &str, event_id: &str) -> Value {
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

    // Moving to yearly is hers to do, logged in.
    let yearly = upgrade(&app, &app.login(ANA).await.0).await;
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
/// Moves the logged-in person to yearly (`UpgradeSubscription`): the new checkout's session.
async fn upgrade(app: &TestApp, token: &str) -> String {
    let (status, body) = app
        .call(
            reqwest::Method::POST,
            "/api/subscriptions/upgrade",
            json!({"newPlanType": "pro", "interval": "yearly"}),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["checkoutUrl"].as_str().unwrap().rsplit('/').next().unwrap().to_owned()
}

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
    let yearly = upgrade(&app, &token).await;
    assert_eq!(deliver(&app, &completed(&yearly, "evt_2"), 0).await, 200);
    eventually("the monthly subscription stops renewing at Stripe", || async {
        stripe.subscription("sub_1")["cancel_at_period_end"] == true
    })
    .await;
    assert_eq!(tier(&app).await, "pro");

    // Issue 62: a checkout by her number while her yearly Pro runs is refused, nothing opened at
    // Stripe: paying it would have ended the year she paid for, unrefunded.
    let sessions = stripe.checkout_sessions_created();
    let (status, body) = app
        .call(
            reqwest::Method::POST,
            "/api/subscriptions/checkout",
            json!({"planType": "pro", "phoneNumber": ANA, "interval": "monthly"}),
            None,
        )
        .await;
    assert_eq!((status, body["error"].as_str()), (409, Some("FAILED_PRECONDITION")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("já tem o Sócio Pro ativo"), "{body}");
    assert_eq!(stripe.checkout_sessions_created(), sessions, "nothing asked of Stripe");

    // Free again, she subscribes monthly; then an admin makes her free: it ends at Stripe at once.
    let (admin, _) = app.login(ADMIN).await;
    let id = app.user_column(ANA, "id").await;
    let free = json!({"subscriptionStatus": "free"});
    let (status, body) = app
        .call(reqwest::Method::PUT, &format!("/api/admin/users/{id}/subscription"), free, Some(&admin))
        .await;
    assert_eq!(status, 200, "{body}");
    let again = checkout(&app, "monthly").await;
    assert_eq!(deliver(&app, &completed(&again, "evt_3"), 0).await, 200);
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
