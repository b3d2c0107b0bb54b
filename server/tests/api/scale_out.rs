//! Two server processes on one PostgreSQL behave as one product: a plan change made through one
//! reaches a watch open on the other (LISTEN/NOTIFY), once; login-code limits hold across them
//! (their state is in the database). Each server here has its own pools, workers and relay, as a
//! separate process would. SQLite is one process's database, so these run on PostgreSQL only.

use std::time::Duration;

use futures::StreamExt;
use reqwest::Method;
use serde_json::json;
use socio::proto::socio::v1::{
    WatchBusinessPlanRequest, business_plan_service_client::BusinessPlanServiceClient,
};

use crate::{
    auth::{ANA, call, login, register, send_code},
    helpers::{TestDatabase, spawn_app},
    on_both_engines,
};

async fn a_change_made_through_one_server_reaches_a_watch_on_another(db: TestDatabase) {
    if !db.url.starts_with("postgres") {
        return;
    }
    let second_db = db.shared();
    let first = spawn_app(db).await;
    let second = spawn_app(second_db).await;
    register(&first, ANA).await;
    let (token, _) = login(&first, ANA).await;

    let mut grpc = BusinessPlanServiceClient::new(second.grpc_channel().await);
    let mut request = tonic::Request::new(WatchBusinessPlanRequest { since: String::new() });
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    let mut stream = grpc.watch_business_plan(request).await.unwrap().into_inner();
    tokio::time::sleep(Duration::from_millis(100)).await;

    let update = json!({"stepId": "market", "completed": true, "data": {"location": "Campinas"}});
    let (status, _) = call(&first, Method::PUT, "/api/dashboard/business-plan", update, Some(&token)).await;
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
on_both_engines!(a_change_made_through_one_server_reaches_a_watch_on_another);

async fn a_login_code_cooldown_holds_across_servers(db: TestDatabase) {
    if !db.url.starts_with("postgres") {
        return;
    }
    let second_db = db.shared();
    let first = spawn_app(db).await;
    let second = spawn_app(second_db).await;
    register(&first, ANA).await;
    let (status, body) = send_code(&first, ANA).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = send_code(&second, ANA).await;
    assert_eq!(status, 429, "the other server knows a code was just sent: {body}");
    assert!(body["retryAfter"].as_i64().unwrap() >= 1);
}
on_both_engines!(a_login_code_cooldown_holds_across_servers);
