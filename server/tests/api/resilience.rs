//! Faults under load: the real binary killed while WhatsApp deliveries pour in, a reply interrupted
//! in the middle of its request to Meta, and PostgreSQL going away and coming back.

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use serde_json::json;
use socio::db::Db;

use crate::{
    crash::start,
    fake_graph::FakeGraph,
    fault_proxy::FaultProxy,
    helpers::{TestDatabase, count, eventually, eventually_within, fixture, spawn_app_with},
    on_both_engines, on_postgres,
};

/// A signed-shape delivery of one text from `phone` with WhatsApp id `id`.
fn delivery(phone: &str, id: &str) -> Vec<u8> {
    let mut body: serde_json::Value = serde_json::from_slice(&fixture("whatsapp/inbound-text.json")).unwrap();
    let value = &mut body["entry"][0]["changes"][0]["value"];
    value["contacts"][0]["wa_id"] = json!(phone);
    value["messages"][0]["from"] = json!(phone);
    value["messages"][0]["id"] = json!(id);
    serde_json::to_vec(&body).unwrap()
}

async fn a_server_killed_under_webhook_load_loses_no_acknowledged_message_and_sends_nothing_twice(
    db: TestDatabase,
) {
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    config.retain(|(k, _)| *k != "WHATSAPP_BATCH_WINDOW_MS");
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "0".into())); // replies in flight when the kill comes
    config.push(("SOCIO_JOB_LEASE_MS", "1500".into())); // the dead server's jobs are free again soon
    let mut first = start(&db, &config).await;

    // Six people write without pause; every delivery answered 200 is remembered.
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let running = Arc::new(AtomicBool::new(true));
    let mut senders = tokio::task::JoinSet::new();
    for person in 0..6 {
        let (acknowledged, running, address) = (acknowledged.clone(), running.clone(), first.address.clone());
        senders.spawn(async move {
            let phone = format!("55119876{person:05}");
            for n in 0.. {
                if !running.load(Ordering::Relaxed) {
                    break;
                }
                let id = format!("wamid.kill-{person}-{n}");
                match post(&address, delivery(&phone, &id)).await {
                    Some(200) => acknowledged.lock().unwrap().push(id),
                    _ => break, // the server is gone
                }
            }
        });
    }
    // Killed mid-load: once a good number of deliveries went through.
    eventually("the load is running", || async { acknowledged.lock().unwrap().len() >= 24 }).await;
    first.child.kill().expect("SIGKILL");
    first.child.wait().unwrap();
    running.store(false, Ordering::Relaxed);
    while senders.join_next().await.is_some() {}
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() >= 12, "the load was running: {} deliveries acknowledged", acknowledged.len());

    let mut second = start(&db, &config).await;
    let store = Db::connect(&db.url).await.unwrap();
    for id in &acknowledged {
        let stored =
            count(&store, &format!("select count(*) as n from messages where wa_message_id = '{id}'")).await;
        assert_eq!(stored, 1, "acknowledged message {id} is stored once");
    }
    eventually_within("the queue resumes and drains after the restart", Duration::from_secs(30), || async {
        count(&store, "select count(*) as n from jobs where status in ('queued', 'running')").await == 0
    })
    .await;
    let sent =
        count(&store, "select count(*) as n from messages where direction = 'outbound' and status = 'sent'")
            .await;
    let interrupted = count(
        &store,
        "select count(*) as n from messages where direction = 'outbound' and status = 'failed' and error like 'interrupted%'",
    )
    .await;
    // Every sent reply reached Meta once; an interrupted one may or may not have (the kill can fall
    // before or after its request left), and none reached it twice.
    let requests = graph.requests().len() as i64;
    assert!(
        sent <= requests && requests <= sent + interrupted,
        "each reply reached Meta at most once: {requests} requests, {sent} sent, {interrupted} interrupted"
    );
    // A person's sends run one at a time, in order: at most one of each of the six people was in
    // flight when the kill came (the send lane's own cap, 64, is far above).
    assert!(
        interrupted <= 6,
        "only the requests in flight at the kill (one a person) are in doubt: {interrupted}"
    );
    // Everyone who wrote got an answer, or, for a reply caught in flight, a visible failure.
    let people_answered = count(
        &store,
        "select count(distinct user_id) as n from messages where direction = 'outbound' \
         and (status = 'sent' or error like 'interrupted%')",
    )
    .await;
    let people_stored =
        count(&store, "select count(distinct user_id) as n from messages where direction = 'inbound'").await;
    let people_acknowledged: std::collections::BTreeSet<&str> =
        acknowledged.iter().filter_map(|id| id.split('-').nth(1)).collect();
    assert!(people_stored >= people_acknowledged.len() as i64, "every acknowledged writer is kept");
    assert_eq!(people_answered, people_stored, "everyone whose message was kept was answered");
    store.close().await;
    second.child.kill().unwrap();
    second.child.wait().unwrap();
}
on_both_engines!(a_server_killed_under_webhook_load_loses_no_acknowledged_message_and_sends_nothing_twice);

/// A signed delivery's status, or None when the server could not be reached.
async fn post(address: &str, body: Vec<u8>) -> Option<u16> {
    let signature = socio::whatsapp::signature::sign(crate::fake_graph::APP_SECRET.as_bytes(), &body);
    let request = reqwest::Client::new()
        .post(format!("{address}/api/webhooks/whatsapp"))
        .header("x-hub-signature-256", signature)
        .timeout(Duration::from_secs(5))
        .body(body);
    request.send().await.ok().map(|r| r.status().as_u16())
}

async fn a_reply_interrupted_mid_send_is_failed_visibly_and_never_sent_twice(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let app = spawn_app_with(db, &graph.cloud_config()).await;
    assert_eq!(
        app.post_whatsapp_webhook(
            &fixture("whatsapp/inbound-text.json"),
            Some(crate::fake_graph::APP_SECRET)
        )
        .await,
        200
    );
    graph.wait_for_requests(1).await; // the welcome
    // A reply whose request to Meta was in flight when its server died: `sending`, job re-claimable.
    let user: String = {
        use sqlx::Row;
        sqlx::query("select id from users").fetch_one(app.db.pool()).await.unwrap().get("id")
    };
    let now = app.db.now_ms();
    sqlx::query(
        "insert into messages (id, user_id, direction, author, kind, content, status, created_at, updated_at) \
         values ('m-in-flight', $1, 'outbound', 'assistant', 'text', 'Resposta pela metade', 'sending', $2, $2)",
    )
    .bind(&user)
    .bind(now)
    .execute(app.db.pool())
    .await
    .unwrap();
    crate::helpers::enqueue_now(&app.db, socio::conversation::delivery::send_job("m-in-flight", &user))
        .await
        .unwrap();

    eventually("the interrupted reply is failed with its reason", || async {
        app.count("select count(*) as n from messages where id = 'm-in-flight' and status = 'failed' and error like 'interrupted%'")
            .await
            == 1
    })
    .await;
    app.drain_jobs().await;
    assert_eq!(graph.requests().len(), 1, "the interrupted reply was not sent again");
}
on_both_engines!(a_reply_interrupted_mid_send_is_failed_visibly_and_never_sent_twice);

async fn requests_fail_fast_with_503_while_postgresql_is_down_and_recover_by_themselves(db: TestDatabase) {
    // postgres://user@host:port/name → the same through the proxy.
    let rest = db.url.trim_start_matches("postgres://");
    let host_port = rest.split('/').next().unwrap().rsplit('@').next().unwrap().to_owned();
    let target = tokio::net::lookup_host(&host_port).await.unwrap().next().unwrap();
    let proxy = FaultProxy::start(target).await;
    let proxied = db.url.replacen(&format!("{host_port}/"), &format!("{}/", proxy.address), 1);
    let app = spawn_app_with(db.reached_at(proxied), &[]).await;
    app.register("+5511987650001").await;
    let (token, _) = app.login("+5511987650001").await;
    assert_eq!(app.me(&token).await.0, 200);

    // Four clients call continuously through the outage; every answer is kept with its time.
    let answers = Arc::new(Mutex::new(Vec::<(Instant, u16, Duration)>::new()));
    let running = Arc::new(AtomicBool::new(true));
    let mut clients = tokio::task::JoinSet::new();
    for _ in 0..4 {
        let (answers, running, http, url, token) = (
            answers.clone(),
            running.clone(),
            app.http.clone(),
            // A call that reads the database (who is calling is answered from memory).
            format!("{}/api/dashboard", app.address),
            token.clone(),
        );
        clients.spawn(async move {
            while running.load(Ordering::Relaxed) {
                let sent = Instant::now();
                let status =
                    http.get(&url).bearer_auth(&token).send().await.map_or(0, |r| r.status().as_u16());
                answers.lock().unwrap().push((sent, status, sent.elapsed()));
                // A client's pause between calls, so four of them do not take both cores.
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
    }
    let served = || answers.lock().unwrap().iter().filter(|(_, status, _)| *status == 200).count();
    eventually("the clients are served before the outage", || async { served() >= 8 }).await;
    proxy.go_down();
    let down_at = Instant::now();
    // Down until the clients have been refused a few times (not for a set time): what is asked
    // during an outage is answered, 503, rather than left waiting.
    let refused =
        || answers.lock().unwrap().iter().filter(|(at, status, _)| *at > down_at && *status == 503).count();
    eventually("the clients are refused while the database is away", || async { refused() >= 8 }).await;
    let ready = app.http.get(format!("{}/readyz", app.address)).send().await.unwrap().status().as_u16();
    proxy.come_back().await;
    let back_at = Instant::now();
    // Answered more than two seconds after it came back: a few of them, all of them 200 (below).
    let recovered =
        || answers.lock().unwrap().iter().filter(|(at, ..)| *at > back_at + Duration::from_secs(2)).count();
    eventually("calls are answered two seconds after the database came back", || async { recovered() >= 8 })
        .await;
    running.store(false, Ordering::Relaxed);
    while clients.join_next().await.is_some() {}

    assert_eq!(ready, 503, "not ready while the database is away");
    let answers = answers.lock().unwrap().clone();
    let during: Vec<_> = answers.iter().filter(|(at, ..)| *at > down_at && *at < back_at).collect();
    assert!(!during.is_empty());
    for (_, status, took) in &during {
        assert!(matches!(status, 503 | 200), "an outage is 503, never {status}");
        assert!(*took < Duration::from_millis(2500), "failed fast, not after {took:?}");
    }
    assert!(during.iter().filter(|(_, s, _)| *s == 503).count() >= during.len() / 2, "the outage was seen");
    let recovered: Vec<_> =
        answers.iter().filter(|(at, ..)| *at > back_at + Duration::from_secs(2)).collect();
    assert!(
        !recovered.is_empty() && recovered.iter().all(|(_, s, _)| *s == 200),
        "recovered by itself: {recovered:?}"
    );
    let ready = app.http.get(format!("{}/readyz", app.address)).send().await.unwrap().status().as_u16();
    assert_eq!(ready, 200);
}
on_postgres!(requests_fail_fast_with_503_while_postgresql_is_down_and_recover_by_themselves);
