//! Knowledge that does not expire in silence (issue 44): the MEI's DAS is chosen by the day
//! computed for; past its period with nothing newer it is still used and said to be stale — in the
//! plan's numbers, to the admin (`GET /api/admin/facts`) and in `/metrics`; and a facts file named
//! by `SOCIO_FACTS_FILE` replaces the built-in one at start, or stops the start naming its problem.
//! The app's clock is set to the days tested, never the machine's.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, TestDatabase, spawn_app_with},
    on_both_engines,
};

/// The plan's tax basis as the API shows it.
async fn tax_of(app: &TestApp, token: &str) -> Value {
    let (_, plan) = app.call(Method::GET, "/api/business-plan", Value::Null, Some(token)).await;
    plan["data"]["businessPlan"]["financeAnalysis"]["tax"].clone()
}

const ANA: &str = "+5511987654321";
const ADMIN: &str = "+5531999990000";

fn instant(text: &str) -> i64 {
    text.parse::<jiff::Timestamp>().unwrap().as_millisecond()
}

async fn past_its_period_the_das_is_still_used_and_said_to_be_stale_everywhere(db: TestDatabase) {
    let app = spawn_app_with(db, &[("ADMIN_PHONES", ADMIN.into())]).await;
    app.register(ANA).await;
    let legal = json!({"legalData": {"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}});
    let finance = json!({"financeData": {"monthlyFixedCosts": 1000, "averageTicket": 50, "expectedSalesPerMonth": 100}});
    // In 2026 the 2026 value holds, nothing is said.
    app.db.clock().set(instant("2026-11-27T10:00:00-03:00"));
    let (token, _) = app.login(ANA).await;
    let (admin, _) = app.login(ADMIN).await;
    for (step, body) in [("legal", &legal), ("finance", &finance)] {
        let (status, answer) =
            app.call(Method::PUT, &format!("/api/business-plan/{step}"), body.clone(), Some(&token)).await;
        assert_eq!(status, 200, "{answer}");
    }
    let tax = tax_of(&app, &token).await;
    assert_eq!(tax["monthlyFixed"], 82.05);
    assert!(!tax["explanation"].as_str().unwrap().contains("ainda não foi publicado"), "{tax}");
    let (_, facts) = app.call(Method::GET, "/api/admin/facts", Value::Null, Some(&admin)).await;
    assert_eq!(
        (facts["data"]["expired"].as_i64(), facts["data"]["today"].as_str()),
        (Some(0), Some("2026-11-27")),
        "{facts}"
    );

    // 2027-01-05, before the minimum-wage decree: the estimate from the 2027 budget's R$ 1.741
    // (5 % = 87,05 + R$ 1 ICMS), said to be one; 2026's fact is superseded, not stale.
    app.db.clock().set(instant("2027-01-05T10:00:00-03:00"));
    // November's tokens ran out long ago: they log in again.
    let (token, _) = app.login(ANA).await;
    let (admin, _) = app.login(ADMIN).await;
    let tax = tax_of(&app, &token).await;
    assert_eq!(tax["monthlyFixed"], 88.05, "worked out for the day it is read, not the plan's last change");
    let said = tax["explanation"].as_str().unwrap();
    assert!(said.contains("é uma estimativa") && said.contains("R$ 1.741"), "{said}");
    let (status, facts) = app.call(Method::GET, "/api/admin/facts", Value::Null, Some(&admin)).await;
    assert_eq!(status, 200, "{facts}");
    assert_eq!(facts["data"]["expired"], 0, "{facts}");
    let status_of = |facts: &Value, id: &str| {
        let found = facts["data"]["facts"].as_array().unwrap().iter().find(|f| f["id"] == id).cloned();
        found.map(|f| f["status"].as_str().unwrap().to_owned()).unwrap_or_default()
    };
    assert_eq!(status_of(&facts, "taxes.meiDas"), "estimate");
    assert_eq!(status_of(&facts, "taxes.cbsIbs"), "premise");
    assert_eq!(status_of(&facts, "mei.das"), "superseded");

    // 2028-01-05, nothing newer published: 2027's value is still used, and said to be stale.
    app.db.clock().set(instant("2028-01-05T10:00:00-03:00"));
    let (token, _) = app.login(ANA).await;
    let (admin, _) = app.login(ADMIN).await;
    let (status, answer) =
        app.call(Method::PUT, "/api/business-plan/finance", finance.clone(), Some(&token)).await;
    assert_eq!(status, 200, "{answer}");
    let tax = tax_of(&app, &token).await;
    assert_eq!(tax["monthlyFixed"], 88.05, "still used");
    let said = tax["explanation"].as_str().unwrap();
    assert!(said.contains("é o valor de 2027") && said.contains("ainda não foi publicado"), "{said}");
    let (status, facts) = app.call(Method::GET, "/api/admin/facts", Value::Null, Some(&admin)).await;
    assert_eq!(status, 200, "{facts}");
    assert_eq!(facts["data"]["expired"], 3, "the fact, its table and the CBS premise's period: {facts}");
    let das = facts["data"]["facts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "mei.das_2027")
        .unwrap()
        .clone();
    assert_eq!(
        (das["status"].as_str(), das["validUntil"].as_str()),
        (Some("expired"), Some("2027-12-31")),
        "{das}"
    );
    assert!(das["source"].as_str().unwrap().contains("PLOA 2027"));
    // Only admins see it.
    assert_eq!(app.call(Method::GET, "/api/admin/facts", Value::Null, Some(&token)).await.0, 403);
    let metrics =
        app.http.get(format!("{}/metrics", app.address)).send().await.unwrap().text().await.unwrap();
    assert!(metrics.lines().any(|l| l == "socio_facts_expired 3"), "{metrics}");
}
on_both_engines!(past_its_period_the_das_is_still_used_and_said_to_be_stale_everywhere);

/// A facts file that is not one stops the start, naming the file and what is wrong.
#[tokio::test]
async fn a_broken_facts_file_stops_the_start_naming_the_file_and_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let built_in: Value =
        serde_json::from_str(include_str!("../../../base/data/business-facts.json")).unwrap();
    let mut broken = built_in.clone();
    broken["taxes"]["meiDas"][0]["validUntil"] = json!("31/12/2026");
    let cases = [
        ("missing.json", None, "cannot be read"),
        ("garbage.json", Some("{not json".to_owned()), "not a facts file"),
        ("dates.json", Some(broken.to_string()), "meiDas"),
    ];
    for (name, content, problem) in cases {
        let path = dir.path().join(name);
        if let Some(content) = content {
            std::fs::write(&path, content).unwrap();
        }
        let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_socio"))
            .arg("serve")
            .env("SOCIO_FACTS_FILE", &path)
            .env("SOCIO_ADDR", "127.0.0.1:0")
            .env("DATABASE_URL", format!("sqlite://{}", dir.path().join("socio.db").display()))
            .env("JWT_SECRET", "q8Vd2kZ7xLr4Tn0pWb9Ys3Hc6Fm1Ja5Ge8Uo2Ri7Ke")
            .env("RUST_LOG", "error")
            .kill_on_drop(true)
            .output()
            .await
            .unwrap();
        assert!(!output.status.success(), "{name}");
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains(name) && said.contains(problem), "{name}: {said}");
    }
}

/// A facts file with the new year's DAS is used as soon as it is read: `socio facts --on` (what an
/// operator runs before restarting with it, reading it exactly as `serve` does) shows the decree's
/// 2027 values current on 2027-01-05, where the built-in file shows its estimate.
#[tokio::test]
async fn a_facts_file_with_the_new_year_s_das_is_used_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut facts: Value =
        serde_json::from_str(include_str!("../../../base/data/business-facts.json")).unwrap();
    facts["taxes"]["meiDas"][1] = json!({
        "validFrom": "2027-01-01", "validUntil": "2027-12-31", "fact": "mei.das_2027",
        "commerce": 86.05, "industry": 86.05, "services": 90.05, "commerceAndServices": 91.05
    });
    let path = dir.path().join("facts-2027.json");
    std::fs::write(&path, facts.to_string()).unwrap();
    let run = |file: Option<&std::path::Path>| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_socio"));
        command.args(["facts", "--on", "2027-01-05"]).env("RUST_LOG", "error").env_remove("SOCIO_FACTS_FILE");
        if let Some(file) = file {
            command.env("SOCIO_FACTS_FILE", file);
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let built_in = run(None);
    let das = built_in.lines().find(|l| l.contains("taxes.meiDas")).unwrap();
    assert!(das.contains("estimate") && das.contains("88.05"), "{built_in}");
    let presumido = built_in.lines().find(|l| l.contains("taxes.lucroPresumido")).unwrap();
    assert!(presumido.contains("2027-01-01"), "PIS and Cofins' period ended with 2026: {built_in}");
    let published = run(Some(&path));
    let das = published.lines().find(|l| l.contains("taxes.meiDas")).unwrap();
    assert!(das.contains("current") && das.contains("2027-01-01") && das.contains("86.05"), "{published}");
    assert!(!published.contains("expired"), "{published}");
}
