//! The month's real numbers against the plan: recorded through the contract (REST), by the model's
//! tool on WhatsApp, compared with the plan's forecast, refused clearly when wrong, exported and
//! erased with the person.

use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Row;

use crate::{
    fake_llm::{FakeLlm, text, tool_call},
    helpers::{TestApp, TestDatabase, spawn_app, spawn_app_with},
    on_both_engines,
};

const ANA: &str = "+5511987654321";

/// A bakery's finance step: R$ 8.000 fixed, R$ 25 ticket, 40 % variable, 1.000 sales a month —
/// the plan expects R$ 25.000 of revenue, R$ 18.000 of costs and R$ 7.000 of result a month.
async fn with_plan(app: &TestApp) -> String {
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    let finance = json!({"financeData": {"monthlyFixedCosts": 8000, "averageTicket": 25, "variableCostPercent": 40, "expectedSalesPerMonth": 1000}});
    let (status, body) = app.call(Method::PUT, "/api/business-plan/finance", finance, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    token
}

async fn a_month_is_recorded_and_listed_beside_the_plan_with_its_variance(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = with_plan(&app).await;
    let october = json!({"revenue": 21000, "costs": 15000, "salesCount": 840});
    let (status, body) = app.call(Method::PUT, "/api/results/2026-10", october, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "Resultados do mês salvos");
    let result = &body["data"]["result"];
    assert_eq!((result["month"].as_str(), result["result"].as_f64()), (Some("2026-10"), Some(6000.0)));
    assert_eq!(result["plan"], json!({"revenue": 25000, "costs": 18000, "result": 7000}));
    assert_eq!(result["variance"]["revenue"], -4000.0);
    assert_eq!(result["variance"]["revenuePercent"], -16.0);
    assert_eq!(result["variance"]["resultPercent"], -14.3);

    // A correction replaces the month; another month joins it.
    let fixed = json!({"revenue": 22000, "costs": 15000, "salesCount": 880});
    assert_eq!(app.call(Method::PUT, "/api/results/2026-10", fixed, Some(&token)).await.0, 200);
    let september = json!({"revenue": 12000, "costs": 14000, "salesCount": 480});
    assert_eq!(app.call(Method::PUT, "/api/results/2026-09", september, Some(&token)).await.0, 200);
    let (status, list) = app.call(Method::GET, "/api/results", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{list}");
    let months: Vec<&str> =
        list["data"]["results"].as_array().unwrap().iter().map(|m| m["month"].as_str().unwrap()).collect();
    assert_eq!(months, ["2026-10", "2026-09"], "newest first, one row a month");
    assert_eq!(list["data"]["results"][0]["revenue"], 22000.0);
    let gap = list["data"]["biggestGap"].as_str().unwrap();
    assert!(gap.contains("setembro de 2026") && gap.contains("receita ficou"), "{gap}");
}
on_both_engines!(a_month_is_recorded_and_listed_beside_the_plan_with_its_variance);

async fn a_wrong_month_or_amount_is_a_clear_400_and_changes_nothing(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = with_plan(&app).await;
    let body = json!({"revenue": 1000, "costs": 500, "salesCount": 10});
    for (month, words) in [("2099-01", "futuro"), ("outubro", "AAAA-MM"), ("2026-13", "AAAA-MM")] {
        let (status, answer) =
            app.call(Method::PUT, &format!("/api/results/{month}"), body.clone(), Some(&token)).await;
        assert_eq!(status, 400, "{month}: {answer}");
        assert!(answer["message"].as_str().unwrap().contains(words), "{month}: {answer}");
        assert_eq!(answer["errors"][0]["field"], "month", "{answer}");
    }
    let negative = json!({"revenue": -5, "costs": 500, "salesCount": 10});
    let (status, answer) = app.call(Method::PUT, "/api/results/2026-10", negative, Some(&token)).await;
    assert_eq!((status, answer["errors"][0]["field"].as_str()), (400, Some("revenue")), "{answer}");
    assert_eq!(app.count("select count(*) as n from month_results").await, 0);
    let (status, _) = app.call(Method::GET, "/api/results", Value::Null, None).await;
    assert_eq!(status, 401, "a person's results need their login");
}
on_both_engines!(a_wrong_month_or_amount_is_a_clear_400_and_changes_nothing);

async fn the_same_month_recorded_at_once_from_two_places_is_one_row(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = with_plan(&app).await;
    let puts = (0..10).map(|i| {
        let body = json!({"revenue": 1000 + i, "costs": 500, "salesCount": 10});
        app.call(Method::PUT, "/api/results/2026-10", body, Some(&token))
    });
    let statuses: Vec<u16> = futures::future::join_all(puts).await.into_iter().map(|(s, _)| s).collect();
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    assert_eq!(app.count("select count(*) as n from month_results").await, 1);
}
on_both_engines!(the_same_month_recorded_at_once_from_two_places_is_one_row);

async fn the_model_records_a_month_told_in_words_and_compares_it_with_the_plan(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([
        (
            200,
            tool_call(
                "record_month_results",
                json!({"month": "2026-10", "revenue": 21000, "costs": 15000, "salesCount": 840}),
            ),
        ),
        // Only figures the tool returned: without a plan's finance step there is no "abaixo do
        // plano" to say (a reply that said one would be refused as a figure from nowhere).
        (
            200,
            text("Outubro fechou com R$ 6.000 de resultado: R$ 21.000 de faturamento e R$ 15.000 de custos."),
        ),
    ]);
    let mut config = llm.config(5);
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "10".into()));
    let app = spawn_app_with(db, &config).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let reply = app.say(ANA, "Fechei outubro com 21 mil e gastei 15").await;
    assert!(reply.contains("R$ 6.000 de resultado"), "{reply}");
    let row = sqlx::query("select revenue_cents, costs_cents, sales_count, source from month_results")
        .fetch_one(app.db.pool())
        .await
        .unwrap();
    assert_eq!(row.get::<i64, _>("revenue_cents"), 2_100_000);
    assert_eq!(row.get::<String, _>("source"), "whatsapp");
    let tool_answer = llm.requests()[1]["messages"].as_array().unwrap().last().unwrap()["content"].clone();
    assert!(tool_answer.as_str().unwrap().starts_with("saved:"), "{tool_answer}");
}
on_both_engines!(the_model_records_a_month_told_in_words_and_compares_it_with_the_plan);

async fn results_are_exported_and_erased_with_the_person(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = with_plan(&app).await;
    let body = json!({"revenue": 21000, "costs": 15000, "salesCount": 840});
    assert_eq!(app.call(Method::PUT, "/api/results/2026-10", body, Some(&token)).await.0, 200);
    let user: String = sqlx::query("select user_id from month_results")
        .fetch_one(app.db.pool())
        .await
        .unwrap()
        .get("user_id");
    assert!(socio::erasure::Erasure::new(app.db.clone()).erase(&user).await.unwrap());
    assert_eq!(app.count("select count(*) as n from month_results").await, 0);
}
on_both_engines!(results_are_exported_and_erased_with_the_person);

async fn reminders_are_off_until_the_person_agrees_and_their_choices_are_checked(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = with_plan(&app).await;
    let (status, body) = app.call(Method::GET, "/api/reminders", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    let off = &body["data"]["reminders"];
    assert_eq!((off["monthlyCheckin"].as_bool(), off["taxReminders"].as_bool()), (Some(false), Some(false)));
    assert!(off["consentedAt"].is_null(), "no consent yet: {off}");
    let quiet = json!({"monthlyCheckin": true, "taxReminders": false, "day": 5, "hour": 21});
    let (status, refused) = app.call(Method::PUT, "/api/reminders", quiet, Some(&token)).await;
    assert_eq!(
        (status, refused["errors"][0]["field"].as_str()),
        (400, Some("hour")),
        "never after 20:00: {refused}"
    );
    let agreed = json!({"monthlyCheckin": true, "taxReminders": true, "day": 5, "hour": 9});
    let (status, saved) = app.call(Method::PUT, "/api/reminders", agreed, Some(&token)).await;
    assert_eq!(status, 200, "{saved}");
    let on = &saved["data"]["reminders"];
    assert_eq!(
        (on["monthlyCheckin"].as_bool(), on["day"].as_i64(), on["stopped"].as_bool()),
        (Some(true), Some(5), Some(false))
    );
    assert!(on["consentedAt"].as_str().is_some(), "consent kept with its time: {on}");
}
on_both_engines!(reminders_are_off_until_the_person_agrees_and_their_choices_are_checked);

async fn parar_stops_every_proactive_message_at_once_and_voltar_resumes(db: TestDatabase) {
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "10".into())]).await;
    let token = with_plan(&app).await;
    let agreed = json!({"monthlyCheckin": true, "taxReminders": true});
    assert_eq!(app.call(Method::PUT, "/api/reminders", agreed, Some(&token)).await.0, 200);
    let stopped = app.say(ANA, "PARAR").await;
    assert!(stopped.starts_with("Pronto: não envio mais nenhuma mensagem"), "{stopped}");
    let (_, body) = app.call(Method::GET, "/api/reminders", Value::Null, Some(&token)).await;
    assert_eq!(body["data"]["reminders"]["stopped"], true, "{body}");
    assert_eq!(body["data"]["reminders"]["monthlyCheckin"], true, "what they chose is kept for VOLTAR");
    let resumed = app.say(ANA, "VOLTAR").await;
    assert!(resumed.starts_with("Combinado: os lembretes"), "{resumed}");
    let (_, body) = app.call(Method::GET, "/api/reminders", Value::Null, Some(&token)).await;
    assert_eq!(body["data"]["reminders"]["stopped"], false, "{body}");
    let stop_in_english = app.say(ANA, "stop").await;
    assert!(stop_in_english.contains("PARAR") || stop_in_english.contains("VOLTAR"), "{stop_in_english}");
}
on_both_engines!(parar_stops_every_proactive_message_at_once_and_voltar_resumes);

async fn the_dashboard_and_the_admin_see_the_recorded_months_beside_the_plan(db: TestDatabase) {
    let admin = "+5531999990000";
    let app = spawn_app_with(db, &[("ADMIN_PHONES", admin.into())]).await;
    let token = with_plan(&app).await;
    let october = json!({"revenue": 21000, "costs": 15000, "salesCount": 840});
    assert_eq!(app.call(Method::PUT, "/api/results/2026-10", october, Some(&token)).await.0, 200);
    let (status, dashboard) = app.call(Method::GET, "/api/dashboard", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{dashboard}");
    let month = &dashboard["data"]["results"][0];
    assert_eq!(
        (month["month"].as_str(), month["result"].as_f64()),
        (Some("2026-10"), Some(6000.0)),
        "{dashboard}"
    );
    assert_eq!(month["variance"]["revenuePercent"], -16.0, "{dashboard}");

    let user_id: String = sqlx::query_scalar("select id from users where phone_number = $1")
        .bind(ANA)
        .fetch_one(app.db.pool())
        .await
        .unwrap();
    let (admin_token, _) = app.login(admin).await;
    let (status, detail) =
        app.call(Method::GET, &format!("/api/admin/users/{user_id}"), Value::Null, Some(&admin_token)).await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!(detail["data"]["results"][0]["month"], "2026-10", "{detail}");
    assert_eq!(detail["data"]["results"][0]["plan"]["result"], 7000.0, "{detail}");
}
on_both_engines!(the_dashboard_and_the_admin_see_the_recorded_months_beside_the_plan);

async fn a_word_in_a_number_field_is_a_400_naming_the_field_in_the_person_s_language(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = with_plan(&app).await;
    let body = json!({"revenue": "muitas", "costs": 500, "salesCount": 10});
    let (status, answer) = app.call(Method::PUT, "/api/results/2026-10", body, Some(&token)).await;
    assert_eq!((status, answer["errors"][0]["field"].as_str()), (400, Some("revenue")), "{answer}");
    let message = answer["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("um número") && !message.contains("invalid"), "{answer}");
    let flag = json!({"monthlyCheckin": "sim", "taxReminders": false});
    let (status, answer) = app.call(Method::PUT, "/api/reminders", flag, Some(&token)).await;
    assert_eq!((status, answer["errors"][0]["field"].as_str()), (400, Some("monthlyCheckin")), "{answer}");
    assert_eq!(app.count("select count(*) as n from month_results").await, 0, "nothing saved");
}
on_both_engines!(a_word_in_a_number_field_is_a_400_naming_the_field_in_the_person_s_language);
