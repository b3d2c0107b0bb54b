//! Refresh tokens that cannot fork and cannot be chained for free (issue 62): a token presented
//! again within the reuse interval gets the very pair its first use got — from any number of
//! requests at once — so nobody grows a branch of a session of their own; a replay after it ends
//! the session even once the sweep deleted the used token's row; the table holds about one row per
//! live session; and refreshing spends a session's and an address's budgets.

use std::time::Duration;

use serde_json::{Value, json};

use crate::{
    auth::ANA,
    helpers::{TestApp, TestDatabase, spawn_app, spawn_app_with},
    on_both_engines,
};

/// The reuse interval the tests run with (the default, `REFRESH_REUSE_INTERVAL_S`).
const REUSE: Duration = Duration::from_secs(10);
const BRUNO: &str = "+5521998765432";

async fn renew(app: &TestApp, token: &str) -> (u16, Value) {
    app.call(reqwest::Method::POST, "/api/auth/refresh", json!({"refreshToken": token}), None).await
}

fn pair(body: &Value) -> (String, String) {
    (
        body["data"]["token"].as_str().expect("an access token").to_owned(),
        body["data"]["refreshToken"].as_str().expect("a refresh token").to_owned(),
    )
}

async fn rows_of_the_session(app: &TestApp) -> i64 {
    app.count("select count(*) as n from refresh_tokens").await
}

async fn a_token_presented_again_within_the_interval_gets_the_very_pair_its_first_use_got(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (_, refresh) = app.login(ANA).await;
    // Twenty at once — tabs, a retry, a thief with a copy: one pair for all.
    let answers = futures::future::join_all((0..20).map(|_| renew(&app, &refresh))).await;
    let first = pair(&answers[0].1);
    for (status, body) in &answers {
        assert_eq!(*status, 200, "{body}");
        assert_eq!(pair(body), first, "the same access and refresh token, not a branch of its own");
    }
    assert_eq!(app.me(&first.0).await.0, 200);
    // A lost answer asked again 9 s later: still that pair.
    app.db.clock().advance(9_000);
    let (status, again) = renew(&app, &refresh).await;
    assert_eq!((status, pair(&again)), (200, first.clone()));
    assert_eq!(rows_of_the_session(&app).await, 2, "the login's token and its one child");

    // Past the interval the same token is theft: the session ends, the child with it.
    app.db.clock().advance(1_001);
    assert_eq!(renew(&app, &refresh).await.0, 401);
    assert_eq!(renew(&app, &first.1).await.0, 401, "its family is revoked");
    assert_eq!(app.me(&first.0).await.0, 401, "the session is over");
}
on_both_engines!(a_token_presented_again_within_the_interval_gets_the_very_pair_its_first_use_got);

async fn a_thief_replaying_a_used_token_after_the_sweep_still_ends_the_session(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (_, stolen) = app.login(ANA).await;
    let (status, body) = renew(&app, &stolen).await;
    assert_eq!(status, 200, "{body}");
    let (access, owners) = pair(&body);
    app.db.clock().advance(REUSE.as_millis() as i64 + 1);
    let swept = socio::identity::sessions::Sweep::new(app.db.clone(), REUSE).once().await.unwrap();
    assert_eq!(swept, 1, "the used token's row is gone");
    assert_eq!(rows_of_the_session(&app).await, 1);

    assert_eq!(renew(&app, &stolen).await.0, 401, "a replay of the swept token");
    assert_eq!(renew(&app, &owners).await.0, 401, "ended the session it belonged to");
    assert_eq!(app.me(&access).await.0, 401);
    // A token of ours changed by one character is nobody's, and ends nothing.
    app.db.clock().advance(61_000); // another code may be sent
    let (_, other) = app.login(ANA).await;
    let mut forged = other.clone().into_bytes();
    forged[5] = if forged[5] == b'A' { b'B' } else { b'A' };
    assert_eq!(renew(&app, std::str::from_utf8(&forged).unwrap()).await.0, 401);
    assert_eq!(renew(&app, &other).await.0, 200, "the other session stands");
}
on_both_engines!(a_thief_replaying_a_used_token_after_the_sweep_still_ends_the_session);

async fn the_sweep_keeps_one_row_per_live_session(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (_, mut refresh) = app.login(ANA).await;
    for _ in 0..6 {
        let (status, body) = renew(&app, &refresh).await;
        assert_eq!(status, 200, "{body}");
        refresh = pair(&body).1;
    }
    app.register(BRUNO).await;
    let (ended_access, ended_refresh) = app.login(BRUNO).await;
    let (status, _) = app
        .call(
            reqwest::Method::POST,
            "/api/auth/logout",
            json!({"refreshToken": ended_refresh}),
            Some(&ended_access),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(rows_of_the_session(&app).await, 8, "seven of Ana's session, one of Bruno's");
    socio::identity::sessions::Sweep::new(app.db.clone(), REUSE).once().await.unwrap();
    assert_eq!(rows_of_the_session(&app).await, 8, "nothing before the interval has passed");
    app.db.clock().advance(REUSE.as_millis() as i64 + 1);
    socio::identity::sessions::Sweep::new(app.db.clone(), REUSE).once().await.unwrap();
    assert_eq!(rows_of_the_session(&app).await, 1, "the live session's newest token only");
    assert_eq!(renew(&app, &refresh).await.0, 200, "and it still renews");
}
on_both_engines!(the_sweep_keeps_one_row_per_live_session);

async fn one_session_refreshes_at_most_ten_times_a_minute(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (_, other) = app.login(ANA).await;
    app.db.clock().advance(61_000); // another code may be sent
    let (_, mut refresh) = app.login(ANA).await;
    app.still_at_a_window_s_start(60_000);
    for n in 0..10 {
        let (status, body) = renew(&app, &refresh).await;
        assert_eq!(status, 200, "refresh {n}: {body}");
        refresh = pair(&body).1;
    }
    let (status, body) = renew(&app, &refresh).await;
    assert_eq!((status, body["error"].as_str()), (429, Some("RESOURCE_EXHAUSTED")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("segundos"), "localised: {body}");
    assert_eq!(body["retryAfter"], 60, "{body}");
    // Another session of the same person is not held back, and the first renews next minute.
    assert_eq!(renew(&app, &other).await.0, 200);
    app.db.clock().advance(60_000);
    assert_eq!(renew(&app, &refresh).await.0, 200, "the refused token was not spent");
}
on_both_engines!(one_session_refreshes_at_most_ten_times_a_minute);

async fn one_address_refreshes_at_most_120_times_a_minute_whatever_the_tokens(db: TestDatabase) {
    let app = spawn_app_with(db, &[("TRUSTED_PROXIES", "127.0.0.1/32".into())]).await;
    app.still_at_a_window_s_start(60_000);
    let from = |address: &'static str| {
        let app = &app;
        async move {
            app.http
                .post(format!("{}/api/auth/refresh", app.address))
                .header("x-forwarded-for", address)
                .json(&json!({"refreshToken": "A".repeat(70)}))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    let mut statuses = Vec::new();
    for _ in 0..121 {
        statuses.push(from("203.0.113.7").await);
    }
    assert!(statuses[..120].iter().all(|s| *s == 401), "{statuses:?}");
    assert_eq!(statuses[120], 429);
    assert_eq!(from("198.51.100.2").await, 401, "another address is not held back");
}
on_both_engines!(one_address_refreshes_at_most_120_times_a_minute_whatever_the_tokens);
