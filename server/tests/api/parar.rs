//! PARAR is final (issue 42): a stop committed while the scheduler runs keeps every reminder it
//! had not yet stored, a reminder written before a stop is never sent after it (a retried send
//! included, even after a VOLTAR), and Meta's report of a stop or resume older than the person's
//! latest word changes nothing.

use reqwest::Method;
use serde_json::json;

use crate::{
    fake_graph::{APP_SECRET, FakeGraph},
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines,
};

fn instant(text: &str) -> i64 {
    text.parse::<jiff::Timestamp>().unwrap().as_millisecond()
}

/// Runs the scheduler once as of `at`; how many it sent.
async fn run(app: &TestApp, at: &str) -> usize {
    socio::conversation::proactive::Proactive::new(app.db.clone()).run(instant(at)).await.unwrap().sent
}

/// PARAR is final (issue 42): the scheduler and 250 people saying PARAR at the same moment. The
/// run read its list of consenting people before their stops; every reminder it stores is stored
/// before the person's PARAR committed (asked again, holding their choices, in the transaction
/// that stores it), and none is sent after it.
async fn a_scheduler_run_racing_everyone_s_parar_stores_nothing_after_a_stop(db: TestDatabase) {
    const PEOPLE: usize = 250;
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "20".into())]).await;
    let phones: Vec<String> = (0..PEOPLE).map(|n| format!("+55119{:08}", 70_000_000 + n)).collect();
    for phone in &phones {
        let user_id = app.register(phone).await;
        socio::plan::tracking::reminders::Reminders::new(app.db.clone())
            .choose(&user_id, true, true, None, None)
            .await
            .unwrap();
    }
    // The first business day of December at 09:00: everyone's check-in is due.
    let proactive = socio::conversation::proactive::Proactive::new(app.db.clone());
    let scheduler = proactive.run(instant("2026-12-01T09:00:00-03:00"));
    let parar = futures::future::join_all(phones.iter().map(|phone| {
        let app = &app;
        async move {
            let body = json!({"from": phone, "name": "Ana Lima", "text": "PARAR"});
            // 250 at once on a loaded machine may find every connection busy past the pool's two
            // seconds: the server answers 503 and nothing was stored, and the sender tries again,
            // as Meta retries a webhook that was not answered 200.
            let mut tries = 0;
            let (status, answer) = loop {
                let (status, answer) =
                    app.call(Method::POST, "/api/dev/whatsapp/inbound", body.clone(), None).await;
                tries += 1;
                if status != 503 || tries == 5 {
                    break (status, answer);
                }
            };
            assert_eq!(status, 200, "{answer}");
            // Her PARAR has committed by now.
            (phone.clone(), app.db.now_ms())
        }
    }));
    let (outcome, stopped) = tokio::join!(scheduler, parar);
    // The run reads whom to look at as it starts, so most stops land while it works through them.
    assert!(outcome.unwrap().considered > 0, "the run raced the stops");
    for (phone, committed_by) in &stopped {
        let stored_after: i64 = sqlx::query_scalar(
            "select count(*) from messages m join users u on u.id = m.user_id \
             where u.phone_number = $1 and m.kind = 'reminder' and m.created_at > $2",
        )
        .bind(phone)
        .bind(committed_by)
        .fetch_one(app.db.pool())
        .await
        .unwrap();
        assert_eq!(stored_after, 0, "a check-in stored for {phone} after her PARAR committed");
    }
    // 250 replies to PARAR and the reminders stored before it: a loaded machine takes a while.
    crate::helpers::drain_jobs_within(&app.db, std::time::Duration::from_secs(40)).await;
    // What was stored before a stop went out before it, or was dropped: none is left waiting.
    let left = app.count("select count(*) as n from messages where kind = 'reminder' and status not in ('sent', 'dropped')").await;
    assert_eq!(left, 0);
    assert_eq!(app.count("select count(*) as n from reminder_preferences where stopped_at is null").await, 0);
    // And a later run sends nothing to anyone.
    assert_eq!(run(&app, "2026-12-01T10:00:00-03:00").await, 0);
}
on_both_engines!(a_scheduler_run_racing_everyone_s_parar_stores_nothing_after_a_stop);

/// A check-in whose send failed (Meta answered 503) waits for its retry; PARAR arrives meanwhile.
/// The retry drops it — kept as `dropped`, never delivered, not even after a VOLTAR — and only
/// PARAR's confirmation goes out.
async fn a_retried_check_in_is_dropped_once_parar_arrived_before_its_retry(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    // Retries a minute apart by the app's clock, which the test moves.
    config.push(("SOCIO_JOB_RETRY_BASE_MS", "60000".into()));
    let app = spawn_app_with(db, &config).await;
    let body = crate::helpers::fixture("whatsapp/inbound-text.json");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    graph.wait_for_requests(1).await;
    let user_id: String = sqlx::query_scalar("select id from users").fetch_one(app.db.pool()).await.unwrap();
    socio::plan::tracking::reminders::Reminders::new(app.db.clone())
        .choose(&user_id, true, true, None, None)
        .await
        .unwrap();

    // Meta's error shape for a temporary failure (developers.facebook.com/documentation/
    // business-messaging/whatsapp/support/error-codes: code 2, "Service temporarily unavailable").
    let unavailable = json!({"error": {"message": "(#2) Service temporarily unavailable", "type": "OAuthException", "code": 2, "fbtrace_id": "AbCdEf"}});
    graph.answer_with([(503, unavailable)]);
    assert_eq!(run(&app, "2026-12-01T09:00:00-03:00").await, 1);
    graph.wait_for_requests(2).await;
    eventually("the check-in waits for its retry", || async {
        app.count("select count(*) as n from messages where kind = 'reminder' and status = 'queued'").await
            == 1
    })
    .await;

    let parar = String::from_utf8(body.clone()).unwrap().replace("Oi! Quero abrir uma padaria.", "PARAR");
    let parar = parar.replace("wamid.", "wamid.parar.");
    assert_eq!(app.post_whatsapp_webhook(parar.as_bytes(), Some(APP_SECRET)).await, 200);
    // She changes her mind later; the old check-in stays dropped all the same.
    let voltar = String::from_utf8(body.clone()).unwrap().replace("Oi! Quero abrir uma padaria.", "VOLTAR");
    let voltar = voltar.replace("wamid.", "wamid.voltar.");
    assert_eq!(app.post_whatsapp_webhook(voltar.as_bytes(), Some(APP_SECRET)).await, 200);
    app.db.clock().advance(60 * 60 * 1000);
    eventually("the retry drops the check-in", || async {
        app.count("select count(*) as n from messages where kind = 'reminder' and status = 'dropped'").await
            == 1
    })
    .await;
    app.drain_jobs().await;
    let sent: Vec<String> = graph
        .requests()
        .iter()
        .skip(2)
        .map(|r| {
            r.body["text"]["body"].as_str().unwrap_or(r.body["type"].as_str().unwrap_or_default()).to_owned()
        })
        .collect();
    assert_eq!(sent.len(), 2, "PARAR's and VOLTAR's confirmations, nothing else: {sent:?}");
    assert!(sent[0].starts_with("Pronto: não envio mais") && sent[1].starts_with("Combinado"), "{sent:?}");
    let error: String = sqlx::query_scalar("select error from messages where kind = 'reminder'")
        .fetch_one(app.db.pool())
        .await
        .unwrap();
    assert!(error.contains("PARAR"), "{error}");
}
on_both_engines!(a_retried_check_in_is_dropped_once_parar_arrived_before_its_retry);

/// Meta's report of a "resume" dated before her PARAR is late news: it changes nothing. A "stop"
/// dated before her VOLTAR neither.
async fn a_marketing_preference_older_than_her_latest_word_is_ignored(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let app = spawn_app_with(db, &graph.cloud_config()).await;
    let body = crate::helpers::fixture("whatsapp/inbound-text.json");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    graph.wait_for_requests(1).await;
    let user_id: String = sqlx::query_scalar("select id from users").fetch_one(app.db.pool()).await.unwrap();
    socio::plan::tracking::reminders::Reminders::new(app.db.clone())
        .choose(&user_id, true, true, None, None)
        .await
        .unwrap();
    let parar = String::from_utf8(body.clone()).unwrap().replace("Oi! Quero abrir uma padaria.", "PARAR");
    let parar = parar.replace("wamid.", "wamid.parar.");
    assert_eq!(app.post_whatsapp_webhook(parar.as_bytes(), Some(APP_SECRET)).await, 200);
    let stopped = || async {
        app.count("select count(*) as n from reminder_preferences where stopped_at is not null").await == 1
    };
    eventually("stopped", stopped).await;

    // Meta's user_preferences webhook (its reference's shape), dated an hour before her PARAR.
    let preference = crate::fake_graph::user_preferences;
    let an_hour_before = app.db.now_ms() / 1000 - 3600;
    assert_eq!(
        app.post_whatsapp_webhook(preference("resume", an_hour_before).as_bytes(), Some(APP_SECRET)).await,
        200
    );
    assert!(stopped().await, "an older resume does not undo her PARAR");
    assert_eq!(run(&app, "2026-12-01T09:00:00-03:00").await, 0);
    // A newer one does (she asked Meta to let the business write again).
    let later = app.db.now_ms() / 1000 + 60;
    assert_eq!(
        app.post_whatsapp_webhook(preference("resume", later).as_bytes(), Some(APP_SECRET)).await,
        200
    );
    assert!(!stopped().await);
    // And a stop reported late, dated before that resume, changes nothing either.
    assert_eq!(
        app.post_whatsapp_webhook(preference("stop", later - 30).as_bytes(), Some(APP_SECRET)).await,
        200
    );
    assert!(!stopped().await, "an older stop does not undo a newer resume");
}
on_both_engines!(a_marketing_preference_older_than_her_latest_word_is_ignored);
