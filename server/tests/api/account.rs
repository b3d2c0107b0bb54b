//! A person's LGPD rights without asking anyone (art. 18, II, V and VI): a complete copy of their
//! own data, and deleting their account with everything in it, only when they confirm it.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    helpers::{TestDatabase, spawn_app},
    on_both_engines,
};

const ANA: &str = "+5511987654321";

async fn a_person_downloads_a_complete_copy_of_their_own_data(db: TestDatabase) {
    let app = spawn_app(db).await;
    let hello = json!({"from": ANA, "name": "Ana Lima", "text": "Oi, quero meus dados"}).to_string();
    app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &hello).await;
    let (token, _) = app.login(ANA).await;

    let (status, refused) = app.call(Method::POST, "/api/account/export", json!({}), None).await;
    assert_eq!(status, 401, "only for a signed-in person: {refused}");

    let (status, body) = app.call(Method::POST, "/api/account/export", json!({}), Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    let url = body["data"]["downloadUrl"].as_str().unwrap().replace("http://localhost:8080", &app.address);
    let response = app.http.get(&url).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let export: Value = response.json().await.unwrap();
    assert_eq!(export["user"]["phoneNumber"], ANA);
    assert_eq!(export["messages"][0]["content"], "Oi, quero meus dados");
    assert_eq!(app.http.get(&url).send().await.unwrap().status(), 410, "a link serves once");
    let actions: Vec<String> =
        sqlx::query_scalar("select action from audit_events").fetch_all(app.db.pool()).await.unwrap();
    assert_eq!(actions, ["export_own_data"]);
}
on_both_engines!(a_person_downloads_a_complete_copy_of_their_own_data);

async fn a_person_deletes_their_account_only_when_they_confirm_and_everything_goes_at_once(db: TestDatabase) {
    let app = spawn_app(db).await;
    let hello = json!({"from": ANA, "name": "Ana Lima", "text": "Oi"}).to_string();
    app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &hello).await;
    let (token, _) = app.login(ANA).await;
    let users = || async {
        sqlx::query_scalar::<_, i64>("select count(*) from users").fetch_one(app.db.pool()).await.unwrap()
    };

    // Without the explicit yes: a clear, localised 400, and nothing is deleted.
    let (status, refused) = app.call(Method::POST, "/api/account/delete", json!({}), Some(&token)).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["field"], "confirm", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("excluir a conta"), "{refused}");
    assert_eq!(users().await, 1);

    // Two confirmed requests at once (a double tap): one deletes, the other finds nothing to delete.
    let delete = || app.call(Method::POST, "/api/account/delete", json!({"confirm": true}), Some(&token));
    let (first, second) = tokio::join!(delete(), delete());
    let mut statuses = [first.0, second.0];
    statuses.sort_unstable();
    assert_eq!(statuses[0], 200, "{first:?} {second:?}");
    assert!(matches!(statuses[1], 401 | 404), "deleted once, never an internal error: {first:?} {second:?}");
    assert_eq!(users().await, 0);
    let messages: i64 =
        sqlx::query_scalar("select count(*) from messages").fetch_one(app.db.pool()).await.unwrap();
    assert_eq!(messages, 0, "the conversation goes with the account");

    // The session ended with it.
    let (status, _) = app.call(Method::GET, "/api/auth/me", Value::Null, Some(&token)).await;
    assert_eq!(status, 401);
    let actions: Vec<String> =
        sqlx::query_scalar("select action from audit_events").fetch_all(app.db.pool()).await.unwrap();
    assert!(actions.contains(&"delete_own_account".to_owned()), "{actions:?}");
}
on_both_engines!(a_person_deletes_their_account_only_when_they_confirm_and_everything_goes_at_once);
