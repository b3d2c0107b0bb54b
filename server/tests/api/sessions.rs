//! Access tokens count only while their session stands, and live streams end with it: logout,
//! erasure and the token running out end a `WatchBusinessPlan` stream with Unauthenticated; a
//! token naming a session that does not exist, or another user's, is refused; and a user has at
//! most five streams open.

use std::time::Duration;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use reqwest::Method;
use serde_json::{Value, json};
use socio::proto::socio::v1::{
    WatchBusinessPlanRequest, WatchBusinessPlanResponse,
    business_plan_service_client::BusinessPlanServiceClient,
};
use tokio_stream::StreamExt;
use tonic::{Code, Streaming};

use crate::{
    auth::ANA,
    helpers::{TestApp, TestDatabase, eventually, spawn_app},
    on_both_engines,
};

const BRUNO: &str = "+5521998765432";
/// The secret `spawn_app` configures.
const JWT_SECRET: &str = "test-secret-that-is-long-enough-0123456789";

/// The claims of one of our tokens (read without checking: the test made it).
fn claims_of(token: &str) -> Value {
    use base64::Engine as _;
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap())
        .unwrap()
}

/// A token signed with the server's own key, saying what the test wants.
fn signed(claims: Value) -> String {
    jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(JWT_SECRET.as_bytes()),
    )
    .unwrap()
}

async fn watch(app: &TestApp, token: &str) -> Result<Streaming<WatchBusinessPlanResponse>, tonic::Status> {
    let mut grpc = BusinessPlanServiceClient::new(app.grpc_channel().await);
    let mut request = tonic::Request::new(WatchBusinessPlanRequest { since: String::new() });
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    grpc.watch_business_plan(request).await.map(|r| r.into_inner())
}

/// How the stream ends within `within`: the status it ends with.
async fn ending(stream: &mut Streaming<WatchBusinessPlanResponse>, within: Duration) -> Code {
    loop {
        match tokio::time::timeout(within, stream.next()).await.expect("the stream ends in time") {
            Some(Ok(_)) => continue,
            Some(Err(status)) => return status.code(),
            None => return Code::Ok,
        }
    }
}

async fn a_watch_ends_with_unauthenticated_within_a_second_of_logout(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (access, refresh) = app.login(ANA).await;
    let mut stream = watch(&app, &access).await.unwrap();
    let (status, _) =
        app.call(Method::POST, "/api/auth/logout", json!({"refreshToken": refresh}), Some(&access)).await;
    assert_eq!(status, 200);
    assert_eq!(ending(&mut stream, Duration::from_secs(1)).await, Code::Unauthenticated);
    assert_eq!(watch(&app, &access).await.unwrap_err().code(), Code::Unauthenticated, "and cannot reopen");
}
on_both_engines!(a_watch_ends_with_unauthenticated_within_a_second_of_logout);

async fn a_watch_ends_when_the_person_is_erased(db: TestDatabase) {
    let app = spawn_app(db).await;
    let user_id = app.register(ANA).await;
    let (access, _) = app.login(ANA).await;
    let mut stream = watch(&app, &access).await.unwrap();
    assert!(socio::erasure::Erasure::new(app.db.clone()).erase(&user_id).await.unwrap());
    assert_eq!(ending(&mut stream, Duration::from_secs(1)).await, Code::Unauthenticated);
}
on_both_engines!(a_watch_ends_when_the_person_is_erased);

async fn another_users_logout_or_a_tier_change_leaves_a_watch_open(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    app.register(BRUNO).await;
    let (ana, _) = app.login(ANA).await;
    let (bruno, bruno_refresh) = app.login(BRUNO).await;
    let mut stream = watch(&app, &ana).await.unwrap();
    app.call(Method::POST, "/api/auth/logout", json!({"refreshToken": bruno_refresh}), Some(&bruno)).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    assert!(
        tokio::time::timeout(Duration::from_millis(500), stream.next()).await.is_err(),
        "the stream is still open and quiet"
    );
    assert_eq!(
        app.me(&ana).await.1["data"]["user"]["subscriptionStatus"],
        "pro",
        "the new tier shows at once"
    );
}
on_both_engines!(another_users_logout_or_a_tier_change_leaves_a_watch_open);

async fn a_watch_ends_when_its_token_runs_out(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (access, _) = app.login(ANA).await;
    let claims = claims_of(&access);
    let lifetime_s = claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap();
    let mut stream = watch(&app, &access).await.unwrap();
    // The token's lifetime passes on the application's clock, not on the test's: the watch ends
    // within the second it takes to look at the clock again.
    app.db.clock().advance(lifetime_s * 1_000 + 1_000);
    assert_eq!(ending(&mut stream, Duration::from_secs(3)).await, Code::Unauthenticated);
}
on_both_engines!(a_watch_ends_when_its_token_runs_out);

async fn a_person_has_at_most_five_watches_open(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (access, _) = app.login(ANA).await;
    let mut open = Vec::new();
    for _ in 0..5 {
        open.push(watch(&app, &access).await.unwrap());
    }
    let refused = watch(&app, &access).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert!(refused.message().contains("5"), "{}", refused.message());
    drop(open.pop());
    // Once the server sees the close, the place is free again (the stream is kept open).
    let reopened = std::sync::Mutex::new(None);
    eventually("a closed stream frees its place", || async {
        let stream = watch(&app, &access).await.ok();
        let freed = stream.is_some();
        *reopened.lock().unwrap() = stream;
        freed
    })
    .await;
}
on_both_engines!(a_person_has_at_most_five_watches_open);

async fn a_token_naming_a_missing_or_another_users_session_is_refused(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    app.register(BRUNO).await;
    let (ana, _) = app.login(ANA).await;
    let (bruno, _) = app.login(BRUNO).await;
    assert_eq!(app.me(&ana).await.0, 200);

    let mut missing = claims_of(&ana);
    missing["sid"] = json!("a-session-that-never-existed");
    assert_eq!(app.me(&signed(missing)).await.0, 401, "no such session");

    let mut borrowed = claims_of(&ana);
    borrowed["sid"] = claims_of(&bruno)["sid"].clone();
    assert_eq!(app.me(&signed(borrowed)).await.0, 401, "Bruno's session is not Ana's");

    let mut long_lived = claims_of(&ana);
    long_lived["exp"] = json!(long_lived["iat"].as_i64().unwrap() + 30 * 86_400);
    assert_eq!(app.me(&signed(long_lived)).await.0, 401, "a token never lives longer than 15 minutes");
}
on_both_engines!(a_token_naming_a_missing_or_another_users_session_is_refused);
