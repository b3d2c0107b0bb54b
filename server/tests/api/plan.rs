//! The business plan and the dashboard through the public protocols: sections with validation,
//! progress and status, the sync calls and their change feed, the live stream, and activity
//! figures counted from real messages. The complete document is `plan_pdf.rs`'s.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use socio::proto::socio::v1::{
    GetBusinessPlanRequest, WatchBusinessPlanRequest, business_plan_service_client::BusinessPlanServiceClient,
};
use tokio_stream::StreamExt;

use crate::{
    auth::ANA,
    helpers::{TestApp, TestDatabase, spawn_app},
    on_both_engines,
};

pub async fn logged_in(db: TestDatabase) -> (TestApp, String) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    (app, token)
}

pub async fn get(app: &TestApp, path: &str, token: &str) -> (u16, Value) {
    app.call(Method::GET, path, Value::Null, Some(token)).await
}

fn authorized<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

async fn a_section_saved_from_the_builder_is_read_back_with_progress_and_status(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let (status, body) = get(&app, "/api/business-plan", &token).await;
    assert_eq!(status, 200);
    let plan = &body["data"]["businessPlan"];
    assert_eq!((plan["status"].clone(), plan["progress"].clone()), (json!("draft"), json!(0)));
    assert_eq!(plan["steps"].as_array().unwrap().len(), 6);
    assert_eq!(
        plan["steps"][0],
        json!({"id": "idea", "completed": false, "icon": "Target", "updatedAt": plan["steps"][0]["updatedAt"]})
    );

    let idea = json!({"ideaData": {"businessIdea": "Padaria artesanal em Campinas", "stage": "planning"}, "completed": true});
    let (status, body) = app.call(Method::PUT, "/api/business-plan/idea", idea, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    let plan = &body["data"]["businessPlan"];
    assert_eq!(plan["ideaData"]["businessIdea"], "Padaria artesanal em Campinas");
    assert_eq!(plan["ideaData"]["stage"], "planning");
    assert_eq!((plan["status"].clone(), plan["progress"].clone()), (json!("in_progress"), json!(17)));

    for (path, body) in [
        ("/api/business-plan/market", json!({"marketData": {"industry": "Alimentação"}})),
        ("/api/business-plan/finance", json!({"financeData": {"startupCosts": 50000}})),
        ("/api/business-plan/marketing", json!({"marketingData": {"channels": ["Instagram", "iFood"]}})),
        ("/api/business-plan/hr", json!({"hrData": {"teamSize": 3}})),
        ("/api/business-plan/legal", json!({"legalData": {"businessType": "MEI"}})),
    ] {
        let (status, reply) = app.call(Method::PUT, path, body, Some(&token)).await;
        assert_eq!(status, 200, "{path}: {reply}");
    }
    let (_, body) = get(&app, "/api/business-plan", &token).await;
    let plan = &body["data"]["businessPlan"];
    assert_eq!(plan["financeData"]["startupCosts"], 50000);
    assert_eq!(plan["legalData"]["businessType"], "mei");
    assert_eq!(plan["marketingData"]["channels"], json!(["Instagram", "iFood"]));

    let (_, progress) = get(&app, "/api/business-plan/progress", &token).await;
    assert_eq!(
        (progress["data"]["progress"].clone(), progress["data"]["status"].clone()),
        (json!(17), json!("in_progress"))
    );

    let mut grpc = BusinessPlanServiceClient::new(app.grpc_channel().await);
    let plan =
        grpc.get_business_plan(authorized(GetBusinessPlanRequest {}, &token)).await.unwrap().into_inner();
    assert_eq!(plan.business_plan.unwrap().idea_data.unwrap().business_idea, "Padaria artesanal em Campinas");
}
on_both_engines!(a_section_saved_from_the_builder_is_read_back_with_progress_and_status);

async fn invalid_section_data_is_refused_with_its_field_and_changes_nothing(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let bad = json!({"financeData": {"startupCosts": -5, "averageTicket": 20}});
    let (status, body) = app.call(Method::PUT, "/api/business-plan/finance", bad, Some(&token)).await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["field"], "financeData.startupCosts");
    let (status, body) = app
        .call(
            Method::PUT,
            "/api/business-plan/legal",
            json!({"legalData": {"businessType": "corp"}}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["field"], "legalData.businessType");
    let (_, body) = get(&app, "/api/business-plan", &token).await;
    assert!(body["data"]["businessPlan"]["financeData"]["averageTicket"].is_null());
    let (_, updates) = get(&app, "/api/webhook/business-plan/updates", &token).await;
    assert_eq!(updates["data"]["updates"], json!([]));
}
on_both_engines!(invalid_section_data_is_refused_with_its_field_and_changes_nothing);

async fn toggling_every_step_from_the_dashboard_completes_the_plan(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    for step in ["idea", "market", "finance", "marketing", "hr", "legal"] {
        let (status, body) = app
            .call(
                Method::PUT,
                "/api/dashboard/business-plan",
                json!({"stepId": step, "completed": true}),
                Some(&token),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["message"], "Etapa do plano de negócios atualizada com sucesso");
    }
    let (_, body) = get(&app, "/api/dashboard/business-plan", &token).await;
    assert_eq!(body["data"]["businessPlan"]["overallProgress"], 100);
    assert_eq!(body["data"]["businessPlan"]["status"], "completed");
    app.call(
        Method::PUT,
        "/api/dashboard/business-plan",
        json!({"stepId": "hr", "completed": false}),
        Some(&token),
    )
    .await;
    let (_, body) = get(&app, "/api/business-plan/progress", &token).await;
    assert_eq!(
        (body["data"]["progress"].clone(), body["data"]["status"].clone()),
        (json!(83), json!("in_progress"))
    );
    let (status, _) = app
        .call(
            Method::PUT,
            "/api/dashboard/business-plan",
            json!({"stepId": "taxes", "completed": true}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 400);
}
on_both_engines!(toggling_every_step_from_the_dashboard_completes_the_plan);

async fn the_dashboard_shows_how_far_the_swot_and_the_finance_scenarios_are(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let analyses = |body: &Value| body["data"]["businessPlan"]["analyses"].clone();
    let (_, body) = get(&app, "/api/dashboard/business-plan", &token).await;
    assert_eq!(analyses(&body), json!({"swotQuadrantsFilled": 0, "scenariosReady": false}));

    let swot = json!({"marketData": {"strengths": "Pão de fermentação natural", "threats": "Uma rede grande",
        "weaknesses": "   "}});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/market", swot, Some(&token)).await.0, 200);
    let half = json!({"financeData": {"averageTicket": 25}});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/finance", half, Some(&token)).await.0, 200);
    let (_, body) = get(&app, "/api/dashboard", &token).await;
    assert_eq!(
        analyses(&body),
        json!({"swotQuadrantsFilled": 2, "scenariosReady": false}),
        "blank is not written"
    );

    let figures = json!({"financeData": {"averageTicket": 25, "expectedSalesPerMonth": 800}});
    app.call(Method::PUT, "/api/business-plan/finance", figures, Some(&token)).await;
    let (_, body) = get(&app, "/api/dashboard/business-plan", &token).await;
    assert_eq!(analyses(&body), json!({"swotQuadrantsFilled": 2, "scenariosReady": true}));
}
on_both_engines!(the_dashboard_shows_how_far_the_swot_and_the_finance_scenarios_are);

async fn a_batch_with_one_bad_update_applies_none(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let batch = json!({"updates": [
        {"step": "idea", "data": {"businessIdea": "Food truck"}, "completed": true},
        {"step": "finance", "data": {"averageTicket": -1}},
    ]});
    let (status, body) =
        app.call(Method::POST, "/api/webhook/business-plan/batch-updates", batch, Some(&token)).await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["field"], "updates[1].data.averageTicket");
    let (_, body) = get(&app, "/api/business-plan", &token).await;
    assert_eq!(body["data"]["businessPlan"]["ideaData"]["businessIdea"], "", "nothing applied");
    assert_eq!(body["data"]["businessPlan"]["progress"], 0);

    let good = json!({"updates": [
        {"step": "idea", "data": {"businessIdea": "Food truck"}, "completed": true},
        {"step": "finance", "data": {"averageTicket": 30}, "source": "whatsapp"},
    ]});
    let (status, body) =
        app.call(Method::POST, "/api/webhook/business-plan/batch-updates", good, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["changes"].as_array().unwrap().len(), 2);
    assert_eq!(body["data"]["businessPlan"]["financeData"]["averageTicket"], 30);
}
on_both_engines!(a_batch_with_one_bad_update_applies_none);

async fn the_change_feed_pages_by_cursor_and_records_who_and_where(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    // A body may name only the screen it came from; "admin" is the server's to write.
    for (n, source) in ["dashboard", "builder", "admin"].iter().enumerate() {
        let update = json!({"step": "market", "data": {"location": format!("Cidade {n}")}, "source": source});
        let (status, body) =
            app.call(Method::POST, "/api/webhook/business-plan/update", update, Some(&token)).await;
        assert_eq!(status, 200, "{body}");
    }
    let (_, first) = get(&app, "/api/webhook/business-plan/updates?since=0&limit=2", &token).await;
    let updates = first["data"]["updates"].as_array().unwrap();
    assert_eq!(updates.len(), 2);
    assert_eq!(first["data"]["hasMore"], true);
    assert_eq!(updates[0]["source"], "dashboard");
    assert_eq!(updates[1]["source"], "builder");
    assert_eq!(updates[0]["data"], json!({"location": "Cidade 0"}), "only what changed");
    assert!(!updates[0]["actorId"].as_str().unwrap().is_empty());
    let cursor = first["data"]["cursor"].as_str().unwrap();
    let (_, rest) =
        get(&app, &format!("/api/webhook/business-plan/updates?since={cursor}&limit=2"), &token).await;
    assert_eq!(rest["data"]["updates"].as_array().unwrap().len(), 1);
    assert_eq!(rest["data"]["updates"][0]["source"], "dashboard", "not admin: {rest}");
    assert_eq!(rest["data"]["hasMore"], false);
    let (_, progress) = get(&app, "/api/webhook/business-plan/progress", &token).await;
    assert_eq!(progress["data"]["cursor"], rest["data"]["cursor"]);
    let (_, plan) = get(&app, "/api/business-plan", &token).await;
    assert_eq!(plan["data"]["businessPlan"]["marketData"]["location"], "Cidade 2");
    let (status, _) = get(&app, "/api/webhook/business-plan/updates?since=abc", &token).await;
    assert_eq!(status, 400);
}
on_both_engines!(the_change_feed_pages_by_cursor_and_records_who_and_where);

async fn an_open_watch_receives_a_change_made_through_another_call(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let mut grpc = BusinessPlanServiceClient::new(app.grpc_channel().await);
    let mut stream = grpc
        .watch_business_plan(authorized(WatchBusinessPlanRequest { since: String::new() }, &token))
        .await
        .unwrap()
        .into_inner();
    // The call has returned its headers, which the server sends once it has subscribed.
    let update = json!({"stepId": "finance", "completed": true, "data": {"averageTicket": 42}});
    app.call(Method::PUT, "/api/dashboard/business-plan", update, Some(&token)).await;
    let event = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("a change in time")
        .unwrap()
        .unwrap();
    assert_eq!(event.progress, 17);
    let change = event.change.unwrap();
    assert_eq!(change.completed, Some(true));
    assert_eq!(socio::proto::json::struct_to_json(&change.data.unwrap()), json!({"averageTicket": 42}));

    let other = spawn_user(&app, "+5521998765432").await;
    app.call(
        Method::PUT,
        "/api/dashboard/business-plan",
        json!({"stepId": "idea", "completed": true}),
        Some(&other),
    )
    .await;
    assert!(
        tokio::time::timeout(Duration::from_millis(300), stream.next()).await.is_err(),
        "another user's change never reaches this stream"
    );
}
on_both_engines!(an_open_watch_receives_a_change_made_through_another_call);

async fn spawn_user(app: &TestApp, phone: &str) -> String {
    app.register(phone).await;
    app.login(phone).await.0
}

async fn a_user_only_ever_sees_their_own_plan(db: TestDatabase) {
    let (app, ana) = logged_in(db).await;
    app.call(
        Method::PUT,
        "/api/business-plan/idea",
        json!({"ideaData": {"businessIdea": "Segredo da Ana"}}),
        Some(&ana),
    )
    .await;
    let bruno = spawn_user(&app, "+5521998765432").await;
    let (_, body) = get(&app, "/api/business-plan", &bruno).await;
    assert_eq!(body["data"]["businessPlan"]["ideaData"]["businessIdea"], "");
    let (status, _) = app.call(Method::GET, "/api/business-plan", Value::Null, None).await;
    assert_eq!(status, 401);
}
on_both_engines!(a_user_only_ever_sees_their_own_plan);

async fn a_plan_with_nothing_invested_has_nothing_to_recover_not_zero_months(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let finance = json!({"financeData": {"monthlyFixedCosts": 8000, "averageTicket": 25, "variableCostPerSale": 10,
        "expectedSalesPerMonth": 1000}, "completed": true});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/finance", finance, Some(&token)).await.0, 200);
    let (status, body) = app.call(Method::POST, "/api/business-plan/generate", json!({}), Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    let analysis = &body["data"]["businessPlan"]["financeAnalysis"];
    assert_eq!(analysis["monthlyResult"], json!(7000));
    assert!(analysis.get("paybackMonths").is_none_or(Value::is_null), "{analysis}");
    let markdown = body["data"]["document"]["markdown"].as_str().unwrap();
    assert!(
        markdown.contains("| Prazo de retorno do investimento | sem investimento a recuperar |"),
        "{markdown}"
    );
    assert!(!markdown.contains("0,0 meses") && !markdown.contains("não alcançado"), "{markdown}");
}
on_both_engines!(a_plan_with_nothing_invested_has_nothing_to_recover_not_zero_months);

async fn deleting_the_plan_removes_it_all(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    app.call(
        Method::PUT,
        "/api/business-plan/idea",
        json!({"ideaData": {"businessIdea": "X"}, "completed": true}),
        Some(&token),
    )
    .await;
    app.call(Method::POST, "/api/business-plan/generate", json!({}), Some(&token)).await;
    let (status, body) = app.call(Method::DELETE, "/api/business-plan", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    for table in ["business_plans", "plan_sections", "plan_changes", "plan_documents"] {
        let sql: &'static str = Box::leak(format!("select count(*) as n from {table}").into_boxed_str());
        assert_eq!(app.count(sql).await, 0, "{table}");
    }
    let (_, body) = get(&app, "/api/business-plan", &token).await;
    assert_eq!(body["data"]["businessPlan"]["status"], "draft", "a fresh plan");
}
on_both_engines!(deleting_the_plan_removes_it_all);

async fn auto_save_keeps_a_draft_without_touching_the_sections(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let (status, body) = app
        .call(
            Method::POST,
            "/api/webhook/business-plan/auto-save",
            json!({"data": {"businessIdea": "rascunho"}}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["data"]["savedAt"].as_str().unwrap().ends_with('Z'));
    assert_eq!(app.count("select count(*) as n from plan_drafts where context = 'general'").await, 1);
    let (_, plan) = get(&app, "/api/business-plan", &token).await;
    assert_eq!(plan["data"]["businessPlan"]["ideaData"]["businessIdea"], "");
}
on_both_engines!(auto_save_keeps_a_draft_without_touching_the_sections);

async fn the_dashboard_counts_real_messages(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let user_id = app.user_column(ANA, "id").await;
    use socio::conversation::messages::{Author, Messages};
    let day = 86_400_000;
    let messages = Messages::new(app.db.clone());
    // Each message stored when the clock reads its moment, the clock back to now after each.
    for (n, (ago, author)) in
        [(0, Author::User), (1000, Author::Assistant), (8 * day, Author::User), (40 * day, Author::Assistant)]
            .into_iter()
            .enumerate()
    {
        app.db.clock().advance(-ago);
        messages.insert_web(&user_id, author, &format!("mensagem {n}"), app.db.now_ms()).await.unwrap();
        app.db.clock().advance(ago);
    }
    let (status, body) = get(&app, "/api/dashboard", &token).await;
    assert_eq!(status, 200);
    let data = &body["data"];
    assert_eq!(data["user"]["phoneNumber"], ANA);
    assert_eq!(
        data["stats"],
        json!({"messagesThisWeek": 2, "daysActive": 2, "planCompletion": 0, "totalMessages": 4})
    );
    let recent = data["recentMessages"].as_array().unwrap();
    assert_eq!(
        (recent[0]["type"].clone(), recent[0]["preview"].clone()),
        (json!("user"), json!("mensagem 0"))
    );
    assert_eq!(recent[1]["type"], "ai");
    assert_eq!(data["businessPlan"]["steps"].as_array().unwrap().len(), 6);

    let (_, page) = get(&app, "/api/dashboard/messages?page=2&limit=3", &token).await;
    assert_eq!(page["data"]["messages"].as_array().unwrap().len(), 1);
    assert_eq!((page["data"]["total"].clone(), page["data"]["totalPages"].clone()), (json!(4), json!(2)));
    let (status, _) = get(&app, "/api/dashboard/messages?limit=500", &token).await;
    assert_eq!(status, 400);
    let (_, stats) = get(&app, "/api/dashboard/stats", &token).await;
    assert_eq!(stats["data"]["stats"]["messagesThisWeek"], 2);
}
on_both_engines!(the_dashboard_counts_real_messages);

/// Issue 62: looking is not making — a new person's progress, sync and dashboard show six empty
/// steps, and no plan is stored (nor counted on the landing page) until they write one.
async fn reading_a_plan_never_creates_one(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register("+5511987654321").await;
    let (token, _) = app.login("+5511987654321").await;
    for path in ["/api/business-plan/progress", "/api/dashboard"] {
        let (status, body) = app.call(Method::GET, path, Value::Null, Some(&token)).await;
        assert_eq!(status, 200, "{path}: {body}");
    }
    let (_, progress) = app.call(Method::GET, "/api/business-plan/progress", Value::Null, Some(&token)).await;
    assert_eq!(progress["data"]["progress"], 0, "{progress}");
    assert_eq!(progress["data"]["steps"].as_array().map(Vec::len), Some(6), "{progress}");
    assert_eq!(app.count("select count(*) as n from business_plans").await, 0, "nothing stored");
    let idea = json!({"ideaData": {"businessIdea": "Padaria de fermentação natural"}});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/idea", idea, Some(&token)).await.0, 200);
    assert_eq!(app.count("select count(*) as n from business_plans").await, 1, "a write makes it");
}
on_both_engines!(reading_a_plan_never_creates_one);
