//! Passwordless login over WhatsApp, and authorization on every call: codes (hashed, expiring,
//! single use, limited), rotating refresh tokens, logout, forged tokens, and admin-only services
//! refusing anonymous and regular callers over gRPC and REST.

use serde_json::{Value, json};
use socio::{
    identity::users::{self, Role},
    proto::socio::v1::{GetMeRequest, auth_service_client::AuthServiceClient},
};
use sqlx::Row;

use crate::{
    helpers::{TestApp, TestDatabase, spawn_app, spawn_app_with},
    on_both_engines,
};

pub(crate) const ANA: &str = "+5511987654321";

/// Lets the one-minute cooldown pass: the server's clock moves `ms` forward.
async fn age_codes(app: &TestApp, ms: i64) {
    app.db.clock().advance(ms);
}

async fn send_code_for_an_unknown_number_returns_is_unregistered_with_a_whatsapp_link(db: TestDatabase) {
    let app = spawn_app(db).await;
    let (status, body) = app.send_code("+5511912345678").await;
    assert_eq!(status, 404);
    assert_eq!(body["success"], false);
    assert_eq!(body["isUnregistered"], true);
    assert!(body["message"].as_str().unwrap().contains("não registrado"), "{body}");
    let url = body["data"]["whatsappUrl"].as_str().unwrap();
    assert!(url.starts_with("https://wa.me/5511900000000?text=Ol%C3%A1"), "{url}");

    let english = app
        .http
        .post(format!("{}/api/auth/send-code", app.address))
        .json(&json!({"phoneNumber": "+5511912345678", "language": "en"}))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert!(english["message"].as_str().unwrap().contains("not registered"));
    assert_eq!(app.count("select count(*) as n from login_codes").await, 0);
}
on_both_engines!(send_code_for_an_unknown_number_returns_is_unregistered_with_a_whatsapp_link);

async fn a_registered_user_logs_in_with_the_code_sent_over_whatsapp(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (status, body) = app.send_code("(11) 98765-4321").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "Código de verificação enviado!");
    assert_eq!(body["data"]["expiresInSeconds"], 600);
    let code = app.code_in_outbox(ANA).await;
    assert_eq!(code.len(), 6);

    let stored: String = sqlx::query("select code_hash from login_codes")
        .fetch_one(app.db.pool())
        .await
        .unwrap()
        .get("code_hash");
    assert!(!stored.contains(&code), "the code is stored only as a hash");

    let (status, body) = app.verify(ANA, &code).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "Bem-vindo! Você entrou com sucesso.");
    let token = body["data"]["token"].as_str().unwrap();
    assert_eq!(token.split('.').count(), 3, "a JWT");
    assert!(body["data"]["refreshToken"].as_str().unwrap().len() >= 43, "at least 256 bits");

    let (status, body) = app.me(token).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["user"]["phoneNumber"], ANA);
    assert_eq!(body["data"]["user"]["role"], "user");
    assert_eq!(body["data"]["user"]["subscriptionStatus"], "free");
    assert_eq!(body["data"]["user"]["language"], "pt-BR");

    let mut grpc = AuthServiceClient::new(app.grpc_channel().await);
    let mut request = tonic::Request::new(GetMeRequest {});
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    assert_eq!(grpc.get_me(request).await.unwrap().into_inner().user.unwrap().phone_number, ANA);
}
on_both_engines!(a_registered_user_logs_in_with_the_code_sent_over_whatsapp);

async fn codes_can_be_asked_for_once_a_minute_and_five_times_an_hour(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    assert_eq!(app.send_code(ANA).await.0, 200);
    let response = app
        .http
        .post(format!("{}/api/auth/send-code", app.address))
        .json(&json!({"phoneNumber": ANA, "language": "en"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 429);
    let retry_after: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry_after));
    let body: Value = response.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("seconds"), "{body}");

    for _ in 0..4 {
        age_codes(&app, 61_000).await;
        assert_eq!(app.send_code(ANA).await.0, 200);
    }
    age_codes(&app, 61_000).await;
    assert_eq!(app.send_code(ANA).await.0, 429, "the sixth code within an hour");
}
on_both_engines!(codes_can_be_asked_for_once_a_minute_and_five_times_an_hour);

async fn a_code_is_single_use_and_expires_after_ten_minutes(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    app.send_code(ANA).await;
    let code = app.code_in_outbox(ANA).await;
    assert_eq!(app.verify(ANA, &code).await.0, 200);
    let (status, body) = app.verify(ANA, &code).await;
    assert_eq!(status, 401, "single use");
    assert!(body["message"].as_str().unwrap().contains("Código inválido"));

    age_codes(&app, 61_000).await;
    app.send_code(ANA).await;
    let code = app.code_in_outbox(ANA).await;
    app.db.clock().advance(10 * 60_000 + 1);
    assert_eq!(app.verify(ANA, &code).await.0, 401, "expired");
}
on_both_engines!(a_code_is_single_use_and_expires_after_ten_minutes);

async fn a_resend_replaces_the_previous_code(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    app.send_code(ANA).await;
    let first = app.code_in_outbox(ANA).await;
    age_codes(&app, 61_000).await;
    app.send_code(ANA).await;
    let second = app.code_in_outbox(ANA).await;
    if first != second {
        assert_eq!(app.verify(ANA, &first).await.0, 401, "the old code died");
    }
    assert_eq!(app.verify(ANA, &second).await.0, 200);
}
on_both_engines!(a_resend_replaces_the_previous_code);

async fn five_wrong_tries_kill_a_code(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    app.send_code(ANA).await;
    let code = app.code_in_outbox(ANA).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        assert_eq!(app.verify(ANA, wrong).await.0, 401);
    }
    assert_eq!(app.verify(ANA, &code).await.0, 401, "dead after five wrong tries");
}
on_both_engines!(five_wrong_tries_kill_a_code);

async fn ten_failures_across_resends_lock_the_number_for_fifteen_minutes(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    for round in 0..2 {
        if round > 0 {
            age_codes(&app, 61_000).await;
        }
        assert_eq!(app.send_code(ANA).await.0, 200, "a resend does not reset the count");
        let code = app.code_in_outbox(ANA).await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            app.verify(ANA, wrong).await;
        }
    }
    // The lock answers before the one-a-minute limit would.
    let (status, body) = app.send_code(ANA).await;
    assert_eq!(status, 429, "{body}");
    assert!(body["message"].as_str().unwrap().contains("15 minutos"), "{body}");
    age_codes(&app, 15 * 60_000).await;
    assert_eq!(app.send_code(ANA).await.0, 200, "the lock ends");
}
on_both_engines!(ten_failures_across_resends_lock_the_number_for_fifteen_minutes);

async fn concurrent_wrong_guesses_never_pass_the_limits_and_leave_the_number_locked(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    app.send_code(ANA).await;
    let code = app.code_in_outbox(ANA).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let guesses = (0..30).map(|_| app.verify(ANA, wrong));
    let statuses: Vec<u16> = futures::future::join_all(guesses).await.into_iter().map(|(s, _)| s).collect();
    let answered_wrong = statuses.iter().filter(|s| **s == 401).count();
    assert_eq!(answered_wrong, 10, "ten guesses per number reach the comparison: {statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 20, "the rest find it locked: {statuses:?}");
    let attempts: i32 =
        sqlx::query("select attempts from login_codes").fetch_one(app.db.pool()).await.unwrap().get(0);
    assert_eq!(attempts, 5, "five guesses per code");
    assert_eq!(app.verify(ANA, &code).await.0, 429, "the right code no longer opens a locked number");
}
on_both_engines!(concurrent_wrong_guesses_never_pass_the_limits_and_leave_the_number_locked);

async fn a_burst_of_code_requests_sends_one_code(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let sends = (0..12).map(|_| app.send_code(ANA));
    let statuses: Vec<u16> = futures::future::join_all(sends).await.into_iter().map(|(s, _)| s).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 11, "{statuses:?}");
    let codes: i64 =
        sqlx::query("select count(*) from login_codes").fetch_one(app.db.pool()).await.unwrap().get(0);
    assert_eq!(codes, 1);
    let sent = app.outbox_messages("+5511987654321").await;
    assert_eq!(sent.iter().filter(|m| m["kind"] == "login_code").count(), 1);
}
on_both_engines!(a_burst_of_code_requests_sends_one_code);

async fn one_address_cannot_flood_code_requests(db: TestDatabase) {
    let app = spawn_app(db).await;
    let mut statuses = Vec::new();
    for n in 0..22 {
        statuses.push(app.send_code(&format!("+55119000000{n:02}")).await.0);
    }
    assert!(statuses[..20].iter().all(|s| *s == 404), "{statuses:?}");
    assert_eq!(statuses[21], 429);
}
on_both_engines!(one_address_cannot_flood_code_requests);

async fn refresh_rotates_and_a_reused_token_revokes_the_whole_family(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (_, first_refresh) = app.login(ANA).await;
    let (status, body) = app
        .call(reqwest::Method::POST, "/api/auth/refresh", json!({"refreshToken": first_refresh}), None)
        .await;
    assert_eq!(status, 200, "{body}");
    let second_refresh = body["data"]["refreshToken"].as_str().unwrap().to_owned();
    let second_access = body["data"]["token"].as_str().unwrap().to_owned();
    assert_ne!(second_refresh, first_refresh);
    assert_eq!(app.me(&second_access).await.0, 200);

    // Past the reuse interval (10 s), a used token is a thief's.
    app.db.clock().advance(10_001);
    let (status, _) = app
        .call(reqwest::Method::POST, "/api/auth/refresh", json!({"refreshToken": first_refresh}), None)
        .await;
    assert_eq!(status, 401, "a used token is refused");
    let (status, _) = app
        .call(reqwest::Method::POST, "/api/auth/refresh", json!({"refreshToken": second_refresh}), None)
        .await;
    assert_eq!(status, 401, "and its whole family is revoked");
    assert_eq!(app.me(&second_access).await.0, 401, "the session is over");
}
on_both_engines!(refresh_rotates_and_a_reused_token_revokes_the_whole_family);

async fn two_tabs_refreshing_at_once_or_a_lost_answer_keep_the_session(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (_, refresh) = app.login(ANA).await;
    let app = &app;
    let renew = |token: String| async move {
        app.call(reqwest::Method::POST, "/api/auth/refresh", json!({"refreshToken": token}), None).await
    };
    // Two tabs present the same token at the same moment.
    let answers = futures::future::join_all((0..4).map(|_| renew(refresh.clone()))).await;
    for (status, body) in &answers {
        assert_eq!(*status, 200, "every tab gets a working pair: {body}");
        let access = body["data"]["token"].as_str().unwrap();
        assert_eq!(app.me(access).await.0, 200, "of the same, standing session");
    }
    // A phone lost the answer and asks again 9 s later: still within the interval.
    app.db.clock().advance(9_000);
    let (status, lost) = renew(refresh.clone()).await;
    assert_eq!(status, 200, "{lost}");
    // Each pair goes on working: every new refresh token renews once more.
    for (_, body) in answers.iter().chain([&(status, lost)]) {
        let (status, next) = renew(body["data"]["refreshToken"].as_str().unwrap().to_owned()).await;
        assert_eq!(status, 200, "{next}");
    }
    // After the interval, the same token again is theft: the whole session ends.
    app.db.clock().advance(1_001);
    let (status, _) = renew(refresh).await;
    assert_eq!(status, 401);
    let (status, _) = renew(answers[0].1["data"]["refreshToken"].as_str().unwrap().to_owned()).await;
    assert_eq!(status, 401, "its family is revoked");
}
on_both_engines!(two_tabs_refreshing_at_once_or_a_lost_answer_keep_the_session);

async fn logout_ends_the_session(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (access, refresh) = app.login(ANA).await;
    let (status, _) = app
        .call(reqwest::Method::POST, "/api/auth/logout", json!({"refreshToken": refresh}), Some(&access))
        .await;
    assert_eq!(status, 200);
    assert_eq!(app.me(&access).await.0, 401);
    let (status, _) =
        app.call(reqwest::Method::POST, "/api/auth/refresh", json!({"refreshToken": refresh}), None).await;
    assert_eq!(status, 401);
}
on_both_engines!(logout_ends_the_session);

async fn forged_and_foreign_tokens_are_refused(db: TestDatabase) {
    let app = spawn_app(db).await;
    let user_id = app.register(ANA).await;
    let other = socio::identity::sessions::TokenKeys::new(
        &socio::config::Secret::new("another-server-secret-0123456789abcdef"),
        socio::clock::Clock::system(),
    );
    let user = users::Users::new(app.db.clone()).find(&user_id).await.unwrap().unwrap();
    let foreign = other.issue(&user, "s").unwrap();
    for token in ["", "garbage", "a.b.c", foreign.as_str()] {
        assert_eq!(app.me(token).await.0, 401, "{token:?}");
    }
    let (status, body) = app.call(reqwest::Method::GET, "/api/auth/me", Value::Null, None).await;
    assert_eq!((status, &body["error"]), (401, &json!("UNAUTHENTICATED")));
}
on_both_engines!(forged_and_foreign_tokens_are_refused);

async fn an_erased_user_or_a_changed_role_stops_the_tokens_at_once(db: TestDatabase) {
    let app = spawn_app_with(db, &[("ADMIN_PHONES", ANA.into())]).await;
    let (admin_access, admin_refresh) = app.login(ANA).await;
    let (_, body) = app.me(&admin_access).await;
    assert_eq!(body["data"]["user"]["role"], "admin", "ADMIN_PHONES holds the admin role");
    let admin_id = body["data"]["user"]["id"].as_str().unwrap().to_owned();

    socio::identity::roles::Roles::new(app.db.clone()).set(&admin_id, Role::User).await.unwrap();
    assert_eq!(app.me(&admin_access).await.0, 401, "the demoted admin's token stops working");
    let (status, _) = app
        .call(reqwest::Method::POST, "/api/auth/refresh", json!({"refreshToken": admin_refresh}), None)
        .await;
    assert_eq!(status, 401, "and so do their sessions");

    let erased = app.register("+5521998765432").await;
    let (access, _) = app.login("+5521998765432").await;
    assert_eq!(app.me(&access).await.0, 200);
    assert!(socio::erasure::Erasure::new(app.db.clone()).erase(&erased).await.unwrap());
    assert_eq!(app.me(&access).await.0, 401, "an erased user's token stops working");
}
on_both_engines!(an_erased_user_or_a_changed_role_stops_the_tokens_at_once);

/// Every admin-only REST route and gRPC method of the contracts.
fn admin_methods() -> Vec<(reqwest::Method, String, String)> {
    let table =
        socio::api::rest::routes::RouteTable::from_pool(socio::proto::descriptor_pool(), "socio.v1").unwrap();
    table
        .routes()
        .iter()
        .filter(|r| {
            r.grpc_path.starts_with("/socio.v1.AdminService/")
                || r.grpc_path.starts_with("/socio.v1.SystemPromptService/")
        })
        .map(|r| {
            let path = r.template().replace("{id}", "00000000-0000-0000-0000-000000000000");
            (reqwest::Method::from_bytes(r.method.as_str().as_bytes()).unwrap(), path, r.grpc_path.clone())
        })
        .collect()
}

async fn every_admin_call_refuses_anonymous_and_regular_callers_over_grpc_and_rest(db: TestDatabase) {
    let app = spawn_app_with(db, &[("ADMIN_PHONES", "+5521998765432".into())]).await;
    app.register(ANA).await;
    let (user_token, _) = app.login(ANA).await;
    let (admin_token, _) = app.login("+5521998765432").await;
    let methods = admin_methods();
    assert_eq!(methods.len(), 20, "14 admin calls and 6 system-prompt calls");
    for (method, path, grpc_path) in &methods {
        let body = if *method == reqwest::Method::GET || *method == reqwest::Method::DELETE {
            Value::Null
        } else {
            json!({})
        };
        let (anonymous, _) = app.call(method.clone(), path, body.clone(), None).await;
        let (regular, envelope) = app.call(method.clone(), path, body.clone(), Some(&user_token)).await;
        let (admin, _) = app.call(method.clone(), path, body, Some(&admin_token)).await;
        assert_eq!((anonymous, regular), (401, 403), "{method} {path}");
        assert_eq!(envelope["error"], "PERMISSION_DENIED");
        assert_ne!(admin, 403, "{method} {path}: an admin gets through");

        assert_eq!(app.grpc_status(grpc_path, None).await, "16", "{grpc_path} anonymous");
        assert_eq!(app.grpc_status(grpc_path, Some(&user_token)).await, "7", "{grpc_path} regular user");
        assert_ne!(app.grpc_status(grpc_path, Some(&admin_token)).await, "7", "{grpc_path} admin");
    }
}
on_both_engines!(every_admin_call_refuses_anonymous_and_regular_callers_over_grpc_and_rest);

/// The calls anyone may make; every other method of the contracts needs a token.
const PUBLIC_METHODS: &[&str] = &[
    "socio.v1.AuthService/SendCode",
    "socio.v1.AuthService/VerifyCode",
    "socio.v1.AuthService/Refresh",
    "socio.v1.AuthService/StartWhatsAppLogin",
    "socio.v1.AuthService/GetWhatsAppLogin",
    "socio.v1.AuthService/Logout",
    "socio.v1.BillingService/ListPlans",
    "socio.v1.BillingService/CreateCheckout",
    "socio.v1.BillingService/GetCheckoutResult",
    "socio.v1.BillingService/GetSandboxCheckout",
    "socio.v1.BillingService/CompleteSandboxCheckout",
    "socio.v1.LandingService/TrackEvent",
    "socio.v1.LandingService/SubscribeNewsletter",
    "socio.v1.LandingService/GetContact",
    "socio.v1.LandingService/GetProof",
];

async fn every_method_of_the_contracts_needs_a_token_unless_it_is_one_of_the_public_calls(db: TestDatabase) {
    let app = spawn_app(db).await;
    let pool = socio::proto::descriptor_pool();
    let methods: Vec<String> = pool
        .services()
        .filter(|s| s.package_name() == "socio.v1")
        .flat_map(|s| s.methods().map(|m| format!("{}/{}", s.full_name(), m.name())).collect::<Vec<_>>())
        .collect();
    assert!(methods.len() > 50, "{} methods", methods.len());
    for method in &methods {
        let path = format!("/{method}");
        let anonymous = app.grpc_status(&path, None).await;
        let forged = app.grpc_status(&path, Some("not-a-token")).await;
        if PUBLIC_METHODS.contains(&method.as_str()) {
            // Refresh refuses an empty refresh token as Unauthenticated on its own.
            if method != "socio.v1.AuthService/Refresh" {
                assert_ne!(anonymous, "16", "{method} is public");
                assert_ne!(forged, "16", "{method} is public: a bad token is no reason to refuse it");
            }
        } else {
            assert_eq!((anonymous.as_str(), forged.as_str()), ("16", "16"), "{method} needs a token");
        }
    }
}
on_both_engines!(every_method_of_the_contracts_needs_a_token_unless_it_is_one_of_the_public_calls);

/// The REST transcoder calls the handlers through its own door: the same rule guards it.
async fn every_rest_route_needs_a_token_unless_it_is_one_of_the_public_calls(db: TestDatabase) {
    let app = spawn_app(db).await;
    let table =
        socio::api::rest::routes::RouteTable::from_pool(socio::proto::descriptor_pool(), "socio.v1").unwrap();
    assert!(table.routes().len() > 50, "{} routes", table.routes().len());
    for route in table.routes() {
        let path: String = route
            .template()
            .split('/')
            .map(
                |segment| {
                    if segment.starts_with('{') { "00000000-0000-0000-0000-000000000000" } else { segment }
                },
            )
            .collect::<Vec<_>>()
            .join("/");
        let method = reqwest::Method::from_bytes(route.method.as_str().as_bytes()).unwrap();
        let body = if method == reqwest::Method::GET || method == reqwest::Method::DELETE {
            Value::Null
        } else {
            json!({})
        };
        let (anonymous, envelope) = app.call(method.clone(), &path, body.clone(), None).await;
        let (forged, _) = app.call(method.clone(), &path, body, Some("not-a-token")).await;
        let grpc_method = route.grpc_path.trim_start_matches('/');
        if PUBLIC_METHODS.contains(&grpc_method) {
            if grpc_method != "socio.v1.AuthService/Refresh" {
                assert_ne!(anonymous, 401, "{method} {path} is public");
                assert_ne!(forged, 401, "{method} {path} is public: a bad token is no reason to refuse it");
            }
        } else {
            assert_eq!((anonymous, forged), (401, 401), "{method} {path} needs a token");
            assert_eq!(envelope["error"], "UNAUTHENTICATED", "{method} {path}");
        }
    }
}
on_both_engines!(every_rest_route_needs_a_token_unless_it_is_one_of_the_public_calls);

/// `rpc_service!` lists each service's handlers by hand, and the generated traits answer an
/// unlisted method with UNIMPLEMENTED: every method must reach a handler.
async fn every_method_of_the_contracts_reaches_a_handler(db: TestDatabase) {
    let app = spawn_app_with(db, &[("ADMIN_PHONES", "+5521998765432".into())]).await;
    app.register("+5521998765432").await;
    let (admin, _) = app.login("+5521998765432").await;
    let pool = socio::proto::descriptor_pool();
    for service in pool.services().filter(|s| s.package_name() == "socio.v1") {
        for method in service.methods() {
            let path = format!("/{}/{}", service.full_name(), method.name());
            if path == "/socio.v1.AuthService/Logout" {
                continue; // it would end the admin's session for the calls after it
            }
            assert_ne!(app.grpc_status(&path, Some(&admin)).await, "12", "{path} reaches no handler");
        }
    }
}
on_both_engines!(every_method_of_the_contracts_reaches_a_handler);

async fn admin_promote_grants_the_role_from_the_command_line(db: TestDatabase) {
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_socio"))
        .args(["admin", "promote", "(11) 98765-4321"])
        .env_clear()
        .env("DATABASE_URL", &db.url)
        .env("JWT_SECRET", "cli-test-secret-that-is-long-enough-01234")
        .env("RUST_LOG", "error")
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let app = spawn_app(db).await;
    assert_eq!(app.user_column(ANA, "role").await, "admin");
    let (token, _) = app.login(ANA).await;
    assert_eq!(app.me(&token).await.1["data"]["user"]["role"], "admin");
}
on_both_engines!(admin_promote_grants_the_role_from_the_command_line);
