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
