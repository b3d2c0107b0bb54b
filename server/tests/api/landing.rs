//! What the public landing page calls, and what admins read of it: the A/B funnel reported by the
//! tracking call (each visitor once a day), Pro conversions attributed to the variant the checkout
//! came from, messages and failed sends per day; newsletter sign-ups with consent; the contact.
//! Bad input and floods are refused.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, TestDatabase, spawn_app, spawn_app_with},
    on_both_engines,
};

const ADMIN: &str = "+5531999990000";
const ANA: &str = "+5511987654321";

async fn track(app: &TestApp, kind: &str, variant: &str, visitor: &str) -> (u16, Value) {
    app.call(
        Method::POST,
        "/api/analytics/events",
        json!({"kind": kind, "variant": variant, "visitorId": visitor}),
        None,
    )
    .await
}

async fn the_funnel_counts_each_visitor_once_a_day_by_variant_and_attributes_paid_checkouts(
    db: TestDatabase,
) {
    let app =
        spawn_app_with(db, &[("ADMIN_PHONES", ADMIN.into()), ("WHATSAPP_BATCH_WINDOW_MS", "10".into())])
            .await;
    for (kind, variant, visitor) in [
        ("landing_view", "A", "visitor-a-0001"),
        ("landing_view", "A", "visitor-a-0001"), // the same visitor again today
        ("landing_view", "A", "visitor-a-0002"),
        ("landing_view", "C", "visitor-a-0003"), // anything but B is A
        ("landing_view", "B", "visitor-b-0001"),
        ("landing_view", "B", "visitor-b-0002"),
        ("checkout_start", "A", "visitor-a-0001"),
        ("checkout_start", "B", "visitor-b-0001"),
        ("checkout_start", "B", "visitor-b-0002"),
    ] {
        let (status, body) = track(&app, kind, variant, visitor).await;
        assert_eq!(status, 200, "{body}");
    }

    // Ana writes on WhatsApp, then pays for Pro from a checkout that came from variant B.
    let inbound = json!({"from": ANA, "name": "Ana Lima", "text": "Oi"}).to_string();
    assert_eq!(app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &inbound).await.0, 200);
    let (status, body) = app
        .call(
            Method::POST,
            "/api/subscriptions/checkout",
            json!({"planType": "pro", "phoneNumber": ANA, "landingVariant": "B"}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let session = body["data"]["checkoutUrl"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    assert_eq!(app.complete_sandbox(&session, true).await.0, 200);
    // Another checkout for her, now Pro, is refused: nothing replaces a running Pro in passing.
    let (status, _) = app
        .call(
            Method::POST,
            "/api/subscriptions/checkout",
            json!({"planType": "pro", "phoneNumber": ANA}),
            None,
        )
        .await;
    assert_eq!(status, 409);
    // Bruno pays from the link the consultant sent him on WhatsApp: no landing page, counted apart.
    let bruno = "+5521998765432";
    let inbound = json!({"from": bruno, "name": "Bruno", "text": "Oi"}).to_string();
    assert_eq!(app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &inbound).await.0, 200);
    let (_, body) = app
        .call(
            Method::POST,
            "/api/subscriptions/checkout",
            json!({"planType": "pro", "phoneNumber": bruno}),
            None,
        )
        .await;
    let session = body["data"]["checkoutUrl"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    assert_eq!(app.complete_sandbox(&session, true).await.0, 200);

    let (token, _) = app.login(ADMIN).await;
    let (status, body) =
        app.call(Method::GET, "/api/admin/analytics?days=7", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(
        data["funnel"],
        json!([
            {"variant": "A", "landingViews": 3, "checkoutStarts": 1, "proConversions": 0},
            {"variant": "B", "landingViews": 2, "checkoutStarts": 2, "proConversions": 1},
        ])
    );
    assert_eq!(data["proConversionsElsewhere"], 1, "a Pro sign-up through WhatsApp is counted too");
    let days = data["messagesPerDay"].as_array().unwrap();
    assert_eq!(days.len(), 7, "every day of the window, zeros included");
    assert!(days[..6].iter().all(|d| d["count"] == 0), "{days:?}");
    assert!(days[6]["count"].as_i64().unwrap() >= 1, "today holds Ana's message: {days:?}");
    assert_eq!(data["failedSendsPerDay"].as_array().unwrap().len(), 7);

    let (status, body) =
        app.call(Method::GET, "/api/admin/analytics?days=365", Value::Null, Some(&token)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "days");
}
on_both_engines!(the_funnel_counts_each_visitor_once_a_day_by_variant_and_attributes_paid_checkouts);

async fn tracking_refuses_bad_input_and_a_flood_from_one_address(db: TestDatabase) {
    let app = spawn_app_with(db, &[]).await;
    let (status, body) = track(&app, "unspecified", "A", "visitor-0001").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "kind");
    let (status, body) = track(&app, "landing_view", "A", "<script>").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "visitorId");
    let stored = app.count("select count(*) as n from landing_events").await;
    assert_eq!(stored, 0, "bad input changes nothing");

    // 120 a minute per address (a minute boundary in the middle may let a few more through).
    let mut last = (200, Value::Null);
    for n in 0..241 {
        last = track(&app, "landing_view", "A", &format!("visitor-{n:04}")).await;
        if last.0 != 200 {
            assert!(n >= 120, "refused after only {n}");
            break;
        }
    }
    assert_eq!(last.0, 429, "{}", last.1);
    assert!(last.1["retryAfter"].as_i64().unwrap() >= 1);
}
on_both_engines!(tracking_refuses_bad_input_and_a_flood_from_one_address);

async fn the_newsletter_keeps_an_address_once_with_its_consent_and_refuses_bad_input(db: TestDatabase) {
    let app = spawn_app_with(db, &[]).await;
    let signup = |email: &'static str, consent: bool| {
        let app = &app;
        async move {
            app.call(
                Method::POST,
                "/api/newsletter",
                json!({"email": email, "consent": consent, "language": "en"}),
                None,
            )
            .await
        }
    };
    let (status, body) = signup("Ana.Lima@Exemplo.com.br", true).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "Done! You will get our tips.");
    assert_eq!(signup("ana.lima@exemplo.com.br", true).await.0, 200, "signing up again is fine");

    let (status, body) = signup("ana@exemplo", false).await;
    assert_eq!(status, 400, "{body}");
    let fields: Vec<&str> =
        body["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["email", "consent"]);
    assert!(body["message"].as_str().unwrap().contains("e-mail"), "{body}");

    let rows = sqlx::query("select email, language, consented_at from newsletter_subscribers")
        .fetch_all(app.db.pool())
        .await
        .unwrap();
    assert_eq!(rows.len(), 1, "one address, kept once; bad input stored nothing");
    assert_eq!(sqlx::Row::get::<String, _>(&rows[0], "email"), "ana.lima@exemplo.com.br");
    assert_eq!(sqlx::Row::get::<String, _>(&rows[0], "language"), "en");
    assert!(sqlx::Row::get::<i64, _>(&rows[0], "consented_at") > 0);

    let mut refused = false;
    for _ in 0..12 {
        if signup("bia@exemplo.com", true).await.0 == 429 {
            refused = true;
            break;
        }
    }
    assert!(refused, "ten sign-ups an hour per address");
}
on_both_engines!(the_newsletter_keeps_an_address_once_with_its_consent_and_refuses_bad_input);

async fn the_contact_shows_the_business_whatsapp_and_support_address(db: TestDatabase) {
    let app = spawn_app_with(
        db,
        &[
            ("SUPPORT_EMAIL", "ajuda@socio.app".into()),
            ("CONTROLLER_NAME", "Sócio Consultoria Ltda".into()),
            ("CONTROLLER_CNPJ", "12.345.678/0001-95".into()),
            ("WHATSAPP_BUSINESS_NUMBER", "+55 11 3456-7890".into()),
        ],
    )
    .await;
    let (status, body) = app.call(Method::GET, "/api/contact", Value::Null, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"],
        json!({"whatsappNumber": "+55 (11) 3456-7890", "whatsappUrl": "https://wa.me/551134567890", "email": "ajuda@socio.app",
               "controllerName": "Sócio Consultoria Ltda", "controllerCnpj": "12.345.678/0001-95"})
    );
}
on_both_engines!(the_contact_shows_the_business_whatsapp_and_support_address);

async fn without_a_configured_number_the_contact_shows_none_rather_than_a_placeholder(db: TestDatabase) {
    let app = spawn_app(db).await;
    let (status, body) = app.call(Method::GET, "/api/contact", Value::Null, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["data"]["whatsappNumber"], &body["data"]["whatsappUrl"]),
        (&json!(""), &json!("")),
        "{body}"
    );
}
on_both_engines!(without_a_configured_number_the_contact_shows_none_rather_than_a_placeholder);

/// Ten newsletter sign-ups from one client address, then the eleventh, then one from another.
async fn signups_from(app: &TestApp, client: &str, count: usize) -> Vec<u16> {
    let mut statuses = Vec::new();
    for n in 0..count {
        let response = app
            .http
            .post(format!("{}/api/newsletter", app.address))
            .header("content-type", "application/json")
            .header("x-forwarded-for", format!("{client}, 127.0.0.1"))
            .body(json!({"email": format!("leitor{n}@exemplo.com"), "consent": true}).to_string())
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
    }
    statuses
}

async fn behind_a_trusted_proxy_each_client_has_its_own_limit(db: TestDatabase) {
    let app = spawn_app_with(db, &[("TRUSTED_PROXIES", "127.0.0.1".into())]).await;
    let first = signups_from(&app, "203.0.113.7", 11).await;
    assert_eq!(first[..10], [200; 10]);
    assert_eq!(first[10], 429, "the client's own limit");
    assert_eq!(signups_from(&app, "198.51.100.20", 1).await, [200], "another client behind the same proxy");
}
on_both_engines!(behind_a_trusted_proxy_each_client_has_its_own_limit);

async fn without_trusted_proxies_x_forwarded_for_is_ignored(db: TestDatabase) {
    let app = spawn_app_with(db, &[]).await;
    assert_eq!(signups_from(&app, "203.0.113.7", 10).await, [200; 10]);
    assert_eq!(
        signups_from(&app, "198.51.100.20", 1).await,
        [429],
        "a header anyone can write changes nothing"
    );
}
on_both_engines!(without_trusted_proxies_x_forwarded_for_is_ignored);

/// Issue 48: the landing page claims only what has a source — plans counted, states read from the
/// area codes of the people who wrote, the testimonials the operator configured in a file.
async fn the_landing_page_s_figures_are_counted_and_its_testimonials_configured(db: TestDatabase) {
    let file = std::env::temp_dir().join(format!("socio-testimonials-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(
        &file,
        r#"[{"name":"Mariana Costa","role":"Confeiteira, Belo Horizonte (MG)","text":"Sei quanto vender por mês.","language":"pt-BR"},
            {"name":"Rafael Souza","role":"Mechanic, Recife (PE)","text":"It helped me go formal.","language":"en"}]"#,
    )
    .unwrap();
    let app = spawn_app_with(db, &[("SOCIO_TESTIMONIALS_FILE", file.display().to_string())]).await;
    let (status, body) = app.rest_get("/api/landing/proof", "pt-BR").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["plansCreated"], 0, "a new installation claims nothing: {body}");
    assert_eq!(body["data"]["states"], json!([]));
    assert_eq!(
        body["data"]["testimonials"],
        json!([{"name": "Mariana Costa", "role": "Confeiteira, Belo Horizonte (MG)", "text": "Sei quanto vender por mês."}])
    );
    let (_, english) = app.rest_get("/api/landing/proof?language=en", "pt-BR").await;
    assert_eq!(english["data"]["testimonials"][0]["name"], "Rafael Souza");

    // People write from São Paulo (11, 19: five in all), Rio (21: five), Minas (31: one) and
    // abroad; two write plans, one only opens the builder and reads its progress.
    let people = [
        "+5511987654321",
        "+5511987654322",
        "+5511987654323",
        "+5519987654321",
        "+5519987654322",
        "+5521987654321",
        "+5521987654322",
        "+5521987654323",
        "+5521987654324",
        "+5521987654325",
        "+5531987654321",
        "+14155550100",
    ];
    for phone in people {
        app.register(phone).await;
    }
    for phone in ["+5511987654321", "+5521987654321"] {
        let (token, _) = app.login(phone).await;
        let idea = json!({"ideaData": {"businessIdea": "Padaria de fermentação natural"}});
        let (status, body) = app.call(Method::PUT, "/api/business-plan/idea", idea, Some(&token)).await;
        assert_eq!(status, 200, "{body}");
    }
    let (token, _) = app.login("+5531987654321").await;
    let (status, body) = app.call(Method::POST, "/api/business-plan", json!({}), Some(&token)).await;
    assert!(status == 200 || status == 201, "{body}");
    let (status, _) = app.call(Method::GET, "/api/business-plan/progress", Value::Null, Some(&token)).await;
    assert_eq!(status, 200);
    // Counted at most every ten minutes: the same figures until then.
    assert_eq!(app.rest_get("/api/landing/proof", "pt-BR").await.1["data"]["plansCreated"], 0);
    app.db.clock().advance(10 * 60 * 1000);
    let (_, body) = app.rest_get("/api/landing/proof", "pt-BR").await;
    assert_eq!(body["data"]["plansCreated"], 2, "plans with something written in them: {body}");
    assert_eq!(body["data"]["states"], json!(["RJ", "SP"]), "Minas, with one person, is not named");
    std::fs::remove_file(&file).unwrap();
}
on_both_engines!(the_landing_page_s_figures_are_counted_and_its_testimonials_configured);

#[tokio::test]
async fn a_broken_testimonials_file_stops_the_start_naming_it() {
    let db = TestDatabase::sqlite();
    let file = std::env::temp_dir().join(format!("socio-testimonials-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(&file, r#"[{"name":"","role":"x","text":"y","language":"pt-BR"}]"#).unwrap();
    let vars: std::collections::HashMap<String, String> = [
        ("SOCIO_ADDR", "127.0.0.1:0".to_owned()),
        ("DATABASE_URL", db.url.clone()),
        ("JWT_SECRET", "test-secret-that-is-long-enough-0123456789".to_owned()),
        ("SOCIO_TESTIMONIALS_FILE", file.display().to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let config = socio::config::Config::from_source(&vars).expect("a configuration");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let err = socio::app::Application::build_on(config, listener).await.err().expect("refused").to_string();
    assert!(err.contains("SOCIO_TESTIMONIALS_FILE") && err.contains("testimonial 1"), "{err}");
    std::fs::remove_file(&file).unwrap();
}
