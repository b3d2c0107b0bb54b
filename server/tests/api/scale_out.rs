//! Two server processes on one PostgreSQL behave as one product: WhatsApp messages delivered to
//! both (Meta retries to whichever answers) are stored once and answered once; a plan change made
//! through one reaches a watch open on the other (LISTEN/NOTIFY), once; login-code limits hold
//! across them (their state is in the database). Each server here has its own pools, workers and relay, as a
//! separate process would. SQLite is one process's database, so these run on PostgreSQL only.

use std::time::Duration;

use futures::StreamExt;
use reqwest::Method;
use serde_json::json;
use socio::proto::socio::v1::{
    WatchBusinessPlanRequest, business_plan_service_client::BusinessPlanServiceClient,
};

use crate::{
    auth::ANA,
    fake_graph::{APP_SECRET, FakeGraph},
    helpers::{TestApp, TestDatabase, fixture, spawn_app_with},
    on_postgres,
};

/// Two servers on the test's database.
async fn two_servers(db: TestDatabase, config: &[(&'static str, String)]) -> (TestApp, TestApp) {
    let second_db = db.shared();
    (spawn_app_with(db, config).await, spawn_app_with(second_db, config).await)
}

async fn webhook_load_across_two_servers_is_stored_once_and_answered_once(db: TestDatabase) {
    const PEOPLE: usize = 20;
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    config.retain(|(key, _)| *key != "WHATSAPP_BATCH_WINDOW_MS");
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "200".into()));
    let (first, second) = two_servers(db, &config).await;

    let template: serde_json::Value = serde_json::from_slice(&fixture("whatsapp/inbound-text.json")).unwrap();
    let mut bodies = Vec::new();
    for n in 0..PEOPLE {
        let phone = format!("55119876{n:05}");
        let mut body = template.clone();
        let value = &mut body["entry"][0]["changes"][0]["value"];
        value["contacts"][0]["wa_id"] = json!(phone);
        value["contacts"][0]["profile"]["name"] = json!(format!("Pessoa {n}"));
        value["messages"][0]["from"] = json!(phone);
        value["messages"][0]["id"] = json!(format!("wamid.scale-out-{n}"));
        bodies.push(serde_json::to_vec(&body).unwrap());
    }
    // Every message delivered to both servers at once, as a retry to the other one would be.
    let posts = bodies.iter().flat_map(|body| {
        [
            first.post_whatsapp_webhook(body, Some(APP_SECRET)),
            second.post_whatsapp_webhook(body, Some(APP_SECRET)),
        ]
    });
    let statuses = futures::future::join_all(posts).await;
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");

    graph.wait_for_requests(PEOPLE).await;
    first.drain_jobs().await; // both servers share the queue: nothing more is due
    let replies = graph.requests();
    assert_eq!(replies.len(), PEOPLE, "one reply per person, not one per server");
    let mut recipients: Vec<String> =
        replies.iter().map(|r| r.body["to"].as_str().unwrap().to_owned()).collect();
    recipients.sort();
    recipients.dedup();
    assert_eq!(recipients.len(), PEOPLE);
    let stored = first.count("select count(*) as n from messages where direction = 'inbound'").await;
    assert_eq!(stored, PEOPLE as i64, "each message stored once");
}
on_postgres!(webhook_load_across_two_servers_is_stored_once_and_answered_once);

async fn a_change_made_through_one_server_reaches_a_watch_on_another(db: TestDatabase) {
    let (first, second) = two_servers(db, &[]).await;
    first.register(ANA).await;
    let (token, _) = first.login(ANA).await;

    let mut grpc = BusinessPlanServiceClient::new(second.grpc_channel().await);
    let mut request = tonic::Request::new(WatchBusinessPlanRequest { since: String::new() });
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    // The call has returned its headers, which the server sends once it has subscribed.
    let mut stream = grpc.watch_business_plan(request).await.unwrap().into_inner();

    let update = json!({"stepId": "market", "completed": true, "data": {"location": "Campinas"}});
    let (status, _) = first.call(Method::PUT, "/api/dashboard/business-plan", update, Some(&token)).await;
    assert_eq!(status, 200);
    let event = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("the change crosses to the other server in time")
        .unwrap()
        .unwrap();
    assert_eq!(event.progress, 17);
    let data = event.change.unwrap().data.unwrap();
    assert_eq!(socio::proto::json::struct_to_json(&data), json!({"location": "Campinas"}));
    assert!(
        tokio::time::timeout(Duration::from_millis(500), stream.next()).await.is_err(),
        "published once, not once per server"
    );
}
on_postgres!(a_change_made_through_one_server_reaches_a_watch_on_another);

async fn a_login_code_cooldown_holds_across_servers(db: TestDatabase) {
    let (first, second) = two_servers(db, &[]).await;
    first.register(ANA).await;
    let (status, body) = first.send_code(ANA).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = second.send_code(ANA).await;
    assert_eq!(status, 429, "the other server knows a code was just sent: {body}");
    assert!(body["retryAfter"].as_i64().unwrap() >= 1);
}
on_postgres!(a_login_code_cooldown_holds_across_servers);

async fn a_logout_through_one_server_stops_the_token_and_its_stream_on_the_other(db: TestDatabase) {
    let (first, second) = two_servers(db, &[]).await;
    first.register(ANA).await;
    let (access, refresh) = first.login(ANA).await;
    assert_eq!(second.me(&access).await.0, 200, "the second server now holds the session in its cache");
    let mut grpc = BusinessPlanServiceClient::new(second.grpc_channel().await);
    let mut request = tonic::Request::new(WatchBusinessPlanRequest { since: String::new() });
    request.metadata_mut().insert("authorization", format!("Bearer {access}").parse().unwrap());
    let mut stream = grpc.watch_business_plan(request).await.unwrap().into_inner();

    let (status, _) =
        first.call(Method::POST, "/api/auth/logout", json!({"refreshToken": refresh}), Some(&access)).await;
    assert_eq!(status, 200);
    let ended =
        tokio::time::timeout(Duration::from_secs(1), stream.next()).await.expect("ended within a second");
    assert_eq!(ended.unwrap().unwrap_err().code(), tonic::Code::Unauthenticated);
    assert_eq!(second.me(&access).await.0, 401, "and the second server's cache forgot the session");
}
on_postgres!(a_logout_through_one_server_stops_the_token_and_its_stream_on_the_other);
