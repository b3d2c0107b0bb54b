//! Each protocol path, proven once: native gRPC with reflection and health, gRPC-Web, REST with
//! its envelope, the web app's SPA fallback, and the health probes.

use std::collections::BTreeSet;

use socio::proto::socio::v1::{
    ListPlansRequest, ListPlansResponse, PlanType, billing_service_client::BillingServiceClient,
};
use tokio_stream::StreamExt;

use crate::{
    helpers::{APP_MARKER, LANDING_MARKER, TestDatabase, spawn_app, spawn_app_with},
    on_both_engines,
};

/// Every service the contracts define (`socio.v1.*`, eight of them), as the build's descriptors say.
fn contract_services() -> BTreeSet<String> {
    socio::proto::descriptor_pool()
        .services()
        .map(|s| s.full_name().to_owned())
        .filter(|name| name.starts_with("socio.v1."))
        .collect()
}

async fn reflection_lists_exactly_the_contract_s_services_over_v1_and_v1alpha(db: TestDatabase) {
    use tonic_reflection::pb::{v1, v1alpha};
    let app = spawn_app(db).await;

    let mut client = v1::server_reflection_client::ServerReflectionClient::new(app.grpc_channel().await);
    let request = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut stream = client.server_reflection_info(tokio_stream::iter([request])).await.unwrap().into_inner();
    let Some(Ok(v1::ServerReflectionResponse {
        message_response: Some(v1::server_reflection_response::MessageResponse::ListServicesResponse(list)),
        ..
    })) = stream.next().await
    else {
        panic!("no list of services");
    };
    let names: BTreeSet<String> = list.service.into_iter().map(|s| s.name).collect();
    let mut expected = contract_services();
    assert_eq!(expected.len(), 11, "the eleven services of the contracts: {expected:?}");
    expected.extend(["grpc.health.v1.Health".to_owned(), "grpc.reflection.v1.ServerReflection".to_owned()]);
    assert_eq!(names, expected, "reflection lists exactly the contract's services and health");

    let mut old = v1alpha::server_reflection_client::ServerReflectionClient::new(app.grpc_channel().await);
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(
            v1alpha::server_reflection_request::MessageRequest::ListServices(String::new()),
        ),
    };
    let mut stream = old.server_reflection_info(tokio_stream::iter([request])).await.unwrap().into_inner();
    assert!(stream.next().await.unwrap().is_ok(), "v1alpha answers too (older grpcurl)");
}
on_both_engines!(reflection_lists_exactly_the_contract_s_services_over_v1_and_v1alpha);

async fn grpc_health_reports_the_services_serving(db: TestDatabase) {
    use tonic_health::pb::{
        HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
    };
    let app = spawn_app(db).await;
    let mut health = HealthClient::new(app.grpc_channel().await);
    for service in ["", "socio.v1.BillingService"] {
        let reply = health.check(HealthCheckRequest { service: service.into() }).await.unwrap().into_inner();
        assert_eq!(reply.status, ServingStatus::Serving as i32, "{service:?}");
    }
}
on_both_engines!(grpc_health_reports_the_services_serving);

async fn plans_are_the_same_over_grpc_grpc_web_and_rest(db: TestDatabase) {
    let app = spawn_app(db).await;
    let request = ListPlansRequest { language: "en".into() };

    let mut client = BillingServiceClient::new(app.grpc_channel().await);
    let grpc = client.list_plans(request.clone()).await.unwrap().into_inner();

    let (web, status) =
        app.grpc_web::<_, ListPlansResponse>("/socio.v1.BillingService/ListPlans", &request).await;
    assert_eq!(status, "0");
    assert_eq!(web.unwrap(), grpc, "gRPC-Web and gRPC agree");

    let (code, rest) = app.rest_get("/api/subscriptions/plans?language=en", "pt-BR").await;
    assert_eq!(code, 200);
    let plans = rest["data"]["plans"].as_array().unwrap();
    assert_eq!(plans.len(), grpc.plans.len());
    for (json, proto) in plans.iter().zip(&grpc.plans) {
        assert_eq!(json["name"], proto.name.as_str());
        assert_eq!(json["price"].as_f64().unwrap(), proto.price);
        assert_eq!(json["buttonText"], proto.button_text.as_str());
        assert_eq!(json["features"].as_array().unwrap().len(), proto.features.len());
    }
    assert_eq!(grpc.plans[1].id, PlanType::Pro as i32);
}
on_both_engines!(plans_are_the_same_over_grpc_grpc_web_and_rest);

async fn rest_success_envelope_carries_the_spec_fields_and_words(db: TestDatabase) {
    let app = spawn_app(db).await;
    let (code, body) = app.rest_get("/api/subscriptions/plans", "pt-BR,pt;q=0.9").await;
    assert_eq!(code, 200);
    assert_eq!(body["success"], true);
    let [free, pro] = [&body["data"]["plans"][0], &body["data"]["plans"][1]];
    assert_eq!(free["id"], "free");
    assert_eq!(free["name"], "Gratuito");
    assert_eq!(free["price"], 0);
    assert_eq!(free["popular"], false, "defaults are present");
    assert!(!free["limitations"].as_array().unwrap().is_empty());
    assert_eq!(pro["id"], "pro");
    assert_eq!(pro["popular"], true);
    assert_eq!(
        (pro["price"].clone(), pro["yearlyPrice"].clone(), pro["yearlySavings"].clone()),
        (100.into(), 899.into(), 301.into())
    );
    assert_eq!(pro["currency"], "BRL");
    assert_eq!(pro["period"], "/mês");

    let (_, english) = app.rest_get("/api/subscriptions/plans", "en-US").await;
    assert_eq!(english["data"]["plans"][0]["name"], "Free", "Accept-Language picks the copy");
    let (_, explicit) = app.rest_get("/api/subscriptions/plans?language=pt-BR", "en-US").await;
    assert_eq!(explicit["data"]["plans"][0]["name"], "Gratuito", "the language parameter wins");
}
on_both_engines!(rest_success_envelope_carries_the_spec_fields_and_words);

async fn rest_failures_use_the_envelope_with_localised_messages(db: TestDatabase) {
    let app = spawn_app(db).await;

    let (code, body) = app.rest_get("/api/no/such/thing", "en").await;
    assert_eq!(code, 404);
    assert_eq!(
        body,
        serde_json::json!({"success": false, "message": "API address not found.", "error": "NOT_FOUND"})
    );

    let (code, body) = app.rest_get("/api/admin/users?page=two", "pt-BR").await;
    assert_eq!(code, 400);
    assert_eq!(body["success"], false);
    assert_eq!(body["error"], "INVALID_ARGUMENT");
    assert_eq!(body["errors"][0]["field"], "page");
    assert!(body["message"].as_str().unwrap().starts_with("Dados inválidos"));

    let (code, body) = app.rest_send(reqwest::Method::POST, "/api/auth/send-code", "{not json").await;
    assert_eq!(code, 400);
    assert_eq!(body["error"], "INVALID_ARGUMENT");

    let (code, body) = app
        .rest_send(
            reqwest::Method::PUT,
            "/api/admin/users/abc/subscription",
            r#"{"subscriptionStatus":"gold"}"#,
        )
        .await;
    assert_eq!(code, 400);
    assert_eq!(body["errors"][0]["field"], "subscriptionStatus");

    let (code, body) = app.rest_send(reqwest::Method::DELETE, "/api/subscriptions/plans", "").await;
    assert_eq!(code, 405);
    assert_eq!(body["success"], false);
}
on_both_engines!(rest_failures_use_the_envelope_with_localised_messages);

async fn the_root_serves_the_landing_page_the_app_s_routes_the_app_an_unknown_path_a_404_and_assets_are_cached(
    db: TestDatabase,
) {
    let app = spawn_app(db).await;
    for (path, marker, status) in [
        ("/", LANDING_MARKER, 200),
        ("/?variant=B", LANDING_MARKER, 200),
        ("/dashboard", APP_MARKER, 200),
        ("/admin", APP_MARKER, 200),
        ("/checkout/sandbox/cs_123", APP_MARKER, 200),
        ("/privacidade", APP_MARKER, 200),
        ("/gdpr", APP_MARKER, 200),
        // Not one of the app's routes: its 404 page, answered as a 404.
        ("/no/such/page", APP_MARKER, 404),
        ("/careers", APP_MARKER, 404),
        ("/dashboardx", APP_MARKER, 404),
    ] {
        let response = app.http.get(format!("{}{path}", app.address)).send().await.unwrap();
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache");
        assert!(response.text().await.unwrap().contains(marker), "{path} renders {marker}");
    }
    let asset = app.http.get(format!("{}/assets/app-1234.js", app.address)).send().await.unwrap();
    assert_eq!(asset.status(), 200);
    assert!(asset.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    assert!(
        asset.headers().get("content-encoding").is_none(),
        "plain to a client that asks for nothing else"
    );
    assert_eq!(asset.text().await.unwrap(), "console.log('socio')");

    let gzipped = app
        .http
        .get(format!("{}/assets/app-1234.js", app.address))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(gzipped.status(), 200);
    assert_eq!(gzipped.headers()["content-encoding"], "gzip", "the build's precompressed copy");
    let vary: Vec<_> =
        gzipped.headers().get_all("vary").iter().map(|v| v.to_str().unwrap().to_owned()).collect();
    assert!(vary.iter().any(|v| v.contains("accept-encoding")), "{vary:?}");
    assert!(gzipped.headers()["content-type"].to_str().unwrap().contains("javascript"));
    assert!(gzipped.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    assert_eq!(gzipped.text().await.unwrap(), "gzipped console.log");
}
on_both_engines!(
    the_root_serves_the_landing_page_the_app_s_routes_the_app_an_unknown_path_a_404_and_assets_are_cached
);

async fn a_missing_asset_is_a_404_that_no_cache_keeps(db: TestDatabase) {
    let app = spawn_app(db).await;
    let missing = app.http.get(format!("{}/assets/app-0000.js", app.address)).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.headers()["cache-control"], "no-cache");
    assert!(!missing.text().await.unwrap().contains(APP_MARKER), "not the app's page under an asset's name");
}
on_both_engines!(a_missing_asset_is_a_404_that_no_cache_keeps);

async fn pages_and_answers_carry_the_browser_security_headers(db: TestDatabase) {
    let app = spawn_app(db).await;
    for path in ["/", "/dashboard", "/api/plans", "/assets/app-1234.js"] {
        let response = app.http.get(format!("{}{path}", app.address)).send().await.unwrap();
        let headers = response.headers();
        let policy = headers["content-security-policy"].to_str().unwrap();
        for directive in
            ["default-src 'self'", "script-src 'self';", "frame-ancestors 'none'", "object-src 'none'"]
        {
            assert!(policy.contains(directive), "{path}: {policy}");
        }
        assert!(
            !policy.contains("unsafe-eval")
                && !policy.split("script-src").nth(1).unwrap().starts_with(" 'self' 'unsafe-inline'")
        );
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "same-origin", "{path}");
        assert!(headers.get("strict-transport-security").is_none(), "{path}: not over plain http");
    }
    let secure =
        spawn_app_with(TestDatabase::sqlite(), &[("PUBLIC_URL", "https://socio.example".into())]).await;
    let response = secure.http.get(format!("{}/", secure.address)).send().await.unwrap();
    assert_eq!(response.headers()["strict-transport-security"], "max-age=63072000; includeSubDomains");
}
on_both_engines!(pages_and_answers_carry_the_browser_security_headers);

async fn readyz_fails_when_the_database_is_gone(db: TestDatabase) {
    let app = spawn_app(db).await;
    let get = |path: &'static str| {
        let (http, address) = (app.http.clone(), app.address.clone());
        async move { http.get(format!("{address}{path}")).send().await.unwrap().status().as_u16() }
    };
    assert_eq!(get("/readyz").await, 200);
    if app.database.is_postgres() {
        app.database.drop_now().await;
    } else {
        app.db.close().await;
    }
    assert_eq!(get("/readyz").await, 503);
    assert_eq!(get("/healthz").await, 200, "the process itself is still up");
}
on_both_engines!(readyz_fails_when_the_database_is_gone);

async fn browsers_on_the_dev_server_may_call_grpc_web(db: TestDatabase) {
    let app = spawn_app(db).await;
    let preflight = app
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/socio.v1.BillingService/ListPlans", app.address))
        .header("origin", "http://localhost:5173")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type,x-grpc-web,authorization")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "http://localhost:5173");

    let stranger = app
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/socio.v1.BillingService/ListPlans", app.address))
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(stranger.headers().get("access-control-allow-origin").is_none());
}
on_both_engines!(browsers_on_the_dev_server_may_call_grpc_web);

async fn the_server_stops_gracefully(db: TestDatabase) {
    let app = spawn_app(db).await;
    let address = app.address.clone();
    app.stop().await;
    assert!(reqwest::get(format!("{address}/healthz")).await.is_err(), "nothing listens any more");
}
on_both_engines!(the_server_stops_gracefully);

async fn the_openapi_document_describes_every_rest_route(db: TestDatabase) {
    let app = spawn_app(db).await;
    let response = app.http.get(format!("{}/api/openapi.json", app.address)).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    let doc: serde_json::Value = response.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    for (path, method) in [
        ("/api/subscriptions/plans", "get"),
        ("/api/auth/send-code", "post"),
        ("/api/admin/users/{id}", "delete"),
        ("/api/system-prompts/{id}/activate", "patch"),
        ("/api/analytics/events", "post"),
    ] {
        assert!(doc["paths"][path][method].is_object(), "{method} {path}");
    }
}
on_both_engines!(the_openapi_document_describes_every_rest_route);
