//! The second round of hostile traffic: metrics that invented paths cannot inflate, storage budgets
//! and rate limits on the real-time sync calls, a change feed that keeps its size, a change source
//! the body cannot forge, deep JSON, NUL characters on the dev inbox, and the per-address key of a
//! client behind trusted proxies.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    auth::ANA,
    helpers::{TestApp, TestDatabase, spawn_app, spawn_app_with},
    on_both_engines,
};

async fn grpc_post(app: &TestApp, path: &str) -> u16 {
    let client = reqwest::Client::builder().http2_prior_knowledge().build().unwrap();
    client
        .post(format!("{}{path}", app.address))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(vec![0u8, 0, 0, 0, 0])
        .send()
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0)
}

async fn scrape(app: &TestApp, token: Option<&str>) -> (u16, String) {
    let mut request = app.http.get(format!("{}/metrics", app.address));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

async fn invented_method_names_are_one_unknown_series_and_the_metrics_do_not_grow(db: TestDatabase) {
    let app = spawn_app(db).await;
    for i in 0..50 {
        grpc_post(&app, &format!("/socio.v1.AdminService/Invented{i}")).await;
    }
    let (status, before) = scrape(&app, None).await;
    assert_eq!(status, 200);
    assert!(!before.contains("Invented"), "no series names an invented path");
    assert!(before.contains(r#"rpc="unknown""#), "they are counted as unknown");
    for i in 50..250 {
        grpc_post(&app, &format!("/socio.v1.AdminService/Invented{i}")).await;
        grpc_post(&app, &format!("/made.up.Service/{i}")).await;
    }
    let (_, after) = scrape(&app, None).await;
    // The recorder is the process's, shared with the tests running beside this one: the series of
    // invented paths are compared, not the whole text.
    let unknown = |text: &str| text.lines().filter(|l| l.contains(r#"rpc="unknown""#)).count();
    assert_eq!(unknown(&after), unknown(&before), "the same unknown series, with larger counts");
    assert!(!after.contains("Invented") && !after.contains("made.up"), "no series names an invented path");
    // A method of the contracts keeps its own series.
    assert_eq!(app.http.get(format!("{}/api/auth/me", app.address)).send().await.unwrap().status(), 401);
    let (_, known) = scrape(&app, None).await;
    assert!(known.contains(r#"rpc="/socio.v1.AuthService/GetMe""#), "{known}");
}
on_both_engines!(invented_method_names_are_one_unknown_series_and_the_metrics_do_not_grow);

async fn metrics_need_the_operators_token_when_one_is_set(db: TestDatabase) {
    let app = spawn_app_with(db, &[("METRICS_TOKEN", "scrape-token-0123456789".into())]).await;
    assert_eq!(scrape(&app, None).await.0, 401);
    assert_eq!(scrape(&app, Some("wrong")).await.0, 401);
    let (status, text) = scrape(&app, Some("scrape-token-0123456789")).await;
    assert_eq!(status, 200);
    assert!(text.contains("socio_"), "{text}");
}
on_both_engines!(metrics_need_the_operators_token_when_one_is_set);

async fn drafts_are_capped_per_person_and_autosave_is_rate_limited(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    // Autosaves are counted in fixed windows of a minute: every save below in one of them.
    app.at_a_minute_s_start();
    let save = |context: String| {
        let body = json!({"data": {"text": "x".repeat(100)}, "context": context});
        app.call(Method::POST, "/api/webhook/business-plan/auto-save", body, Some(&token))
    };
    for i in 0..10 {
        assert_eq!(save(format!("ctx-{i}")).await.0, 200);
    }
    let (status, refused) = save("ctx-10".into()).await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("no máximo 10"), "{refused}");
    assert_eq!(save("ctx-3".into()).await.0, 200, "an existing draft can still be saved");
    assert_eq!(app.count("select count(*) as n from plan_drafts").await, 10);
    let mut last = 200;
    for _ in 0..60 {
        last = save("ctx-3".into()).await.0;
    }
    assert_eq!(last, 429, "sixty a minute at most");
    let (_, limited) = save("ctx-3".into()).await;
    assert!(limited["retryAfter"].as_i64().unwrap_or(0) > 0, "{limited}");
}
on_both_engines!(drafts_are_capped_per_person_and_autosave_is_rate_limited);

async fn concurrent_drafts_never_pass_the_cap(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    let saves = (0..30).map(|i| {
        let body = json!({"data": {"n": i}, "context": format!("c{i}")});
        app.call(Method::POST, "/api/webhook/business-plan/auto-save", body, Some(&token))
    });
    let statuses: Vec<u16> = futures::future::join_all(saves).await.into_iter().map(|(s, _)| s).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 10, "{statuses:?}");
    assert_eq!(app.count("select count(*) as n from plan_drafts").await, 10);
}
on_both_engines!(concurrent_drafts_never_pass_the_cap);

async fn the_change_source_is_the_servers_and_the_feed_keeps_its_latest_changes(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    let body = json!({"step": "idea", "data": {"businessIdea": "Doceria"}, "source": "admin"});
    let (status, answer) =
        app.call(Method::POST, "/api/webhook/business-plan/update", body, Some(&token)).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["data"]["change"]["source"], "dashboard", "a user cannot write as an admin: {answer}");
    let body = json!({"step": "idea", "data": {"businessIdea": "Doceria 2"}, "source": "builder"});
    let (_, answer) = app.call(Method::POST, "/api/webhook/business-plan/update", body, Some(&token)).await;
    assert_eq!(answer["data"]["change"]["source"], "builder");
    // The feed keeps the plan's latest 500 changes.
    let updates: Vec<Value> =
        (0..20).map(|i| json!({"step": "market", "data": {"location": format!("Rua {i}")}})).collect();
    for _ in 0..26 {
        let (status, body) = app
            .call(
                Method::POST,
                "/api/webhook/business-plan/batch-updates",
                json!({"updates": updates}),
                Some(&token),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // 522 changes were made (within the 30 batches a minute); the feed keeps the latest 500.
    assert_eq!(app.count("select count(*) as n from plan_changes").await, 500);
}
on_both_engines!(the_change_source_is_the_servers_and_the_feed_keeps_its_latest_changes);

async fn json_nested_too_deep_is_a_clear_400(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    let mut data = json!("fundo");
    for _ in 0..50 {
        data = json!({ "a": data });
    }
    let (status, body) = app
        .call(Method::POST, "/api/webhook/business-plan/auto-save", json!({"data": data}), Some(&token))
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("32 níveis"), "{body}");
}
on_both_engines!(json_nested_too_deep_is_a_clear_400);

async fn a_nul_in_the_dev_inbox_is_dropped_on_both_engines(db: TestDatabase) {
    let app = spawn_app(db).await;
    let body = json!({"from": ANA, "name": "Ana\u{0}Lima", "text": "Oi\u{0}!"});
    let (status, answer) = app.call(Method::POST, "/api/dev/whatsapp/inbound", body, None).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(app.user_column(ANA, "name").await, "AnaLima");
    assert_eq!(app.count("select count(*) as n from messages where content = 'Oi!'").await, 1);
}
on_both_engines!(a_nul_in_the_dev_inbox_is_dropped_on_both_engines);

async fn behind_a_trusted_proxy_every_forwarded_line_is_read_and_ipv6_clients_are_keyed_by_their_64(
    db: TestDatabase,
) {
    let app = spawn_app_with(db, &[("TRUSTED_PROXIES", "127.0.0.1/32".into())]).await;
    // The client writes a line of its own; the proxy appends the address it saw on a second line.
    let start = |client_line: String, proxy_line: &'static str| {
        app.http
            .post(format!("{}/api/auth/whatsapp-login", app.address))
            .header("content-type", "application/json")
            .header("x-forwarded-for", client_line)
            .header("x-forwarded-for", proxy_line)
            .body(json!({"language": "pt-BR"}).to_string())
            .send()
    };
    // Sixty starts a window per address: every address of one /64 counts as one caller, whatever
    // the client wrote on its own line.
    app.at_a_minute_s_start();
    let mut statuses = Vec::new();
    for i in 0..61 {
        let proxy_saw = if i % 2 == 0 { "2001:db8:1:2::1" } else { "2001:db8:1:2:ffff::9" };
        statuses.push(start(format!("198.51.100.{i}"), proxy_saw).await.unwrap().status().as_u16());
    }
    assert!(statuses[..60].iter().all(|s| *s == 200), "{statuses:?}");
    assert_eq!(statuses[60], 429, "one /64, one limit: {statuses:?}");
    let other = start("198.51.100.1".into(), "2001:db8:9:9::1").await.unwrap();
    assert_eq!(other.status().as_u16(), 200, "another /64 is another caller");
    let mapped = start("198.51.100.1".into(), "::ffff:203.0.113.7").await.unwrap();
    assert_eq!(mapped.status().as_u16(), 200);
}
on_both_engines!(behind_a_trusted_proxy_every_forwarded_line_is_read_and_ipv6_clients_are_keyed_by_their_64);

/// DNS rebinding: a page on `attacker.example`, its name pointed at 127.0.0.1, reaches the dev
/// simulator from the victim's browser with its own name in `Host` — and reads no login code.
async fn the_dev_endpoints_answer_only_requests_addressed_to_this_machine(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let ask = |host: &'static str| {
        let app = &app;
        async move {
            let response = app
                .http
                .get(format!("{}/api/dev/whatsapp/outbox?phone=%2B5511987654321", app.address))
                .header("host", host)
                .send()
                .await
                .unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        }
    };
    for host in ["attacker.example", "attacker.example:8080", "127.0.0.1.nip.io"] {
        let (status, body) = ask(host).await;
        assert_eq!(status, 403, "{host}: {body}");
        assert!(!body.contains("text"), "{host}: nothing of the outbox: {body}");
    }
    let posted = app
        .http
        .post(format!("{}/api/dev/whatsapp/inbound", app.address))
        .header("host", "attacker.example")
        .json(&json!({"from": ANA, "name": "Ana", "text": "Oi"}))
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status().as_u16(), 403);
    for host in ["localhost:8080", "127.0.0.1", "LOCALHOST"] {
        assert_eq!(ask(host).await.0, 200, "{host}");
    }
}
on_both_engines!(the_dev_endpoints_answer_only_requests_addressed_to_this_machine);
