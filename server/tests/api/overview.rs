//! The dashboard's read in one round trip (`conversation::overview`) gives what reading each part
//! alone gives: the plan, the latest messages (a long one cut, so the preview knows there was more),
//! the activity figures and the recorded months, newest first — on both engines.

use reqwest::Method;
use serde_json::json;
use socio::{
    conversation::{messages::Messages, overview::Overviews},
    plan::{Plans, events::PlanEvents, store, tracking::Results},
};

use crate::{
    helpers::{TestDatabase, spawn_app},
    on_both_engines,
};

const ANA: &str = "+5511987654321";

async fn the_overview_read_in_one_statement_is_what_its_parts_read_alone_say(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    let finance = json!({"financeData": {"monthlyFixedCosts": 8000, "averageTicket": 25, "variableCostPercent": 40,
        "expectedSalesPerMonth": 1000}, "completed": true});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/finance", finance, Some(&token)).await.0, 200);
    for (month, revenue) in [("2026-08", 19000), ("2026-10", 21000), ("2026-09", 23000)] {
        let body = json!({"revenue": revenue, "costs": 15000, "salesCount": 800});
        assert_eq!(app.call(Method::PUT, &format!("/api/results/{month}"), body, Some(&token)).await.0, 200);
    }
    let long = "Quero abrir uma padaria de fermentação natural ".repeat(6);
    for text in ["Oi", long.as_str(), "Quanto pago de DAS?"] {
        let body = json!({"from": ANA, "name": "Ana", "text": text}).to_string();
        app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &body).await;
    }
    app.drain_jobs().await;
    let user_id = app.user_column(ANA, "id").await;

    // Both reads at one instant: a plan is read for the moment it is read (`read_at`), and a running
    // clock moved a millisecond between them now and then.
    app.db.clock().pause();
    let now = app.db.now_ms();
    let plans = Plans::new(app.db.clone(), PlanEvents::default());
    let overviews = Overviews::new(plans.clone());
    let read = overviews.in_one_read(&user_id, 5, 140, 12).await.unwrap().expect("the plan exists");
    let mut conn = app.db.pool().acquire().await.unwrap();
    let plan = plans.find_in(&mut conn, &user_id, store::Detail::Sections, now).await.unwrap().unwrap();
    drop(conn);
    assert_eq!(read.plan, plan, "the plan, its sections and its recorded RBT12");
    assert_eq!(read.activity, overviews.stats(&user_id).await.unwrap().1);
    assert!(read.activity.total_messages >= 3, "{:?}", read.activity);
    let (alone, _) = Messages::new(app.db.clone()).page(&user_id, 5, 0).await.unwrap();
    assert_eq!(
        read.recent.iter().map(|m| &m.id).collect::<Vec<_>>(),
        alone.iter().map(|m| &m.id).collect::<Vec<_>>()
    );
    for (cut, whole) in read.recent.iter().zip(&alone) {
        assert_eq!((cut.author, &cut.kind, cut.created_at), (whole.author, &whole.kind, whole.created_at));
        assert_eq!(
            cut.content,
            whole.content.chars().take(141).collect::<String>(),
            "cut after 141 characters"
        );
    }
    assert!(
        read.recent.iter().any(|m| m.content.chars().count() == 141),
        "the long one is cut, and says there was more"
    );
    let months = Results::new(plans).months(&user_id).await.unwrap();
    assert_eq!(read.months, months);
    assert_eq!(
        read.months.iter().map(|m| m.month.key()).collect::<Vec<_>>(),
        ["2026-10", "2026-09", "2026-08"]
    );
}
on_both_engines!(the_overview_read_in_one_statement_is_what_its_parts_read_alone_say);

async fn someone_without_a_plan_has_no_overview_until_they_write_one(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let user_id = app.user_column(ANA, "id").await;
    let overviews = Overviews::new(Plans::new(app.db.clone(), PlanEvents::default()));
    assert!(overviews.in_one_read(&user_id, 5, 140, 12).await.unwrap().is_none());
    let (token, _) = app.login(ANA).await;
    let (status, body) = app.call(Method::GET, "/api/dashboard", serde_json::Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert!(overviews.in_one_read(&user_id, 5, 140, 12).await.unwrap().is_none(), "a read makes no plan");
    let idea = serde_json::json!({"ideaData": {"businessIdea": "Padaria"}});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/idea", idea, Some(&token)).await.0, 200);
    assert!(overviews.in_one_read(&user_id, 5, 140, 12).await.unwrap().is_some());
}
on_both_engines!(someone_without_a_plan_has_no_overview_until_they_write_one);
