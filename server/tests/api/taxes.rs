//! Taxes in the plan's numbers and figures worth a second look, through the contract: the DRE's
//! tax line by regime (the Simples' effective rate, the MEI's DAS), said plainly when not modelled,
//! and warnings instead of silent acceptance.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, TestDatabase, spawn_app},
    on_both_engines,
};

const ANA: &str = "+5511987654321";

async fn put(app: &TestApp, token: &str, step: &str, body: Value) {
    let (status, answer) =
        app.call(Method::PUT, &format!("/api/business-plan/{step}"), body, Some(token)).await;
    assert_eq!(status, 200, "{step}: {answer}");
}

async fn analysis(app: &TestApp, token: &str) -> Value {
    let (status, body) = app.call(Method::GET, "/api/business-plan", Value::Null, Some(token)).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["businessPlan"]["financeAnalysis"].clone()
}

async fn a_simples_bakery_sees_its_result_after_the_das_of_annex_i(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    // R$ 18.000 fixed, R$ 18 ticket, 35 % variable + 2 % card fees, 2.000 sales a month.
    let finance = json!({"financeData": {"monthlyFixedCosts": 18000, "averageTicket": 18, "variableCostPercent": 37, "expectedSalesPerMonth": 2000}});
    put(&app, &token, "finance", finance).await;
    let untaxed = analysis(&app, &token).await;
    assert_eq!(untaxed["monthlyResult"], 4_680.0, "{untaxed}");
    assert_eq!(untaxed["tax"]["modelled"], false);
    assert!(
        untaxed["tax"]["explanation"].as_str().unwrap().contains("regime tributário não foi escolhido"),
        "{untaxed}"
    );

    put(&app, &token, "legal", json!({"legalData": {"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "commerce"}})).await;
    let taxed = analysis(&app, &token).await;
    assert_eq!(taxed["tax"]["annex"], "I", "{taxed}");
    assert_eq!(taxed["tax"]["rbt12"], 432_000.0);
    let rate = taxed["tax"]["effectiveRatePercent"].as_f64().unwrap();
    assert!((rate - 6.2917).abs() < 0.001, "{rate}");
    assert!((taxed["monthlyTaxes"].as_f64().unwrap() - 2_265.0).abs() < 0.01, "{taxed}");
    assert!((taxed["monthlyResult"].as_f64().unwrap() - 2_415.0).abs() < 0.01, "{taxed}");
    assert!(taxed["tax"]["explanation"].as_str().unwrap().contains("LC 123/2006"), "{taxed}");
    // The forecast of the month's results is after taxes too.
    let (_, results) = app.call(Method::GET, "/api/results", Value::Null, Some(&token)).await;
    assert!((results["data"]["plan"]["result"].as_f64().unwrap() - 2_415.0).abs() < 0.01, "{results}");
    // An activity that is not one is refused, in words.
    let (status, refused) = app
        .call(
            Method::PUT,
            "/api/business-plan/legal",
            json!({"legalData": {"activity": "farming"}}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused["errors"][0]["field"].as_str().unwrap().contains("activity"), "{refused}");
}
on_both_engines!(a_simples_bakery_sees_its_result_after_the_das_of_annex_i);

async fn once_months_are_recorded_the_simples_rate_comes_from_their_revenue_not_the_plan(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    let finance = json!({"financeData": {"monthlyFixedCosts": 18000, "averageTicket": 18, "variableCostPercent": 37, "expectedSalesPerMonth": 2000}});
    put(&app, &token, "finance", finance).await;
    put(&app, &token, "legal", json!({"legalData": {"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "commerce"}})).await;
    assert_eq!(analysis(&app, &token).await["tax"]["rbt12"], 432_000.0, "the plan's R$ 36.000 × 12");

    // Two real months, far below the plan: R$ 10.000 and R$ 14.000. The RBT12 is their average
    // × 12 (Res. CGSN 140/2018 art. 22) = R$ 144.000, Annex I's first bracket: 4 %.
    let last = socio::plan::month::YearMonth::current(app.db.now_ms()).previous();
    for (month, revenue) in [(last, 10_000), (last.previous(), 14_000)] {
        let body = json!({"revenue": revenue, "costs": 9_000, "salesCount": 500});
        let (status, answer) =
            app.call(Method::PUT, &format!("/api/results/{}", month.key()), body, Some(&token)).await;
        assert_eq!(status, 200, "{answer}");
    }
    let taxed = analysis(&app, &token).await;
    assert_eq!(taxed["tax"]["rbt12"], 144_000.0, "{taxed}");
    assert_eq!(taxed["tax"]["effectiveRatePercent"], 4.0, "{taxed}");
    let words = taxed["tax"]["explanation"].as_str().unwrap();
    assert!(words.contains("média dos 2 meses registrados"), "{words}");
    // A month recorded more than a year ago does not count.
    let old = (0..13).fold(last, |m, _| m.previous());
    let body = json!({"revenue": 900_000, "costs": 0, "salesCount": 1});
    let (status, _) = app.call(Method::PUT, &format!("/api/results/{}", old.key()), body, Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(analysis(&app, &token).await["tax"]["rbt12"], 144_000.0);
}
on_both_engines!(once_months_are_recorded_the_simples_rate_comes_from_their_revenue_not_the_plan);

async fn a_mei_pays_its_das_and_implausible_figures_come_back_as_warnings(db: TestDatabase) {
    let app = spawn_app(db).await;
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    put(
        &app,
        &token,
        "legal",
        json!({"legalData": {"businessType": "mei", "taxRegime": "simei", "activity": "services"}}),
    )
    .await;
    // A manicure: R$ 35 a client, but R$ 900 typed as the cost of each; a team of four.
    let finance = json!({"financeData": {"monthlyFixedCosts": 1500, "averageTicket": 35, "variableCostPerSale": 900, "expectedSalesPerMonth": 120, "startupCosts": 5000}});
    put(&app, &token, "finance", finance).await;
    put(&app, &token, "hr", json!({"hrData": {"teamSize": 4}})).await;
    let a = analysis(&app, &token).await;
    assert_eq!(a["monthlyTaxes"], 86.05, "the services DAS: {a}");
    assert_eq!(a["tax"]["monthlyFixed"], 86.05);
    let codes: Vec<&str> =
        a["warnings"].as_array().unwrap().iter().map(|w| w["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["cost_above_price", "mei_employees", "investment_without_funding"], "{a}");
    let first = a["warnings"][0]["message"].as_str().unwrap();
    assert!(first.contains("900,00") && first.contains("35,00"), "{first}");

    // Fixed: the cost is R$ 9; the revenue of R$ 8.400 a month (R$ 100.800 a year) passes the ceiling.
    put(&app, &token, "finance", json!({"financeData": {"monthlyFixedCosts": 1500, "averageTicket": 35, "variableCostPerSale": 9, "expectedSalesPerMonth": 240, "startupCosts": 5000, "fundingSource": "reserva própria"}})).await;
    let a = analysis(&app, &token).await;
    let codes: Vec<&str> =
        a["warnings"].as_array().unwrap().iter().map(|w| w["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["mei_ceiling", "mei_employees"], "{a}");
    // More than 20 % over R$ 81.000: excluded back to January, computed as the Simples company it
    // becomes — Annex III's first bracket, 6 % of R$ 8.400 = R$ 504,00 a month (LC 123/2006 art.
    // 18-A §7º III b), not the DAS of R$ 86,05.
    assert_eq!((a["monthlyTaxes"].as_f64(), a["tax"]["annex"].as_str()), (Some(504.0), Some("III")), "{a}");
    assert_eq!(a["monthlyResult"], 8_400.0 - 504.0 - 2_160.0 - 1_500.0);
    assert!(a["tax"]["explanation"].as_str().unwrap().contains("desenquadrado desde janeiro"), "{a}");
    assert!(
        a["warnings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("empresa do Simples Nacional que ele passa a ser")
    );
}
on_both_engines!(a_mei_pays_its_das_and_implausible_figures_come_back_as_warnings);
