//! The consultant computes and knows through the server: the model's numbers come from
//! `analyze_finance` (the plan's maths on saved or hypothetical figures) and its tax and legal
//! facts from `lookup_business_facts` (one dated, sourced data file). The fake model quotes its
//! tools' results as a model that follows the prompt does, so what reaches WhatsApp shows where
//! each figure came from.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    fake_llm::{FakeLlm, tool_call},
    helpers::{TestApp, TestDatabase, spawn_app_with},
    on_both_engines,
};

const ANA: &str = "+5511987654321";

async fn app_with_model(db: TestDatabase, llm: &FakeLlm) -> TestApp {
    let mut config = llm.config(5);
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "10".into()));
    spawn_app_with(db, &config).await
}

/// The tool results the model was given, parsed.
fn tool_results(llm: &FakeLlm) -> Vec<Value> {
    llm.requests()
        .iter()
        .flat_map(|r| r["messages"].as_array().cloned().unwrap_or_default())
        .filter(|m| m["role"] == "tool")
        .map(|m| serde_json::from_str(m["content"].as_str().unwrap()).unwrap())
        .collect()
}

async fn an_answer_about_selling_more_quotes_the_servers_numbers(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([(200, tool_call("analyze_finance", json!({"salesChangePercent": 20})))]);
    llm.quote_tool_results(|r| {
        format!(
            "Vendendo 20% a mais, o resultado do mês vai a R$ {} e o ponto de equilíbrio continua em {} vendas.",
            r["month"]["result"].as_f64().unwrap(),
            r["breakEvenSalesPerMonth"].as_f64().unwrap()
        )
    });
    let app = app_with_model(db, &llm).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let finance = json!({"financeData": {"startupCosts": 50000, "workingCapital": 10000, "monthlyFixedCosts": 8000,
        "averageTicket": 25, "variableCostPerSale": 10, "expectedSalesPerMonth": 1000}});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/finance", finance, Some(&token)).await.0, 200);

    let reply = app.say(ANA, "E se eu vender 20% a mais?").await;
    // 1,200 sales × R$ 15 margin − R$ 8,000 fixed: the server's sum, not the model's.
    assert!(reply.contains("R$ 10000 e o ponto de equilíbrio continua em 534 vendas"), "{reply}");
    let result = &tool_results(&llm)[0];
    assert_eq!(result["figures"], "the plan's figures with the hypothetical ones given");
    let scenarios: Vec<&str> =
        result["scenarios"].as_array().unwrap().iter().map(|s| s["scenario"].as_str().unwrap()).collect();
    assert_eq!(scenarios, ["pessimistic", "realistic", "optimistic"]);
    assert_eq!(result["paybackMonths"], json!(6.0), "R$ 60,000 invested ÷ R$ 10,000 a month");
}
on_both_engines!(an_answer_about_selling_more_quotes_the_servers_numbers);

async fn without_figures_the_tool_names_what_is_missing_and_nothing_is_invented(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([(200, tool_call("analyze_finance", json!({})))]);
    llm.quote_tool_results(|r| format!("Para calcular, preciso de: {}.", r["missing"]));
    let app = app_with_model(db, &llm).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let reply = app.say(ANA, "Qual é o meu ponto de equilíbrio?").await;
    assert!(reply.contains(r#"["averageTicket","expectedSalesPerMonth"]"#), "{reply}");
}
on_both_engines!(without_figures_the_tool_names_what_is_missing_and_nothing_is_invented);

async fn a_tax_figure_reaches_the_person_with_its_date_and_source(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([(200, tool_call("lookup_business_facts", json!({"topic": "mei"})))]);
    llm.quote_tool_results(|r| {
        let das = r["facts"].as_array().unwrap().iter().find(|f| f["id"] == "mei.das").unwrap();
        format!(
            "{} (valores de {}; fonte: {})",
            das["fact"].as_str().unwrap(),
            das["asOf"].as_str().unwrap(),
            das["source"].as_str().unwrap()
        )
    });
    let app = app_with_model(db, &llm).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let reply = app.say(ANA, "Quanto o MEI paga por mês?").await;
    assert!(reply.contains("R$ 82,05") && reply.contains("valores de 2026-01-05"), "{reply}");
    assert!(reply.contains("Decreto 12.797/2025"), "{reply}");
    let tools: Vec<String> = llm.requests()[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        tools.contains(&"analyze_finance".to_owned()) && tools.contains(&"lookup_business_facts".to_owned())
    );
    let prompt = llm.requests()[0]["messages"][0]["content"].as_str().unwrap().to_owned();
    assert!(
        prompt.contains("analyze_finance") && prompt.contains("lookup_business_facts"),
        "the prompt sends the model to its tools"
    );
}
on_both_engines!(a_tax_figure_reaches_the_person_with_its_date_and_source);

/// The default prompt's words as stored.
async fn default_prompt(app: &TestApp) -> String {
    sqlx::query_scalar("select content from system_prompts where name = 'default'")
        .fetch_one(app.db.pool())
        .await
        .unwrap()
}

async fn a_seeded_prompt_no_admin_edited_follows_the_code_and_an_edited_one_stays(db: TestDatabase) {
    let app = spawn_app_with(db, &[]).await;
    sqlx::query(
        "update system_prompts set content = 'the default of an earlier release' where name = 'default'",
    )
    .execute(app.db.pool())
    .await
    .unwrap();
    let app = spawn_app_with(app.stop().await, &[]).await;
    assert_eq!(
        default_prompt(&app).await,
        socio::prompts::DEFAULT_PROMPT,
        "the untouched seed now tells the model about its tools"
    );

    sqlx::query("update system_prompts set content = 'Minhas palavras', version = 2 where name = 'default'")
        .execute(app.db.pool())
        .await
        .unwrap();
    let app = spawn_app_with(app.stop().await, &[]).await;
    assert_eq!(default_prompt(&app).await, "Minhas palavras", "an admin's edit is theirs");
}
on_both_engines!(a_seeded_prompt_no_admin_edited_follows_the_code_and_an_edited_one_stays);

async fn a_price_the_model_gives_is_the_server_s_markup_divisor(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    let cake = json!({"unitCost": 30, "cardFeePercent": 4, "targetMarginPercent": 25});
    llm.answer_with([(200, tool_call("price_product", cake))]);
    llm.quote_tool_results(|r| format!("Cobre R$ {} (divisor {}).", r["price"], r["divisor"]));
    let app = app_with_model(db, &llm).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let reply =
        app.say(ANA, "Quanto devo cobrar por um bolo de R$ 30 de custo, 4% de cartão, 25% de margem?").await;
    // 30 ÷ (1 − 0,04 − 0,25) = 42,25: the server's sum, without taxes or fixed costs (no plan yet).
    assert!(reply.contains("Cobre R$ 42.25"), "{reply}");
    let result = &tool_results(&llm)[0];
    assert!(result["warnings"][0].as_str().unwrap().contains("não inclui impostos"), "{result}");
    assert_eq!(result["parts"].as_array().unwrap().len(), 3, "{result}");
}
on_both_engines!(a_price_the_model_gives_is_the_server_s_markup_divisor);

/// The model asked "IBS e CBS dentro ou fora do DAS?" for a Simples salon (R$ 30.000 a month,
/// Annex III): its tool answers the server's R$ 2.580,00 inside and R$ 4.266,17 outside (the
/// reform-choice unit test's figures), never a number of the model's own.
async fn the_model_s_ibs_cbs_choice_comes_from_the_server_s_comparison_of_the_user_s_plan(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([(
        200,
        tool_call("compare_reform_choice", json!({"b2bSharePercent": 60, "monthlyPurchases": 5000})),
    )]);
    llm.quote_tool_results(|r| format!("Dentro: R$ {}; fora: R$ {}.", r["insideDas"], r["outsideDas"]));
    let app = app_with_model(db, &llm).await;
    app.db.clock().set("2027-01-05T10:00:00-03:00".parse::<jiff::Timestamp>().unwrap().as_millisecond());
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let legal =
        json!({"legalData": {"businessType": "ltda", "taxRegime": "simples_nacional", "cnae": "9602501"}});
    let finance = json!({"financeData": {"averageTicket": 100, "expectedSalesPerMonth": 300}});
    for (step, body) in [("legal", legal), ("finance", finance)] {
        let (status, answer) =
            app.call(reqwest::Method::PUT, &format!("/api/business-plan/{step}"), body, Some(&token)).await;
        assert_eq!(status, 200, "{answer}");
    }
    let reply = app.say(ANA, "Devo pagar IBS e CBS por fora do DAS ou dentro?").await;
    assert!(reply.contains("Dentro: R$ 2580") && reply.contains("fora: R$ 4266.17"), "{reply}");
    let result = &tool_results(&llm)[0];
    assert_eq!(result["nextWindowEnds"], "2027-04-30", "{result}");
}
on_both_engines!(the_model_s_ibs_cbs_choice_comes_from_the_server_s_comparison_of_the_user_s_plan);

/// A MEI whose recorded 2026 passed the ceiling in November (10 × R$ 7.500 + R$ 15.000 = R$ 90.000
/// against R$ 81.000, within the 20 % tolerance) asks the model on 10 December: its finance tool
/// carries the dashboard card's words — report leaving the MEI by the last business day of the
/// month after the excess, Thursday 31/12/2026 (LC 123/2006 art. 18-A §7º III; Res. CGSN 140/2018
/// art. 115) — so the model says what to do and by when, not only the break-even.
async fn a_mei_past_the_ceiling_hears_from_the_model_what_to_do_and_by_when(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([(200, tool_call("analyze_finance", json!({})))]);
    llm.quote_tool_results(|r| {
        format!(
            "{} Ponto de equilíbrio: {} vendas.",
            r["meiCeilingPassed"]["whatToDo"], r["breakEvenSalesPerMonth"]
        )
    });
    let app = app_with_model(db, &llm).await;
    app.db.clock().set("2026-12-10T10:00:00-03:00".parse::<jiff::Timestamp>().unwrap().as_millisecond());
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let legal = json!({"legalData": {"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}});
    let finance = json!({"financeData": {"monthlyFixedCosts": 2000, "averageTicket": 150, "variableCostPerSale": 60, "expectedSalesPerMonth": 50}});
    for (step, body) in [("legal", legal), ("finance", finance)] {
        let (status, answer) =
            app.call(Method::PUT, &format!("/api/business-plan/{step}"), body, Some(&token)).await;
        assert_eq!(status, 200, "{answer}");
    }
    for month in 1..=11 {
        let revenue = if month == 11 { 15_000.0 } else { 7_500.0 };
        let body = json!({"revenue": revenue, "costs": revenue / 2.0, "salesCount": 50});
        let (status, answer) =
            app.call(Method::PUT, &format!("/api/results/2026-{month:02}"), body, Some(&token)).await;
        assert_eq!(status, 200, "{answer}");
    }
    let reply = app.say(ANA, "Passei do limite do MEI? O que eu faço agora?").await;
    assert!(reply.contains("desenquadramento do MEI") && reply.contains("31/12/2026"), "{reply}");
    let result = &tool_results(&llm)[0];
    assert_eq!(result["meiCeilingPassed"]["reportBy"], "2026-12-31", "{result}");
    assert_eq!(result["recordedMonths"].as_array().map(Vec::len), Some(11), "{result}");
}
on_both_engines!(a_mei_past_the_ceiling_hears_from_the_model_what_to_do_and_by_when);
