//! What hostile or careless traffic gets: a form posted from a foreign page is refused before
//! anything is done; a NUL character in text is a clear 400 (or, where the engine can hold it,
//! stored) — never a 500; the webhook keeps and answers a message that holds one.

use reqwest::Method;
use serde_json::{Value, json};
use socio::proto::socio::v1::{
    CreateSystemPromptRequest, system_prompt_service_client::SystemPromptServiceClient,
};

use crate::{
    auth::ANA,
    helpers::{TestApp, TestDatabase, spawn_app, spawn_app_with},
    on_both_engines,
};

async fn post_raw(app: &TestApp, path: &str, content_type: &str, body: &str) -> (u16, Value) {
    let response = app
        .http
        .post(format!("{}{path}", app.address))
        .header("content-type", content_type)
        .header("accept-language", "pt-BR")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

async fn a_form_posted_from_a_foreign_page_is_refused_with_415_and_changes_nothing(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let form = "phoneNumber=%2B5511987654321&language=pt-BR";
    let (status, body) =
        post_raw(&app, "/api/auth/send-code", "application/x-www-form-urlencoded", form).await;
    assert_eq!(status, 415, "{body}");
    assert_eq!(body["error"], "UNSUPPORTED_MEDIA_TYPE");
    assert!(body["message"].as_str().unwrap().contains("application/json"), "{body}");
    let json_as_text = json!({"phoneNumber": ANA}).to_string();
    assert_eq!(post_raw(&app, "/api/auth/send-code", "text/plain", &json_as_text).await.0, 415);
    assert_eq!(
        post_raw(&app, "/api/auth/send-code", "multipart/form-data; boundary=x", "--x--").await.0,
        415
    );
    assert_eq!(app.count("select count(*) as n from login_codes").await, 0, "no code was sent");
    let (status, _) =
        post_raw(&app, "/api/auth/send-code", "application/json; charset=utf-8", &json_as_text).await;
    assert_eq!(status, 200, "JSON, with or without a charset, is welcome");
}
on_both_engines!(a_form_posted_from_a_foreign_page_is_refused_with_415_and_changes_nothing);

async fn a_nul_character_in_a_rest_field_or_search_is_a_400_naming_the_field(db: TestDatabase) {
    let admin = "+5531999990000";
    let app = spawn_app_with(db, &[("ADMIN_PHONES", admin.into())]).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    let update = json!({"stepId": "idea", "data": {"businessName": "Doces\u{0}da Ana"}});
    let (status, body) = app.call(Method::PUT, "/api/dashboard/business-plan", update, Some(&token)).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("caractere nulo"), "{body}");
    assert!(body["message"].as_str().unwrap().contains("businessName"), "{body}");
    let (_, plan) = app.call(Method::GET, "/api/business-plan", Value::Null, Some(&token)).await;
    assert!(!plan.to_string().contains("Doces"), "nothing was saved: {plan}");

    let (admin_token, _) = app.login(admin).await;
    let (status, body) =
        app.call(Method::GET, "/api/admin/users?search=ana%00", Value::Null, Some(&admin_token)).await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = app.send_code("+5511\u{0}987654321").await;
    assert_eq!(status, 400);
}
on_both_engines!(a_nul_character_in_a_rest_field_or_search_is_a_400_naming_the_field);

async fn a_nul_character_over_grpc_is_refused_or_stored_never_an_internal_error(db: TestDatabase) {
    let admin = "+5531999990000";
    let app = spawn_app_with(db, &[("ADMIN_PHONES", admin.into())]).await;
    let (token, _) = app.login(admin).await;
    let mut grpc = SystemPromptServiceClient::new(app.grpc_channel().await);
    let mut request = tonic::Request::new(CreateSystemPromptRequest {
        name: "nul".into(),
        title: "Com \u{0} nulo".into(),
        description: None,
        content: "Você é o Sócio.\u{0}".into(),
        is_active: false,
    });
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    match grpc.create_system_prompt(request).await {
        Ok(created) => {
            assert!(created.into_inner().prompt.unwrap().content.contains('\u{0}'), "stored as sent")
        }
        Err(status) => {
            assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
            assert!(status.message().contains("caractere nulo"), "{status:?}");
        }
    }
}
on_both_engines!(a_nul_character_over_grpc_is_refused_or_stored_never_an_internal_error);
