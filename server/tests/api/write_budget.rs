//! Each person's budget of writes (issue 42): one free account once wrote 4,271 plan sections and
//! 20,399 months in 12 s, and everyone else's writes slowed. Every write a person makes through
//! the API — a section PUT, the dashboard's step, a month's results, the sync calls — spends one
//! budget, 180 a minute and 2,400 an hour, kept in the database so that it holds across servers
//! and under concurrent requests; beyond it, a localised 429 with `retryAfter`, and nothing changes.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, TestDatabase, spawn_app},
    on_both_engines,
};

/// The app's clock at the start of a minute, so that the budget's window does not turn mid-test.
fn at_a_minute_s_start(app: &TestApp) {
    let now = app.db.now_ms();
    app.db.clock().set(now - now.rem_euclid(60_000) + 60_000);
}

const ANA: &str = "+5511987654321";
const BIA: &str = "+5521912345678";

async fn a_person_s_writes_stop_at_the_budget_with_a_429_and_others_write_on(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    app.register(BIA).await;
    let (ana, _) = app.login(ANA).await;
    let (bia, _) = app.login(BIA).await;
    at_a_minute_s_start(&app);
    let idea = |n: usize| json!({"ideaData": {"businessIdea": format!("Doces da Ana, versão {n}")}});
    // The three kinds of writes share one budget: sections, the dashboard's step, months.
    let mut accepted = 0;
    for n in 0..60 {
        let (status, body) = app.call(Method::PUT, "/api/business-plan/idea", idea(n), Some(&ana)).await;
        assert_eq!(status, 200, "{body}");
        let step = json!({"stepId": "market", "completed": false, "data": {"targetAudience": format!("bairro {n}")}});
        let (status, body) = app.call(Method::PUT, "/api/dashboard/business-plan", step, Some(&ana)).await;
        assert_eq!(status, 200, "{body}");
        let month = json!({"revenue": 1000.0 + n as f64, "costs": 500.0, "salesCount": 10});
        let (status, body) = app.call(Method::PUT, "/api/results/2026-10", month, Some(&ana)).await;
        assert_eq!(status, 200, "{body}");
        accepted += 3;
    }
    assert_eq!(accepted, 180);
    let (status, refused) = app.call(Method::PUT, "/api/business-plan/idea", idea(999), Some(&ana)).await;
    assert_eq!(status, 429, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("Muitas"), "localised: {refused}");
    assert!(refused["retryAfter"].as_u64().is_some_and(|s| (1..=60).contains(&s)), "{refused}");
    let (_, plan) = app.call(Method::GET, "/api/business-plan", Value::Null, Some(&ana)).await;
    assert!(
        !plan.to_string().contains("versão 999"),
        "the refused write changed nothing: {}",
        plan["data"]["businessPlan"]["ideaData"]
    );
    // Reads are free, and Bia's writes are hers alone.
    assert_eq!(app.me(&ana).await.0, 200);
    let (status, body) = app.call(Method::PUT, "/api/business-plan/idea", idea(1), Some(&bia)).await;
    assert_eq!(status, 200, "{body}");
    // Over gRPC too: the same budget, RESOURCE_EXHAUSTED (8).
    assert_eq!(app.grpc_status("/socio.v1.DashboardService/UpdateDashboardStep", Some(&ana)).await, "8");
    // A minute later she writes again.
    app.db.clock().advance(60_000);
    let (status, body) = app.call(Method::PUT, "/api/business-plan/idea", idea(1000), Some(&ana)).await;
    assert_eq!(status, 200, "{body}");
}
on_both_engines!(a_person_s_writes_stop_at_the_budget_with_a_429_and_others_write_on);

async fn concurrent_writes_spend_the_budget_exactly_once_each(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (ana, _) = app.login(ANA).await;
    at_a_minute_s_start(&app);
    let app = &app;
    let writes = (0..240).map(|n| {
        let ana = ana.clone();
        async move {
            let month = json!({"revenue": 1000.0 + n as f64, "costs": 500.0, "salesCount": 10});
            app.call(Method::PUT, &format!("/api/results/2025-{:02}", 1 + n % 12), month, Some(&ana)).await.0
        }
    });
    let statuses = futures::future::join_all(writes).await;
    let ok = statuses.iter().filter(|s| **s == 200).count();
    let limited = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!((ok, limited), (180, 60), "{statuses:?}");
}
on_both_engines!(concurrent_writes_spend_the_budget_exactly_once_each);
