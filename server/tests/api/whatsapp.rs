//! The WhatsApp channel end to end, against a local fake Graph API: the handshake, signed
//! deliveries stored once and answered once, retries, failures left visible, statuses, and dev
//! mode's simulator endpoints. Batching is `batching.rs`'s.

use serde_json::{Value, json};
use sqlx::Row;

use crate::{
    fake_graph::{ACCESS_TOKEN, APP_SECRET, FakeGraph, PHONE_NUMBER_ID, VERIFY_TOKEN},
    helpers::{TestApp, TestDatabase, eventually, fixture, spawn_app, spawn_app_with},
    on_both_engines,
};

pub const ANA: &str = "5511987654321";

pub fn text_delivery(from: &str, name: &str, id: &str, text: &str) -> Vec<u8> {
    json!({
        "object": "whatsapp_business_account",
        "entry": [{ "id": "1", "changes": [{ "field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": { "display_phone_number": "5511900000000", "phone_number_id": PHONE_NUMBER_ID },
            "contacts": [{ "profile": { "name": name }, "wa_id": from }],
            "messages": [{ "from": from, "id": id, "timestamp": "1795253580", "type": "text", "text": { "body": text } }]
        }}]}]
    })
    .to_string()
    .into_bytes()
}

fn status_delivery(wamid: &str, status: &str) -> Vec<u8> {
    json!({
        "object": "whatsapp_business_account",
        "entry": [{ "id": "1", "changes": [{ "field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": { "display_phone_number": "5511900000000", "phone_number_id": PHONE_NUMBER_ID },
            "statuses": [{ "id": wamid, "status": status, "timestamp": "1795253590", "recipient_id": ANA }]
        }}]}]
    })
    .to_string()
    .into_bytes()
}

async fn cloud_app(db: TestDatabase) -> (TestApp, FakeGraph) {
    let graph = FakeGraph::start().await;
    let app = spawn_app_with(db, &graph.cloud_config()).await;
    (app, graph)
}

async fn outbound(app: &TestApp) -> Vec<(String, String, Option<String>, Option<String>)> {
    sqlx::query("select content, status, error, wa_message_id from messages where direction = 'outbound' order by created_at")
        .fetch_all(app.db.pool())
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get("content"), r.get("status"), r.get("error"), r.get("wa_message_id")))
        .collect()
}

async fn outbound_status_is(app: &TestApp, status: &str) -> bool {
    outbound(app).await.first().is_some_and(|m| m.1 == status)
}

async fn handshake_answers_the_challenge_only_for_the_right_token(db: TestDatabase) {
    let (app, _graph) = cloud_app(db).await;
    let url = |token: &str| {
        format!(
            "{}/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token={token}&hub.challenge=1158201444",
            app.address
        )
    };
    let ok = app.http.get(url(VERIFY_TOKEN)).send().await.unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(ok.text().await.unwrap(), "1158201444");
    assert_eq!(app.http.get(url("wrong")).send().await.unwrap().status(), 403);
    let no_mode =
        format!("{}/api/webhooks/whatsapp?hub.verify_token={VERIFY_TOKEN}&hub.challenge=1", app.address);
    assert_eq!(app.http.get(no_mode).send().await.unwrap().status(), 403);
}
on_both_engines!(handshake_answers_the_challenge_only_for_the_right_token);

async fn a_signed_first_message_registers_the_user_and_gets_the_welcome_once(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    assert_eq!(
        app.post_whatsapp_webhook(&fixture("whatsapp/inbound-text.json"), Some(APP_SECRET)).await,
        200
    );
    assert_eq!(
        app.count("select count(*) as n from messages where direction = 'inbound'").await,
        1,
        "stored before the 200"
    );

    let requests = graph.wait_for_requests(1).await;
    let request = &requests[0];
    assert_eq!(request.phone_number_id, PHONE_NUMBER_ID);
    assert_eq!(request.authorization, format!("Bearer {ACCESS_TOKEN}"));
    assert_eq!(request.body["to"], ANA);
    assert_eq!(request.body["type"], "text");
    let text = request.body["text"]["body"].as_str().unwrap();
    assert!(text.starts_with("Olá, Ana! 👋"), "{text}");
    assert!(text.contains("http://localhost:8080/checkout/5511987654321"), "{text}");

    eventually("the reply is recorded as sent", || outbound_status_is(&app, "sent")).await;
    let user = sqlx::query(
        "select name, language, subscription_status from users where phone_number = '+5511987654321'",
    )
    .fetch_one(app.db.pool())
    .await
    .unwrap();
    assert_eq!(user.get::<String, _>("name"), "Ana Lima");
    assert_eq!(user.get::<String, _>("language"), "pt-BR");
    assert_eq!(user.get::<String, _>("subscription_status"), "free");
    let sent = outbound(&app).await;
    assert_eq!(sent.len(), 1, "the reply is stored in the conversation");
    assert_eq!(sent[0].3.as_deref(), Some("wamid.fake.1"));
    app.drain_jobs().await;
    assert_eq!(graph.requests().len(), 1, "answered once");
}
on_both_engines!(a_signed_first_message_registers_the_user_and_gets_the_welcome_once);

async fn a_message_holding_a_nul_character_is_kept_and_answered_never_a_retry(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    let body = text_delivery(ANA, "Ana\u{0} Lima", "wamid.nul", "Oi!\u{0} Quero abrir uma padaria.");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200, "Meta is not asked to resend");
    let kept: String = sqlx::query("select content from messages where direction = 'inbound'")
        .fetch_one(app.db.pool())
        .await
        .unwrap()
        .get("content");
    assert_eq!(kept, "Oi! Quero abrir uma padaria.");
    graph.wait_for_requests(1).await;
    eventually("the reply is recorded as sent", || outbound_status_is(&app, "sent")).await;
}
on_both_engines!(a_message_holding_a_nul_character_is_kept_and_answered_never_a_retry);

async fn a_bad_or_missing_signature_is_refused_and_nothing_is_stored(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    let body = fixture("whatsapp/inbound-text.json");
    assert_eq!(app.post_whatsapp_webhook(&body, None).await, 401);
    assert_eq!(app.post_whatsapp_webhook(&body, Some("not-the-app-secret")).await, 401);
    let mut tampered = body.clone();
    tampered.extend_from_slice(b" ");
    let signature = socio::whatsapp::signature::sign(APP_SECRET.as_bytes(), &body);
    let response = app
        .http
        .post(format!("{}/api/webhooks/whatsapp", app.address))
        .header("x-hub-signature-256", signature)
        .body(tampered)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401, "the signature covers the raw bytes");
    assert_eq!(app.count("select count(*) as n from users").await, 0);
    assert_eq!(app.count("select count(*) as n from messages").await, 0);
    assert_eq!(app.count("select count(*) as n from jobs").await, 0);
    assert!(graph.requests().is_empty());
}
on_both_engines!(a_bad_or_missing_signature_is_refused_and_nothing_is_stored);

async fn the_same_delivery_three_times_at_once_is_stored_once_and_answered_once(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    let body = fixture("whatsapp/inbound-text.json");
    let (a, b, c) = tokio::join!(
        app.post_whatsapp_webhook(&body, Some(APP_SECRET)),
        app.post_whatsapp_webhook(&body, Some(APP_SECRET)),
        app.post_whatsapp_webhook(&body, Some(APP_SECRET)),
    );
    assert_eq!((a, b, c), (200, 200, 200), "every delivery is acknowledged");
    assert_eq!(app.count("select count(*) as n from users").await, 1);
    assert_eq!(app.count("select count(*) as n from messages where direction = 'inbound'").await, 1);
    graph.wait_for_requests(1).await;
    eventually("the reply is sent", || outbound_status_is(&app, "sent")).await;
    app.drain_jobs().await;
    assert_eq!(graph.requests().len(), 1, "one reply sent");
    assert_eq!(outbound(&app).await.len(), 1, "one reply stored");
}
on_both_engines!(the_same_delivery_three_times_at_once_is_stored_once_and_answered_once);

async fn graph_failing_twice_then_accepting_delivers_the_reply_once(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    let oops = json!({ "error": { "message": "An unknown error occurred", "code": 1 } });
    graph.answer_with([(500, oops.clone()), (500, oops)]);
    assert_eq!(
        app.post_whatsapp_webhook(&fixture("whatsapp/inbound-text.json"), Some(APP_SECRET)).await,
        200
    );
    graph.wait_for_requests(3).await;
    eventually("the reply is recorded as sent", || outbound_status_is(&app, "sent")).await;
    app.drain_jobs().await;
    let requests = graph.requests();
    assert_eq!(requests.len(), 3, "two failures, one success, nothing more");
    assert!(requests.iter().all(|r| r.body == requests[0].body), "the same message each time");
}
on_both_engines!(graph_failing_twice_then_accepting_delivers_the_reply_once);

async fn graph_down_leaves_the_reply_failed_with_the_reason_and_visible(db: TestDatabase) {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let dead_url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    config.retain(|(k, _)| *k != "WHATSAPP_GRAPH_URL");
    config.push(("WHATSAPP_GRAPH_URL", dead_url));
    let app = spawn_app_with(db, &config).await;
    assert_eq!(
        app.post_whatsapp_webhook(&fixture("whatsapp/inbound-text.json"), Some(APP_SECRET)).await,
        200
    );
    eventually("the reply ends failed", || outbound_status_is(&app, "failed")).await;
    let sent = outbound(&app).await;
    assert!(sent[0].2.as_deref().unwrap().contains("unreachable"), "{:?}", sent[0].2);
    let (failed, total) =
        socio::conversation::desk::Desk::new(app.db.clone()).failed_sends(20, 0).await.unwrap();
    assert_eq!(total, 1);
    assert_eq!(failed[0].phone_number, "+5511987654321");
    // The message is failed first, then its job: wait for the job, not for time.
    eventually("the send job ends failed", || async {
        app.count("select count(*) as n from jobs where kind = 'send' and status = 'failed'").await == 1
    })
    .await;
}
on_both_engines!(graph_down_leaves_the_reply_failed_with_the_reason_and_visible);

async fn a_permanent_error_fails_the_reply_without_retrying(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    graph.answer_with([(400, json!({ "error": { "message": "Re-engagement message", "code": 131047 } }))]);
    assert_eq!(
        app.post_whatsapp_webhook(&fixture("whatsapp/inbound-text.json"), Some(APP_SECRET)).await,
        200
    );
    eventually("the reply ends failed", || outbound_status_is(&app, "failed")).await;
    app.drain_jobs().await;
    assert_eq!(graph.requests().len(), 1, "no retry");
    assert!(outbound(&app).await[0].2.as_deref().unwrap().contains("131047"));
}
on_both_engines!(a_permanent_error_fails_the_reply_without_retrying);

async fn statuses_move_the_reply_forward_and_never_trigger_a_reply(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    app.post_whatsapp_webhook(&fixture("whatsapp/inbound-text.json"), Some(APP_SECRET)).await;
    eventually("sent", || outbound_status_is(&app, "sent")).await;
    for (status, expected) in
        [("delivered", "delivered"), ("read", "read"), ("delivered", "read"), ("sent", "read")]
    {
        assert_eq!(
            app.post_whatsapp_webhook(&status_delivery("wamid.fake.1", status), Some(APP_SECRET)).await,
            200
        );
        assert!(outbound_status_is(&app, expected).await, "after {status}: {:?}", outbound(&app).await);
    }
    app.drain_jobs().await;
    assert_eq!(graph.requests().len(), 1, "statuses are never answered");
}
on_both_engines!(statuses_move_the_reply_forward_and_never_trigger_a_reply);

async fn a_failed_status_keeps_meta_s_reason(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    app.post_whatsapp_webhook(&fixture("whatsapp/inbound-text.json"), Some(APP_SECRET)).await;
    eventually("sent", || outbound_status_is(&app, "sent")).await;
    let failed = String::from_utf8(fixture("whatsapp/status-failed.json"))
        .unwrap()
        .replace("wamid.HBgNNTUxMTk4NzY1NDMyMRUCABEYEk9VVDAwMDAwMDAwMDAwMDAwMgA=", "wamid.fake.1");
    assert_eq!(app.post_whatsapp_webhook(failed.as_bytes(), Some(APP_SECRET)).await, 200);
    let sent = outbound(&app).await;
    assert_eq!(sent[0].1, "failed");
    assert!(sent[0].2.as_deref().unwrap().contains("131047 Re-engagement message"));
    assert_eq!(graph.requests().len(), 1);
}
on_both_engines!(a_failed_status_keeps_meta_s_reason);

async fn the_person_sees_their_message_read_and_typing_while_the_answer_is_composed(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    app.post_whatsapp_webhook(&text_delivery(ANA, "Ana Lima", "wamid.typing.1", "Oi"), Some(APP_SECRET))
        .await;
    graph.wait_for_requests(1).await;
    eventually("the read receipt", || async { !graph.reads().is_empty() }).await;
    let reads = graph.reads();
    assert_eq!(reads.len(), 1, "{reads:?}");
    assert_eq!(
        reads[0].1,
        json!({"messaging_product": "whatsapp", "status": "read", "message_id": "wamid.typing.1",
               "typing_indicator": {"type": "text"}})
    );
}
on_both_engines!(the_person_sees_their_message_read_and_typing_while_the_answer_is_composed);

async fn a_failing_typing_indicator_never_holds_up_the_reply(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    graph.fail_reads();
    app.post_whatsapp_webhook(&text_delivery(ANA, "Ana Lima", "wamid.typing.2", "Oi"), Some(APP_SECRET))
        .await;
    let sent = graph.wait_for_requests(1).await;
    assert_eq!(sent[0].body["to"], ANA);
    eventually("the reply is sent", || outbound_status_is(&app, "sent")).await;
    eventually("the read receipt was tried", || async { !graph.reads().is_empty() }).await;
    app.drain_jobs().await;
    assert_eq!(graph.reads().len(), 1, "tried once, not retried");
}
on_both_engines!(a_failing_typing_indicator_never_holds_up_the_reply);

async fn a_returning_free_user_hears_the_consultant_is_pro_only(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    app.post_whatsapp_webhook(&text_delivery(ANA, "Ana Lima", "wamid.a", "Oi"), Some(APP_SECRET)).await;
    graph.wait_for_requests(1).await;
    eventually("sent", || outbound_status_is(&app, "sent")).await;
    app.post_whatsapp_webhook(
        &text_delivery(ANA, "Ana Lima", "wamid.b", "Como faço meu plano?"),
        Some(APP_SECRET),
    )
    .await;
    let requests = graph.wait_for_requests(2).await;
    let text = requests[1].body["text"]["body"].as_str().unwrap();
    assert!(text.contains("exclusivo do plano Pro"), "{text}");
    assert!(text.contains("/checkout/5511987654321"));
}
on_both_engines!(a_returning_free_user_hears_the_consultant_is_pro_only);

async fn voice_notes_and_images_are_kept_and_answered_kindly(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    assert_eq!(
        app.post_whatsapp_webhook(&fixture("whatsapp/inbound-audio.json"), Some(APP_SECRET)).await,
        200
    );
    assert_eq!(
        app.post_whatsapp_webhook(&fixture("whatsapp/inbound-image-and-button.json"), Some(APP_SECRET)).await,
        200
    );
    let stored = sqlx::query(
        "select kind, content, media_id, raw from messages where direction = 'inbound' order by created_at",
    )
    .fetch_all(app.db.pool())
    .await
    .unwrap();
    let kinds: Vec<String> = stored.iter().map(|r| r.get("kind")).collect();
    assert_eq!(kinds, ["audio", "image", "interactive"]);
    assert_eq!(stored[0].get::<Option<String>, _>("media_id").as_deref(), Some("1286470822462521"));
    let raw: Value = serde_json::from_str(&stored[1].get::<String, _>("raw")).unwrap();
    assert_eq!(raw["image"]["caption"], "Meu cardápio", "nothing the user sent is lost");
    let requests = graph.wait_for_requests(1).await;
    let text = requests[0].body["text"]["body"].as_str().unwrap();
    assert!(text.contains("Recebi seu áudio"), "{text}");
}
on_both_engines!(voice_notes_and_images_are_kept_and_answered_kindly);

async fn a_signed_delivery_is_never_refused_even_when_nothing_in_it_can_be_read(db: TestDatabase) {
    let (app, _graph) = cloud_app(db).await;
    // Meta retries a 4xx, and every message in the delivery with it: a signed body is acknowledged.
    assert_eq!(app.post_whatsapp_webhook(b"{not json", Some(APP_SECRET)).await, 200);
    assert_eq!(app.post_whatsapp_webhook(b"{not json", Some("not the app secret")).await, 401);
    assert_eq!(app.post_whatsapp_webhook(br#"{"object":"page","entry":[]}"#, Some(APP_SECRET)).await, 200);
    assert_eq!(app.count("select count(*) as n from messages").await, 0);
}
on_both_engines!(a_signed_delivery_is_never_refused_even_when_nothing_in_it_can_be_read);

async fn dev_mode_feeds_the_same_pipeline_and_shows_replies_in_the_outbox(db: TestDatabase) {
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "50".into())]).await;
    let (code, body) = app
        .rest_send(
            reqwest::Method::POST,
            "/api/dev/whatsapp/inbound",
            r#"{"from":"+1 415 555 0100","name":"John Smith","text":"Hello, I want to open a bakery"}"#,
        )
        .await;
    assert_eq!((code, &body["success"]), (200, &json!(true)), "{body}");
    let outbox = || async {
        let (_, body) = app.rest_get("/api/dev/whatsapp/outbox?phone=%2B14155550100", "en").await;
        body["data"]["messages"].as_array().cloned().unwrap_or_default()
    };
    eventually("the welcome reaches the outbox", || async { !outbox().await.is_empty() }).await;
    let messages = outbox().await;
    assert_eq!(messages[0]["to"], "+14155550100");
    let text = messages[0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("Hi John! 👋 I'm Sócio"),
        "a clearly English first message is answered in English: {text}"
    );
    assert!(messages[0]["createdAt"].as_str().unwrap().ends_with('Z'));

    let (code, body) =
        app.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", r#"{"from":"12","text":""}"#).await;
    assert_eq!(code, 400);
    assert_eq!(body["errors"][0]["field"], "from");
}
on_both_engines!(dev_mode_feeds_the_same_pipeline_and_shows_replies_in_the_outbox);

async fn the_dev_endpoints_do_not_exist_in_cloud_mode(db: TestDatabase) {
    let (app, _graph) = cloud_app(db).await;
    let (code, _) = app.rest_get("/api/dev/whatsapp/outbox?phone=%2B5511987654321", "en").await;
    assert_eq!(code, 404);
    let (code, _) = app
        .rest_send(
            reqwest::Method::POST,
            "/api/dev/whatsapp/inbound",
            r#"{"from":"+5511987654321","text":"Oi"}"#,
        )
        .await;
    assert_eq!(code, 404);
}
on_both_engines!(the_dev_endpoints_do_not_exist_in_cloud_mode);

async fn unsigned_deliveries_are_accepted_in_dev_mode_without_a_secret(db: TestDatabase) {
    let app = spawn_app(db).await;
    assert_eq!(app.post_whatsapp_webhook(&fixture("whatsapp/inbound-text.json"), None).await, 200);
    assert_eq!(app.count("select count(*) as n from messages").await, 1);
}
on_both_engines!(unsigned_deliveries_are_accepted_in_dev_mode_without_a_secret);

async fn a_text_outside_the_24_hour_window_is_not_sent_and_says_why(db: TestDatabase) {
    use socio::{
        conversation::{delivery, messages},
        db::jobs,
    };
    let (app, graph) = cloud_app(db).await;
    app.post_whatsapp_webhook(&fixture("whatsapp/inbound-text.json"), Some(APP_SECRET)).await;
    eventually("the welcome is sent", || outbound_status_is(&app, "sent")).await;
    // Two days later: WhatsApp's 24-hour customer-service window has closed.
    app.db.clock().advance(2 * socio::clock::DAY_MS);
    let user_id: String =
        sqlx::query("select id from users").fetch_one(app.db.pool()).await.unwrap().get("id");

    let mut tx = app.db.begin().await.unwrap();
    let id = messages::Messages::new(app.db.clone())
        .insert_outbound_in(&mut tx, &user_id, "Lembrete: seu plano está esperando", &[], app.db.now_ms())
        .await
        .unwrap();
    jobs::enqueue(&mut tx, delivery::send_job(&id, &user_id)).await.unwrap();
    tx.commit().await.unwrap();

    eventually("the late text ends failed", || async {
        messages::Messages::new(app.db.clone()).get(&id).await.unwrap().is_some_and(|m| m.status == "failed")
    })
    .await;
    let late = messages::Messages::new(app.db.clone()).get(&id).await.unwrap().unwrap();
    assert!(late.error.unwrap().contains("24-hour"));
    assert_eq!(graph.requests().len(), 1, "Meta was not asked to send it");
}
on_both_engines!(a_text_outside_the_24_hour_window_is_not_sent_and_says_why);
