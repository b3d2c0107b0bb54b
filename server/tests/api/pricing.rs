//! What to charge, through the contract (`POST /api/business-plan/price`): Sebrae's markup divisor
//! with the caller's own taxes and fixed costs from their plan, the same numbers as the unit tests'
//! hand-worked examples (`plan/pricing/tests.rs`), and impossible mixes refused by field.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, TestDatabase, spawn_app, spawn_app_with},
    on_both_engines,
};

const ANA: &str = "+5511987654321";

async fn price(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    app.call(Method::POST, "/api/business-plan/price", body, Some(token)).await
}

fn cake() -> Value {
    json!({"unitCost": 30, "cardFeePercent": 4, "targetMarginPercent": 25})
}

async fn a_baker_without_a_plan_gets_42_25_and_with_her_mei_plan_60_44_with_its_parts(db: TestDatabase) {
    let app = spawn_app(db).await;
    // 1 June 2026 in São Paulo: the 2026 DAS (commerce R$ 82,05).
    app.db.clock().set(1_780_326_000_000);
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;

    // 30 ÷ (1 − 0,04 − 0,25) = 42,25, without taxes or fixed costs, said so; no plan is created.
    let (status, answer) = price(&app, &token, cake()).await;
    assert_eq!(status, 200, "{answer}");
    let data = &answer["data"];
    assert_eq!((data["price"].as_f64(), data["divisor"].as_f64()), (Some(42.25), Some(0.71)), "{answer}");
    assert!(data["warnings"][0].as_str().unwrap().contains("não inclui impostos"), "{answer}");
    assert_eq!(
        app.count("select count(*) as n from business_plans").await,
        0,
        "reading never creates a plan"
    );

    // A commerce MEI expecting R$ 6.000 a month (R$ 40 × 150) with R$ 1.200 fixed:
    // 30 ÷ (1 − 1,3675 % − 4 % − 20 % − 25 %) = 30 ÷ 0,496325 = 60,44.
    for (step, body) in [
        (
            "finance",
            json!({"financeData": {"averageTicket": 40, "expectedSalesPerMonth": 150, "monthlyFixedCosts": 1200, "variableCostPerSale": 18}}),
        ),
        ("legal", json!({"legalData": {"businessType": "mei", "activity": "commerce"}})),
    ] {
        let (status, body) =
            app.call(Method::PUT, &format!("/api/business-plan/{step}"), body, Some(&token)).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, answer) = price(&app, &token, cake()).await;
    assert_eq!(status, 200, "{answer}");
    let data = &answer["data"];
    assert_eq!(data["price"], 60.44, "{answer}");
    assert_eq!((data["taxPercent"].as_f64(), data["fixedCostPercent"].as_f64()), (Some(1.37), Some(20.0)));
    let parts: Vec<(&str, f64)> = data["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["code"].as_str().unwrap(), p["amount"].as_f64().unwrap()))
        .collect();
    // 60,44 × 1,3675 % = 0,83; × 4 % = 2,42; × 20 % = 12,09; × 25 % = 15,11.
    assert_eq!(
        parts,
        [("cost", 30.0), ("tax", 0.83), ("card_fee", 2.42), ("fixed_costs", 12.09), ("margin", 15.11)]
    );
    assert!(data["explanation"].as_str().unwrap().contains("markup divisor"), "{answer}");

    // The same in English.
    let answer: Value = app
        .http
        .post(format!("{}/api/business-plan/price", app.address))
        .header("accept-language", "en")
        .bearer_auth(&token)
        .json(&cake())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["data"]["price"], 60.44, "{answer}");
    assert!(answer["data"]["explanation"].as_str().unwrap().starts_with("Price = cost"), "{answer}");
}
on_both_engines!(a_baker_without_a_plan_gets_42_25_and_with_her_mei_plan_60_44_with_its_parts);

async fn shares_that_leave_nothing_for_the_cost_or_odd_fields_are_a_400_naming_the_field(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    for (body, field) in [
        (json!({"unitCost": 30, "cardFeePercent": 50, "targetMarginPercent": 60}), "targetMarginPercent"),
        (json!({"unitCost": 0, "targetMarginPercent": 20}), "unitCost"),
        (json!({"unitCost": 30, "targetMarginPercent": 20, "commissionPercent": 140}), "commissionPercent"),
        (json!({"unitCost": 30, "targetMarginPercent": 20, "kind": "bolo"}), "kind"),
        (
            json!({"unitCost": 30, "targetMarginPercent": 20, "kind": "service", "hoursPerUnit": 2}),
            "billableHoursPerMonth",
        ),
        // Issue 62: results that are not finite, or absurd, are refused by field, in her language.
        (
            json!({"unitCost": 30, "kind": "service", "hoursPerUnit": 2, "billableHoursPerMonth": 5e-324, "desiredProLabore": 4000}),
            "billableHoursPerMonth",
        ),
        (
            json!({"unitCost": 30, "kind": "service", "hoursPerUnit": 2, "billableHoursPerMonth": 0.5, "desiredProLabore": 4000}),
            "billableHoursPerMonth",
        ),
        (json!({"unitCost": 30, "targetMarginPercent": 99.9999999999}), "targetMarginPercent"),
        (json!({"unitCost": 30, "targetMarginPercent": 96}), "targetMarginPercent"),
        (json!({"unitCost": 900000000, "targetMarginPercent": 50}), "unitCost"),
        (
            json!({"unitCost": 0, "kind": "service", "hoursPerUnit": 1e9, "billableHoursPerMonth": 100, "desiredProLabore": 4000}),
            "hoursPerUnit",
        ),
    ] {
        let (status, answer) = price(&app, &token, body.clone()).await;
        assert_eq!((status, answer["errors"][0]["field"].as_str()), (400, Some(field)), "{body}: {answer}");
        assert!(!answer["errors"][0]["message"].as_str().unwrap_or_default().is_empty(), "{answer}");
        let said = answer.to_string();
        assert!(!said.contains("Infinity") && !said.contains("NaN"), "{said}");
    }
    // At the bounds it answers: 95 % of the price in shares, one billable hour.
    let (status, answer) = price(&app, &token, json!({"unitCost": 10, "targetMarginPercent": 95})).await;
    assert_eq!((status, answer["data"]["price"].as_f64()), (200, Some(200.0)), "{answer}");
    let (status, answer) = price(&app, &token, json!({"unitCost": 30, "targetMarginPercent": 20, "kind": "service", "hoursPerUnit": 1, "billableHoursPerMonth": 1, "desiredProLabore": 100})).await;
    assert_eq!(status, 200, "{answer}");
    let (status, _) = app.call(Method::POST, "/api/business-plan/price", cake(), None).await;
    assert_eq!(status, 401, "only for the signed-in owner");
}
on_both_engines!(shares_that_leave_nothing_for_the_cost_or_odd_fields_are_a_400_naming_the_field);

async fn on_whatsapp_the_guide_answers_a_pricing_question_with_the_same_price_and_asks_for_what_is_missing(
    db: TestDatabase,
) {
    // Replies as soon as the message is in: the batch window is not what this test is about.
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "10".into())]).await;
    let phone = "+5511987654321";
    app.make_pro(phone, socio::locale::Language::PtBr).await;
    app.say(phone, "Oi").await;
    // The question the issue quotes, answered in one message with the same numbers as the API.
    let answer = app
        .say(phone, "Quanto devo cobrar por um bolo de R$ 30 de custo, 4 % de cartão, 25 % de margem?")
        .await;
    assert!(answer.contains("42,25") && answer.contains("margem") && answer.contains("markup"), "{answer}");
    assert!(answer.contains("corrigir: ticket R$ 42,25"), "the offer to keep it in the plan: {answer}");
    // Taking the offer keeps the price as the plan's ticket.
    let kept = app.say(phone, "corrigir: ticket R$ 42,25").await;
    assert!(kept.contains("R$\u{a0}42,25"), "money as people read it: {kept}");
    let (token, _) = app.login(phone).await;
    let (_, plan) = app.call(Method::GET, "/api/business-plan", Value::Null, Some(&token)).await;
    assert_eq!(plan["data"]["businessPlan"]["financeData"]["averageTicket"], 42.25, "{plan}");
    // Without a margin, it asks for what is missing instead of guessing.
    let asked = app.say(phone, "Como calculo o preço de venda com DAS e maquininha 3,5%?").await;
    assert!(asked.contains("margem que você quer"), "{asked}");
}
on_both_engines!(
    on_whatsapp_the_guide_answers_a_pricing_question_with_the_same_price_and_asks_for_what_is_missing
);

async fn kept_prices_are_priced_again_in_the_plan_document_and_its_pdf(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.db.clock().set(1_780_326_000_000);
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    for (step, body) in [
        (
            "finance",
            json!({"financeData": {"averageTicket": 40, "expectedSalesPerMonth": 150, "monthlyFixedCosts": 1200, "variableCostPerSale": 18}}),
        ),
        ("legal", json!({"legalData": {"businessType": "mei", "activity": "commerce"}})),
        (
            "marketing",
            json!({"marketingData": {"prices": [{"name": "Bolo de chocolate", "request": cake()}]}}),
        ),
    ] {
        let (status, body) =
            app.call(Method::PUT, &format!("/api/business-plan/{step}"), body, Some(&token)).await;
        assert_eq!(status, 200, "{body}");
    }
    // A kept price without a name, or with shares over 100 %, is refused by field, nothing saved.
    let broken = json!({"marketingData": {"prices": [{"name": " ", "request": cake()}]}});
    let (status, answer) = app.call(Method::PUT, "/api/business-plan/marketing", broken, Some(&token)).await;
    assert_eq!(
        (status, answer["errors"][0]["field"].as_str()),
        (400, Some("marketingData.prices[0].name")),
        "{answer}"
    );
    let over = json!({"marketingData": {"prices": [{"name": "Bolo", "request": {"unitCost": 30, "targetMarginPercent": 140}}]}});
    let (status, answer) = app.call(Method::PUT, "/api/business-plan/marketing", over, Some(&token)).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer["errors"][0]["field"].as_str().unwrap().ends_with("targetMarginPercent"), "{answer}");

    let (status, body) = app.call(Method::POST, "/api/business-plan/generate", json!({}), Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    let markdown = body["data"]["document"]["markdown"].as_str().unwrap();
    // The MEI bakery's cake as the API priced it: R$ 60,44, R$ 0,83 of DAS, R$ 2,42 + R$ 12,09 of
    // card fees and fixed costs, R$ 15,11 of margin.
    assert!(markdown.contains("Formação de preço"), "{markdown}");
    assert!(
        markdown.contains("| Bolo de chocolate | R$\u{a0}30,00 | R$\u{a0}0,83 | R$\u{a0}14,51 | R$\u{a0}15,11 | R$\u{a0}60,44 |"),
        "{markdown}"
    );
    assert_eq!(markdown.matches("markup divisor").count(), 1, "the divisor explained once: {markdown}");
    let (status, pdf) =
        app.call(Method::GET, "/api/business-plan/export?format=pdf", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{pdf}");
    use base64::Engine as _;
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(pdf["data"]["content"].as_str().unwrap()).unwrap();
    let text = crate::plan_pdf::pdf_text(&bytes);
    assert!(text.contains("Formação de preço") && text.contains("60,44"), "{text}");
}
on_both_engines!(kept_prices_are_priced_again_in_the_plan_document_and_its_pdf);
