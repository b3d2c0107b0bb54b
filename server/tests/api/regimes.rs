//! Every regime through the contract, with the figures an accountant works out by hand (issue 43;
//! the unit tests in `plan::money::taxes` show each computation with its source): Lucro Presumido, the
//! annex from the CNAE, the legal Fator R from wages and pró-labore, Annex IV's CPP, and a service
//! business asked for its CNAE instead of a silent Annex V.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, TestDatabase, spawn_app},
    on_both_engines,
};

const ANA: &str = "+5511987654321";

async fn owner(app: &TestApp) -> String {
    app.register(ANA).await;
    app.login(ANA).await.0
}

async fn put(app: &TestApp, token: &str, step: &str, body: Value) -> (u16, Value) {
    app.call(Method::PUT, &format!("/api/business-plan/{step}"), body, Some(token)).await
}

async fn analysis(app: &TestApp, token: &str) -> Value {
    let (status, body) = app.call(Method::GET, "/api/business-plan", Value::Null, Some(token)).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["businessPlan"]["financeAnalysis"].clone()
}

fn line(a: &Value, code: &str) -> f64 {
    a["tax"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["code"] == code)
        .map_or(0.0, |l| l["amount"].as_f64().unwrap())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.005
}

/// R$ 30.000 a month of consulting (one sale at R$ 30.000), R$ 13.500 of fixed costs.
fn consulting() -> Value {
    json!({"financeData": {"monthlyFixedCosts": 13500, "averageTicket": 30000, "expectedSalesPerMonth": 1}})
}

async fn a_consultancy_in_lucro_presumido_pays_16_33_percent_not_nothing(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = owner(&app).await;
    let legal = json!({"legalData": {"businessType": "ltda", "taxRegime": "lucro_presumido", "activity": "services"}});
    assert_eq!(put(&app, &token, "legal", legal).await.0, 200);
    assert_eq!(put(&app, &token, "finance", consulting()).await.0, 200);
    let a = analysis(&app, &token).await;
    // PIS 195 + Cofins 900 + IRPJ 15 % × 9.600 = 1.440 + CSLL 9 % × 9.600 = 864 + ISS 5 % = 1.500.
    assert!(close(a["monthlyTaxes"].as_f64().unwrap(), 4_899.0), "{a}");
    assert!(close(a["monthlyResult"].as_f64().unwrap(), 11_601.0), "{a}");
    assert_eq!(a["tax"]["regime"], "lucro_presumido");
    assert_eq!(a["tax"]["modelled"], true);
    assert!(close(a["tax"]["effectiveRatePercent"].as_f64().unwrap(), 16.33), "{a}");
    for (code, amount) in
        [("pis", 195.0), ("cofins", 900.0), ("irpj", 1_440.0), ("csll", 864.0), ("iss", 1_500.0)]
    {
        assert!(close(line(&a, code), amount), "{code}: {a}");
    }
    // Her city charges 2 % of ISS: she says so, and the numbers follow.
    let legal = json!({"legalData": {"businessType": "ltda", "taxRegime": "lucro_presumido", "activity": "services", "issRatePercent": 2}});
    assert_eq!(put(&app, &token, "legal", legal).await.0, 200);
    assert!(close(analysis(&app, &token).await["monthlyTaxes"].as_f64().unwrap(), 3_999.0));
    // An ISS outside the law's 2 % to 5 % is a 400 naming the field, and changes nothing.
    let (status, body) = put(&app, &token, "legal", json!({"legalData": {"issRatePercent": 7}})).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("issRatePercent"), "{body}");
    // Lucro Real is the accountant's: nothing invented.
    let real =
        json!({"legalData": {"businessType": "ltda", "taxRegime": "lucro_real", "activity": "services"}});
    assert_eq!(put(&app, &token, "legal", real).await.0, 200);
    let a = analysis(&app, &token).await;
    assert_eq!((a["tax"]["modelled"].as_bool(), a["monthlyTaxes"].as_f64()), (Some(false), Some(0.0)));
    assert!(a["tax"]["explanation"].as_str().unwrap().contains("peça a um contador"));
}
on_both_engines!(a_consultancy_in_lucro_presumido_pays_16_33_percent_not_nothing);

async fn a_beauty_salon_is_annex_iii_by_its_cnae_and_a_service_without_one_is_asked(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = owner(&app).await;
    let finance = json!({"financeData": {"monthlyFixedCosts": 8000, "averageTicket": 80, "expectedSalesPerMonth": 250}});
    assert_eq!(put(&app, &token, "finance", finance).await.0, 200);
    // No CNAE: a service business's annex is not assumed; the numbers say what to give.
    let legal = json!({"legalData": {"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "services"}});
    assert_eq!(put(&app, &token, "legal", legal).await.0, 200);
    let a = analysis(&app, &token).await;
    assert_eq!((a["tax"]["modelled"].as_bool(), a["tax"]["annex"].as_str()), (Some(false), Some("")), "{a}");
    let codes: Vec<&str> =
        a["warnings"].as_array().unwrap().iter().map(|w| w["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"tax_incomplete"), "{a}");
    // CNAE 9602-5/01, as people write it: Annex III (LC 123 art. 18 §5-B), 7,30 %, R$ 1.460,00.
    let legal = json!({"legalData": {"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "services", "cnae": "9602-5/01"}});
    let (status, saved) = put(&app, &token, "legal", legal).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["data"]["businessPlan"]["legalData"]["cnae"], "9602501", "kept as seven digits");
    let a = analysis(&app, &token).await;
    assert_eq!(
        (a["tax"]["annex"].as_str(), a["tax"]["cnae"].as_str()),
        (Some("III"), Some("9602501")),
        "{a}"
    );
    assert!(close(a["monthlyTaxes"].as_f64().unwrap(), 1_460.0), "{a}");
    assert!(close(a["tax"]["effectiveRatePercent"].as_f64().unwrap(), 7.3));
    // A CNAE that is not one is a 400 naming the field.
    let (status, body) = put(&app, &token, "legal", json!({"legalData": {"cnae": "salão"}})).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("cnae"), "{body}");
}
on_both_engines!(a_beauty_salon_is_annex_iii_by_its_cnae_and_a_service_without_one_is_asked);

async fn an_it_firm_s_fator_r_counts_the_13th_the_vacation_third_and_fgts(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = owner(&app).await;
    let legal = json!({"legalData": {"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "services", "cnae": "6201-5/01"}});
    assert_eq!(put(&app, &token, "legal", legal).await.0, 200);
    // R$ 40.000 a month; CLT wages 7.000 and pró-labore 3.000. Payroll of 12 months: 7.000 ×
    // 13⅓ × 1,08 + 36.000 = 136.800 = 28,5 % of 480.000 → Annex III: 9,825 %, R$ 3.930,00.
    let finance = json!({"financeData": {"monthlyFixedCosts": 20000, "averageTicket": 4000, "expectedSalesPerMonth": 10, "monthlyWages": 7000, "monthlyProLabore": 3000}});
    assert_eq!(put(&app, &token, "finance", finance).await.0, 200);
    let a = analysis(&app, &token).await;
    assert_eq!(a["tax"]["annex"], "III", "{a}");
    assert!(close(a["tax"]["fatorRPercent"].as_f64().unwrap(), 28.5), "{a}");
    assert!(close(a["monthlyTaxes"].as_f64().unwrap(), 3_930.0), "{a}");
    // Without the detail (the older single figure of 10.000): 25 %, Annex V, R$ 6.975,00.
    let finance = json!({"financeData": {"monthlyFixedCosts": 20000, "averageTicket": 4000, "expectedSalesPerMonth": 10, "monthlyPayroll": 10000}});
    assert_eq!(put(&app, &token, "finance", finance).await.0, 200);
    let a = analysis(&app, &token).await;
    assert_eq!(a["tax"]["annex"], "V", "{a}");
    assert!(close(a["monthlyTaxes"].as_f64().unwrap(), 6_975.0), "{a}");
}
on_both_engines!(an_it_firm_s_fator_r_counts_the_13th_the_vacation_third_and_fgts);

async fn a_cleaning_company_in_annex_iv_pays_the_cpp_beside_the_das(db: TestDatabase) {
    let app = spawn_app(db).await;
    let token = owner(&app).await;
    let legal = json!({"legalData": {"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "services", "cnae": "8121400"}});
    assert_eq!(put(&app, &token, "legal", legal).await.0, 200);
    // R$ 30.000 a month (RBT12 360.000: 6,75 %, DAS 2.025,00); wages 10.000: CPP 20 % × 11.111,11.
    let finance = json!({"financeData": {"monthlyFixedCosts": 5000, "averageTicket": 300, "expectedSalesPerMonth": 100, "monthlyWages": 10000}});
    assert_eq!(put(&app, &token, "finance", finance).await.0, 200);
    let a = analysis(&app, &token).await;
    assert_eq!(a["tax"]["annex"], "IV", "{a}");
    assert!(close(line(&a, "das"), 2_025.0) && close(line(&a, "cpp"), 2_222.22), "{a}");
    assert!(close(a["monthlyTaxes"].as_f64().unwrap(), 4_247.22), "{a}");
}
on_both_engines!(a_cleaning_company_in_annex_iv_pays_the_cpp_beside_the_das);

fn instant(text: &str) -> i64 {
    text.parse::<jiff::Timestamp>().unwrap().as_millisecond()
}

/// The accountant's Presumido consultancy (issue 61), saved in 2026 and read in 2027: the taxes of
/// the day it is read — PIS and Cofins gone (EC 132/2023, ADCT art. 126), CBS 8,7 % and IBS 0,1 %
/// on 40.000 − 2.000 of ISS (LC 214/2025 arts. 344 and 347): R$ 8.416 a month, R$ 1.884 more than
/// 2026's R$ 6.532; a 3-hour service of R$ 370 at 20 % margin R$ 549,61 + CBS/IBS = R$ 595,56.
async fn a_presumido_plan_saved_in_2026_pays_2027_s_cbs_and_ibs_when_read_in_2027(
    db: crate::helpers::TestDatabase,
) {
    let app = spawn_app(db).await;
    app.db.clock().set(instant("2026-12-01T10:00:00-03:00"));
    let token = owner(&app).await;
    let legal = json!({"legalData": {"businessType": "ltda", "taxRegime": "lucro_presumido", "activity": "services"}});
    let finance =
        json!({"financeData": {"averageTicket": 4000, "expectedSalesPerMonth": 10, "monthlyFixedCosts": 0}});
    for (step, body) in [("legal", legal), ("finance", finance)] {
        let (status, answer) = put(&app, &token, step, body).await;
        assert_eq!(status, 200, "{answer}");
    }
    let december = analysis(&app, &token).await;
    assert!(close(line(&december, "cofins"), 1_200.0) && line(&december, "cbs") == 0.0, "{december}");
    let service = json!({"unitCost": 370, "targetMarginPercent": 20, "includeFixedCosts": false});
    let (_, price) = app.call(Method::POST, "/api/business-plan/price", service.clone(), Some(&token)).await;
    assert_eq!(
        (price["data"]["price"].as_f64(), price["data"]["invoiceTotal"].as_f64()),
        (Some(581.12), Some(581.12))
    );

    app.db.clock().set(instant("2027-01-05T10:00:00-03:00"));
    let (token, _) = app.login(ANA).await;
    let january = analysis(&app, &token).await;
    assert_eq!((line(&january, "pis"), line(&january, "cofins")), (0.0, 0.0), "{january}");
    assert!(close(line(&january, "cbs"), 3_306.0) && close(line(&january, "ibs"), 38.0), "{january}");
    assert_eq!(line(&january, "cbs"), 3_306.0, "to the centavo, never 3305.9999…");
    let cbs =
        january["tax"]["lines"].as_array().unwrap().iter().find(|l| l["code"] == "cbs").unwrap().clone();
    assert_eq!(cbs["onTop"], true, "{cbs}");
    let explanation = january["tax"]["explanation"].as_str().unwrap();
    assert!(explanation.contains("por fora do preço") && explanation.contains("premissa"), "{explanation}");
    let (_, price) = app.call(Method::POST, "/api/business-plan/price", service, Some(&token)).await;
    assert_eq!(
        (price["data"]["price"].as_f64(), price["data"]["invoiceTotal"].as_f64()),
        (Some(549.61), Some(595.56))
    );
    let on_top: Vec<&str> =
        price["data"]["taxesOnTop"].as_array().unwrap().iter().map(|t| t["code"].as_str().unwrap()).collect();
    assert_eq!(on_top, ["cbs", "ibs"]);
    // A regulated profession says so: 30 % less of both (LC 214/2025 art. 127).
    let legal = json!({"legalData": {"businessType": "ltda", "taxRegime": "lucro_presumido", "activity": "services", "profession": "PROFESSION_REGULATED"}});
    let (status, answer) = put(&app, &token, "legal", legal).await;
    assert_eq!(status, 200, "{answer}");
    assert!(close(line(&analysis(&app, &token).await, "cbs"), 2_314.2));
    let bad = json!({"legalData": {"profession": "PROFESSION_NOPE"}});
    assert_eq!(put(&app, &token, "legal", bad).await.0, 400);
}
on_both_engines!(a_presumido_plan_saved_in_2026_pays_2027_s_cbs_and_ibs_when_read_in_2027);

/// `POST /api/business-plan/reform-choice` for the salon of the unit tests (R$ 30.000 a month in
/// Annex III): R$ 2.580,00 inside the DAS, R$ 4.266,17 outside, April 2027's window for the second
/// half; a MEI is told the choice is a Simples company's.
async fn a_simples_company_compares_ibs_and_cbs_inside_and_outside_the_das_from_its_own_plan(
    db: crate::helpers::TestDatabase,
) {
    let app = spawn_app(db).await;
    app.db.clock().set(instant("2027-01-05T10:00:00-03:00"));
    let token = owner(&app).await;
    let (status, refused) =
        app.call(Method::POST, "/api/business-plan/reform-choice", json!({}), Some(&token)).await;
    assert_eq!(status, 404, "no plan yet: {refused}");
    let legal =
        json!({"legalData": {"businessType": "ltda", "taxRegime": "simples_nacional", "cnae": "9602-5/01"}});
    let finance = json!({"financeData": {"averageTicket": 100, "expectedSalesPerMonth": 300, "monthlyFixedCosts": 10000}});
    for (step, body) in [("legal", legal), ("finance", finance)] {
        let (status, answer) = put(&app, &token, step, body).await;
        assert_eq!(status, 200, "{answer}");
    }
    let asked = json!({"b2bSharePercent": 60, "monthlyPurchases": 5000});
    let (status, choice) =
        app.call(Method::POST, "/api/business-plan/reform-choice", asked, Some(&token)).await;
    assert_eq!(status, 200, "{choice}");
    let d = &choice["data"];
    assert_eq!(
        (d["insideDas"].as_f64(), d["outsideDas"].as_f64()),
        (Some(2_580.0), Some(4_266.17)),
        "{choice}"
    );
    assert_eq!((d["difference"].as_f64(), d["b2bShareUsed"].as_f64()), (Some(1_686.17), Some(60.0)));
    assert_eq!(
        (d["nextWindow"].as_str(), d["nextWindowDecides"].as_str()),
        (Some("2027-04-30"), Some("2027-H2"))
    );
    assert!(d["explanation"].as_str().unwrap().contains("não pode ser desfeita"), "{choice}");
    let (status, bad) = app
        .call(Method::POST, "/api/business-plan/reform-choice", json!({"b2bSharePercent": 150}), Some(&token))
        .await;
    assert_eq!(status, 400, "{bad}");
    let mei = json!({"legalData": {"businessType": "mei", "taxRegime": "simei", "activity": "services"}});
    assert_eq!(put(&app, &token, "legal", mei).await.0, 200);
    let (status, refused) =
        app.call(Method::POST, "/api/business-plan/reform-choice", json!({}), Some(&token)).await;
    assert_eq!(status, 409, "{refused}");
    assert!(refused.to_string().contains("é das empresas do Simples Nacional"), "{refused}");
}
on_both_engines!(a_simples_company_compares_ibs_and_cbs_inside_and_outside_the_das_from_its_own_plan);
