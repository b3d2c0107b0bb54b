//! The 7-day guarantee for a boleto payment, which Stripe cannot refund (its boleto page:
//! "Refunds / Partial refunds: No / No", <https://docs.stripe.com/payments/boleto#refunds>; the fake
//! refuses a boleto refund as Stripe would): the subscription ends at once, the person is asked for
//! a Pix key on WhatsApp or the site, the admin sees the refund and marks it paid, and only then is
//! the person told it was paid.

use serde_json::{Value, json};

use crate::{
    fake_stripe::FakeStripe,
    helpers::{TestApp, TestDatabase, eventually},
    on_both_engines,
    stripe::{ADMIN, ANA, app, checkout, completed, deliver},
};

async fn paid_by_boleto(app: &TestApp, stripe: &FakeStripe, interval: &str) -> String {
    stripe.pay_with("boleto");
    let cs = checkout(app, interval).await;
    assert_eq!(deliver(app, &completed(&cs, "evt_1"), 0).await, 200);
    assert_eq!(app.tier_of(ANA).await, "pro");
    app.login(ANA).await.0
}

async fn refunds_as(app: &TestApp, token: &str) -> (u16, Value) {
    app.call(reqwest::Method::GET, "/api/admin/refunds", Value::Null, Some(token)).await
}

async fn says(app: &TestApp, needle: &str) {
    eventually(&format!("Ana is told {needle:?}"), || app.outbox_has(ANA, needle)).await;
}

async fn a_boleto_cancelled_within_the_guarantee_is_refunded_by_pix_and_only_called_paid_once_paid(
    db: TestDatabase,
) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let token = paid_by_boleto(&app, &stripe, "yearly").await;

    let (status, body) =
        app.call(reqwest::Method::POST, "/api/subscriptions/cancel", json!({}), Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["refunded"], false, "not refunded yet: {body}");
    assert_eq!(body["data"]["pixRefund"]["status"], "awaiting_key");
    assert_eq!(body["data"]["pixRefund"]["amount"], 899.0);
    assert_eq!(body["data"]["pixRefund"]["businessDays"], 5);
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("boleto") && message.contains("chave Pix") && !message.contains("reembolsado"),
        "{message}"
    );
    assert!(stripe.refunds().is_empty(), "Stripe refunds no boleto: nothing was asked of it");
    assert_eq!(app.tier_of(ANA).await, "free", "ended at once");
    says(&app, "me envie aqui a sua chave Pix").await;

    // The admin sees it waiting for the key, and cannot pay it yet.
    let (admin, _) = app.login(ADMIN).await;
    let (status, body) = refunds_as(&app, &admin).await;
    assert_eq!(status, 200, "{body}");
    let refund = &body["data"]["refunds"][0];
    assert_eq!(
        (refund["status"].as_str(), refund["userName"].as_str()),
        (Some("awaiting_key"), Some("Ana Lima"))
    );
    let id = refund["id"].as_str().unwrap().to_owned();
    let paid_path = format!("/api/admin/refunds/{id}/paid");
    let paid_cpf = json!({"pixKey": "52998224725"});
    let (status, body) = app.call(reqwest::Method::POST, &paid_path, paid_cpf.clone(), Some(&admin)).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("FAILED_PRECONDITION")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("chave Pix"), "{body}");

    // A key that is none is refused, naming the field, and changes nothing.
    let (status, body) = app
        .call(
            reqwest::Method::POST,
            "/api/subscriptions/refund/pix-key",
            json!({"pixKey": "529.982.247-26"}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("pixKey"), "{body}");
    assert_eq!(refunds_as(&app, &admin).await.1["data"]["refunds"][0]["status"], "awaiting_key");

    // Ana sends her CPF on WhatsApp: kept, and she is told when, not that it is paid.
    let key = json!({"from": ANA, "name": "Ana Lima", "text": "529.982.247-25"}).to_string();
    app.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &key).await;
    says(&app, "Recebi sua chave Pix (CPF 529.982.247-25)").await;
    assert!(app.outbox_has(ANA, "em até 5 dias úteis").await);
    assert!(!app.outbox_has(ANA, "Reembolso pago").await);
    let (_, body) = refunds_as(&app, &admin).await;
    let refund = &body["data"]["refunds"][0];
    assert_eq!((refund["status"].as_str(), refund["pixKey"].as_str()), (Some("to_pay"), Some("52998224725")));
    assert_eq!(refund["pixKeyLabel"], "CPF 529.982.247-25");
    assert_eq!(refund["phoneNumber"], ANA);

    // Someone else cannot see or pay refunds.
    assert_eq!(refunds_as(&app, &token).await.0, 403);

    // Two admins' clicks at once: paid once, told once.
    let (first, second) = tokio::join!(
        app.call(reqwest::Method::POST, &paid_path, paid_cpf.clone(), Some(&admin)),
        app.call(reqwest::Method::POST, &paid_path, paid_cpf.clone(), Some(&admin)),
    );
    let mut statuses = [first.0, second.0];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{first:?} {second:?}");
    says(&app, "Reembolso pago: enviamos R$\u{a0}899,00 por Pix para a chave CPF 529.982.247-25").await;
    app.drain_jobs().await;
    let told = app.outbox_messages(ANA).await;
    assert_eq!(
        told.iter().filter(|m| m["text"].as_str().is_some_and(|t| t.contains("Reembolso pago"))).count(),
        1
    );
    let (_, body) =
        app.call(reqwest::Method::GET, "/api/subscriptions/status", Value::Null, Some(&token)).await;
    assert!(body["data"]["pixRefund"].is_null(), "nothing left pending: {body}");
    let (_, body) = refunds_as(&app, &admin).await;
    assert_eq!(body["data"]["refunds"][0]["status"], "paid");
}
on_both_engines!(a_boleto_cancelled_within_the_guarantee_is_refunded_by_pix_and_only_called_paid_once_paid);

async fn a_monthly_boleto_ends_at_stripe_now_and_the_key_can_be_given_on_the_site(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let token = paid_by_boleto(&app, &stripe, "monthly").await;
    let (status, body) =
        app.call(reqwest::Method::POST, "/api/subscriptions/cancel", json!({}), Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(stripe.subscription("sub_1")["status"], "canceled", "no further boleto");
    assert!(stripe.refunds().is_empty());
    assert_eq!(body["data"]["pixRefund"]["amount"], 100.0);

    let (_, body) =
        app.call(reqwest::Method::GET, "/api/subscriptions/status", Value::Null, Some(&token)).await;
    assert_eq!(body["data"]["pixRefund"]["status"], "awaiting_key", "{body}");
    let (status, body) = app
        .call(
            reqwest::Method::POST,
            "/api/subscriptions/refund/pix-key",
            json!({"pixKey": "Ana.Lima@Gmail.com"}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["refund"]["status"], "to_pay");
    assert_eq!(body["data"]["refund"]["pixKey"], "ana.lima@gmail.com");
    assert!(body["message"].as_str().unwrap().contains("em até 5 dias úteis"), "{body}");
}
on_both_engines!(a_monthly_boleto_ends_at_stripe_now_and_the_key_can_be_given_on_the_site);

async fn a_pix_key_from_someone_owed_nothing_is_an_ordinary_message(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    // Her "Oi" is answered (the welcome) before she writes again: otherwise both messages are one
    // burst, answered once as a first contact.
    says(&app, "escolha o seu plano").await;
    let token = app.login(ANA).await.0;
    let (status, body) = app
        .call(
            reqwest::Method::POST,
            "/api/subscriptions/refund/pix-key",
            json!({"pixKey": "529.982.247-25"}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let key = json!({"from": ANA, "name": "Ana Lima", "text": "529.982.247-25"}).to_string();
    app.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &key).await;
    says(&app, "exclusivo do plano Pro").await;
    assert!(!app.outbox_has(ANA, "chave Pix").await);
}
on_both_engines!(a_pix_key_from_someone_owed_nothing_is_an_ordinary_message);

async fn the_admin_pays_the_key_they_were_shown_and_a_key_once_given_stays(db: TestDatabase) {
    let stripe = FakeStripe::start().await;
    let app = app(db, &stripe).await;
    let token = paid_by_boleto(&app, &stripe, "yearly").await;
    let (status, _) =
        app.call(reqwest::Method::POST, "/api/subscriptions/cancel", json!({}), Some(&token)).await;
    assert_eq!(status, 200);
    let set_key = |key: &'static str| {
        let (app, token) = (&app, &token);
        async move {
            app.call(
                reqwest::Method::POST,
                "/api/subscriptions/refund/pix-key",
                json!({"pixKey": key}),
                Some(token),
            )
            .await
        }
    };
    assert_eq!(set_key("529.982.247-25").await.0, 200);
    let (admin, _) = app.login(ADMIN).await;
    let (_, body) = refunds_as(&app, &admin).await;
    let shown = body["data"]["refunds"][0].clone();
    assert_eq!(shown["pixKey"], "52998224725");
    let paid_path = format!("/api/admin/refunds/{}/paid", shown["id"].as_str().unwrap());

    // The owner (or whoever holds the account) tries another key: kept as given, on the site and
    // on WhatsApp; the same key again is fine.
    let (status, body) = set_key("thief@evil.com").await;
    assert_eq!((status, body["error"].as_str()), (409, Some("FAILED_PRECONDITION")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("atendente"), "{body}");
    assert_eq!(set_key("52998224725").await.0, 200, "the key already given, again");
    let other = json!({"from": ANA, "name": "Ana Lima", "text": "thief@evil.com"}).to_string();
    app.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &other).await;
    says(&app, "não pode ser trocada por aqui").await;
    let (_, body) = refunds_as(&app, &admin).await;
    assert_eq!(body["data"]["refunds"][0]["pixKey"], "52998224725", "unchanged");

    // A "paid" naming another key than the refund's, or none, records nothing.
    let (status, body) =
        app.call(reqwest::Method::POST, &paid_path, json!({"pixKey": "thief@evil.com"}), Some(&admin)).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("FAILED_PRECONDITION")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("não é a que você viu"), "{body}");
    let (status, body) = app.call(reqwest::Method::POST, &paid_path, json!({}), Some(&admin)).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("pixKey"), "{body}");
    assert_eq!(refunds_as(&app, &admin).await.1["data"]["refunds"][0]["status"], "to_pay");

    // The admin pays while the account sends other keys at the same moment: the key the admin saw
    // is the one paid, recorded and named.
    let changes = futures::future::join_all((0..8).map(|_| set_key("thief@evil.com")));
    let pay = app.call(reqwest::Method::POST, &paid_path, json!({"pixKey": "529.982.247-25"}), Some(&admin));
    let (changes, paid) = tokio::join!(changes, pay);
    assert_eq!(paid.0, 200, "{:?}", paid.1);
    assert!(changes.iter().all(|(status, _)| *status == 409 || *status == 404), "{changes:?}");
    let recorded = app
        .count("select count(*) as n from manual_refunds where status = 'paid' and paid_pix_key = '52998224725' and pix_key = '52998224725'")
        .await;
    assert_eq!(recorded, 1);
    says(&app, "para a chave CPF 529.982.247-25").await;
    app.drain_jobs().await;
    assert!(!app.outbox_has(ANA, "para a chave thief").await);
}
on_both_engines!(the_admin_pays_the_key_they_were_shown_and_a_key_once_given_stays);
