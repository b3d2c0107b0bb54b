//! The proactive messages people asked for, with the clock set by the instant the scheduler runs
//! as of (`socio reminders run --now`): nothing without consent nor in the quiet hours, the
//! check-in on the first business day, the MEI's DAS and ceiling, each once per period however
//! many servers run it, plain text inside the 24-hour window and the approved template outside it,
//! PARAR and Meta's own stop, and the consultant's offer that a "sim" accepts.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    fake_graph::{APP_SECRET, FakeGraph},
    helpers::{TestApp, TestDatabase, eventually, spawn_app, spawn_app_with},
    on_both_engines,
};

const ANA: &str = "+5511987654321";

fn instant(text: &str) -> i64 {
    text.parse::<jiff::Timestamp>().unwrap().as_millisecond()
}

/// Runs the scheduler once as of `at` (what `socio reminders run --now` does); how many it sent.
async fn run(app: &TestApp, at: &str) -> usize {
    socio::conversation::proactive::Proactive::new(app.db.clone()).run(instant(at)).await.unwrap().sent
}

/// Ana, a MEI, logged in: her token.
async fn mei(app: &TestApp) -> String {
    app.register(ANA).await;
    let (token, _) = app.login(ANA).await;
    let legal = json!({"legalData": {"businessType": "mei", "taxRegime": "simei"}});
    let (status, body) = app.call(Method::PUT, "/api/business-plan/legal", legal, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    token
}

async fn agree(app: &TestApp, token: &str, checkin: bool, taxes: bool) {
    let agreed = json!({"monthlyCheckin": checkin, "taxReminders": taxes});
    let (status, body) = app.call(Method::PUT, "/api/reminders", agreed, Some(token)).await;
    assert_eq!(status, 200, "{body}");
}

/// Records a month through the contract.
async fn record(app: &TestApp, token: &str, month: &str, revenue: f64) {
    let body = json!({"revenue": revenue, "costs": revenue / 2.0, "salesCount": 100});
    let (status, answer) = app.call(Method::PUT, &format!("/api/results/{month}"), body, Some(token)).await;
    assert_eq!(status, 200, "{answer}");
}

/// What the outbox shows Ana received, oldest first: (kind, text).
async fn received(app: &TestApp) -> Vec<(String, String)> {
    app.outbox_messages(ANA)
        .await
        .iter()
        .map(|m| {
            (
                m["kind"].as_str().unwrap_or_default().to_owned(),
                m["text"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

async fn received_containing(app: &TestApp, needle: &str) -> Vec<(String, String)> {
    received(app).await.into_iter().filter(|(_, text)| text.contains(needle)).collect()
}

async fn nothing_is_sent_without_consent_nor_in_the_quiet_hours_and_a_mei_hears_of_the_das_and_the_ceiling(
    db: TestDatabase,
) {
    let app = spawn_app(db).await;
    // As of a day in November 2026, whatever the machine's date: the months below are this year's.
    app.db.clock().set(instant("2026-11-16T10:00:00-03:00"));
    let token = mei(&app).await;
    // Three months at a pace of R$ 9.000: R$ 108.000 in the year, over the R$ 81.000 ceiling.
    for (month, revenue) in [("2026-01", 8000.0), ("2026-02", 9000.0), ("2026-03", 10000.0)] {
        record(&app, &token, month, revenue).await;
    }
    // 2026-11-16 is a Monday: the 15th was a Sunday, so the DAS reminder goes today.
    assert_eq!(run(&app, "2026-11-16T10:00:00-03:00").await, 0, "nothing before she agrees");
    agree(&app, &token, false, true).await;
    assert_eq!(run(&app, "2026-11-16T07:59:00-03:00").await, 0, "quiet until 08:00");
    assert_eq!(run(&app, "2026-11-16T20:00:00-03:00").await, 0, "quiet from 20:00");
    assert_eq!(run(&app, "2026-11-16T08:59:00-03:00").await, 0, "her hour is 9:00");
    assert_eq!(run(&app, "2026-11-16T10:00:00-03:00").await, 2);
    assert_eq!(run(&app, "2026-11-16T10:01:00-03:00").await, 0, "once per period");
    assert_eq!(
        run(&app, "2026-11-17T10:00:00-03:00").await,
        0,
        "the DAS once a month, the ceiling once a year"
    );
    assert_eq!(app.count("select count(*) as n from reminders_sent").await, 2);

    eventually("both reminders", || async {
        received_containing(&app, "Lembrete do Sócio").await.len() == 2
    })
    .await;
    let das = received_containing(&app, "DAS do MEI").await;
    // The 20th is Consciência Negra (a holiday): the DAS is due on Monday the 23rd.
    assert!(das[0].1.contains("outubro vence em 23/11/2026"), "{das:?}");
    assert!(das[0].1.ends_with("responda PARAR."), "{das:?}");
    let ceiling = received_containing(&app, "limite do MEI").await;
    let text = &ceiling[0].1;
    assert!(text.contains("108.000,00") && text.contains("81.000,00") && text.contains("20%"), "{text}");
    // Outside the window (she never wrote): the approved template, which the outbox shows as such.
    assert!(das.iter().chain(&ceiling).all(|(kind, _)| kind == "template"), "{das:?} {ceiling:?}");

    // ListResults carries the projection.
    let (_, list) = app.call(Method::GET, "/api/results", Value::Null, Some(&token)).await;
    let projection = &list["data"]["ceiling"];
    assert_eq!(projection["limit"], 81000.0, "{list}");
    assert_eq!(projection["projectedRevenue"], 108000.0, "{list}");
    // By the pace the year would have passed the limit in October, an estimate of a month gone by:
    // the crossing is never in the past (November).
    assert_eq!(projection["crossingMonth"], "2026-11", "{list}");
}
on_both_engines!(
    nothing_is_sent_without_consent_nor_in_the_quiet_hours_and_a_mei_hears_of_the_das_and_the_ceiling
);

async fn the_check_in_goes_on_the_first_business_day_as_text_inside_the_window_and_her_answer_counts(
    db: TestDatabase,
) {
    let admin = "+5531999990000";
    let app =
        spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "10".into()), ("ADMIN_PHONES", admin.into())])
            .await;
    // As of 10 December 2026 at 13:00, whatever the machine's date: the admin's 60 days hold both
    // check-ins, and her PARAR comes before the second (14:00), so it does not answer it.
    app.db.clock().set(instant("2026-12-10T13:00:00-03:00"));
    app.say(ANA, "Oi").await; // the 24-hour window is open
    let (token, _) = app.login(ANA).await;
    agree(&app, &token, true, false).await;
    // November's first business day: the 1st is a Sunday, the 2nd a holiday.
    assert_eq!(run(&app, "2026-11-02T09:30:00-03:00").await, 0);
    assert_eq!(run(&app, "2026-11-03T09:00:00-03:00").await, 1);
    eventually("the check-in", || async { !received_containing(&app, "Como foi outubro").await.is_empty() })
        .await;
    let checkin = received_containing(&app, "Como foi outubro").await;
    assert_eq!(checkin[0].0, "text", "inside the window, plain text: {checkin:?}");
    assert!(checkin[0].1.starts_with("Oi, Ana! Como foi outubro no seu negócio?"), "{checkin:?}");

    app.say(ANA, "Fechei outubro com 21 mil").await;
    assert_eq!(app.count("select count(*) as n from reminders_sent where answered_at is not null").await, 1);
    // Her own day: the next month's check-in waits for it.
    let own = json!({"monthlyCheckin": true, "taxReminders": false, "day": 10, "hour": 14});
    assert_eq!(app.call(Method::PUT, "/api/reminders", own, Some(&token)).await.0, 200);
    assert_eq!(run(&app, "2026-12-01T09:00:00-03:00").await, 0);
    assert_eq!(run(&app, "2026-12-10T14:00:00-03:00").await, 1);

    // The admin sees check-ins sent and answered, and who stopped.
    app.say(ANA, "PARAR").await;
    let (admin_token, _) = app.login(admin).await;
    let (status, body) =
        app.call(Method::GET, "/api/admin/analytics?days=60", Value::Null, Some(&admin_token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["reminders"],
        json!({"checkinsSent": 2, "checkinsAnswered": 1, "remindersSent": 2, "stopped": 1}),
        "{body}"
    );
}
on_both_engines!(the_check_in_goes_on_the_first_business_day_as_text_inside_the_window_and_her_answer_counts);

async fn a_reminder_goes_once_however_many_servers_run_the_scheduler_at_once(db: TestDatabase) {
    let second_db = db.shared();
    let app = spawn_app(db).await;
    let other = spawn_app(second_db).await;
    let token = mei(&app).await;
    agree(&app, &token, true, true).await;
    let at = "2026-11-16T10:00:00-03:00";
    let runs = (0..8).map(|n| {
        let db = if n % 2 == 0 { app.db.clone() } else { other.db.clone() };
        async move { socio::conversation::proactive::Proactive::new(db).run(instant(at)).await.unwrap().sent }
    });
    let sent: usize = futures::future::join_all(runs).await.into_iter().sum();
    assert_eq!(sent, 1, "the DAS reminder, once");
    assert_eq!(app.count("select count(*) as n from reminders_sent").await, 1);
    assert_eq!(app.count("select count(*) as n from messages where kind = 'reminder'").await, 1);
    assert_eq!(app.count("select count(*) as n from jobs where kind = 'send'").await, 1);
}
on_both_engines!(a_reminder_goes_once_however_many_servers_run_the_scheduler_at_once);

async fn parar_and_meta_s_own_stop_keep_every_reminder_from_going(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let app = spawn_app_with(db, &graph.cloud_config()).await;
    let body = crate::helpers::fixture("whatsapp/inbound-text.json");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    graph.wait_for_requests(1).await;
    let user_id: String = sqlx::query_scalar("select id from users").fetch_one(app.db.pool()).await.unwrap();
    socio::plan::tracking::reminders::Reminders::new(app.db.clone())
        .choose(&user_id, true, true, None, None)
        .await
        .unwrap();

    // Meta's user_preferences webhook: she stopped the business's marketing messages.
    let stop = crate::fake_graph::user_preferences("stop", 1795253690);
    assert_eq!(app.post_whatsapp_webhook(stop.as_bytes(), Some(APP_SECRET)).await, 200);
    assert_eq!(
        app.count("select count(*) as n from reminder_preferences where stopped_at is not null").await,
        1
    );
    assert_eq!(run(&app, "2026-11-03T09:00:00-03:00").await, 0);

    // "resume" lifts it: the check-in goes, outside the window as the approved template.
    let resume = crate::fake_graph::user_preferences("resume", 1795253690);
    assert_eq!(app.post_whatsapp_webhook(resume.as_bytes(), Some(APP_SECRET)).await, 200);
    // Two days later: WhatsApp's 24-hour customer-service window has closed.
    app.db.clock().advance(2 * socio::clock::DAY_MS);
    assert_eq!(run(&app, "2026-11-03T09:00:00-03:00").await, 1);
    let requests = graph.wait_for_requests(2).await;
    let template = &requests[1].body;
    assert_eq!(template["type"], "template", "{template}");
    assert_eq!(template["template"]["name"], "socio_checkin");
    assert_eq!(template["template"]["language"]["code"], "pt_BR");
    let params: Vec<&str> = template["template"]["components"][0]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["text"].as_str().unwrap())
        .collect();
    assert_eq!(params, ["Ana", "outubro"], "{template}");
    // Billed as a utility template, like every message (its status names the wamid we recorded).
    eventually("the check-in is recorded as sent", || async {
        app.count("select count(*) as n from messages where kind = 'reminder' and status = 'sent'").await == 1
    })
    .await;
    let delivered = graph.status_webhook(2, "delivered");
    assert_eq!(app.post_whatsapp_webhook(&delivered, Some(APP_SECRET)).await, 200);
    eventually("the pricing", || async {
        app.count(
            "select count(*) as n from messages where kind = 'reminder' and pricing_category = 'utility'",
        )
        .await
            == 1
    })
    .await;

    // PARAR on WhatsApp: the next month's check-in does not go.
    let parar = String::from_utf8(body.clone()).unwrap().replace("Oi! Quero abrir uma padaria.", "PARAR");
    let parar = parar.replace("wamid.", "wamid.parar.");
    assert_eq!(app.post_whatsapp_webhook(parar.as_bytes(), Some(APP_SECRET)).await, 200);
    eventually("stopped", || async {
        app.count("select count(*) as n from reminder_preferences where stopped_at is not null").await == 1
    })
    .await;
    assert_eq!(run(&app, "2026-12-01T09:00:00-03:00").await, 0);
}
on_both_engines!(parar_and_meta_s_own_stop_keep_every_reminder_from_going);

async fn the_cli_runs_the_scheduler_as_of_the_instant_it_is_given(db: TestDatabase) {
    let url = db.url.clone();
    let app = spawn_app(db).await;
    let token = mei(&app).await;
    agree(&app, &token, false, true).await;
    let cli = |now: &'static str| {
        let url = url.clone();
        async move {
            tokio::process::Command::new(env!("CARGO_BIN_EXE_socio"))
                .args(["reminders", "run", "--now", now])
                .env("DATABASE_URL", url)
                .env("JWT_SECRET", "test-secret-that-is-long-enough-0123456789")
                .env("RUST_LOG", "error")
                .output()
                .await
                .unwrap()
        }
    };
    let output = cli("2026-11-16T10:00:00-03:00").await;
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{said} {}", String::from_utf8_lossy(&output.stderr));
    assert!(said.contains("1 sent"), "{said}");
    let again = cli("2026-11-16T11:00:00-03:00").await;
    assert!(String::from_utf8_lossy(&again.stdout).contains("0 sent"));
    let wrong = cli("amanhã").await;
    assert!(!wrong.status.success() && String::from_utf8_lossy(&wrong.stderr).contains("RFC 3339"));
}
on_both_engines!(the_cli_runs_the_scheduler_as_of_the_instant_it_is_given);

async fn once_the_finance_step_is_done_the_consultant_offers_the_check_ins_once_and_sim_is_consent(
    db: TestDatabase,
) {
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "10".into())]).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let offer = "Quer que eu volte todo mês";
    app.say(ANA, "Oi").await;
    assert!(received_containing(&app, offer).await.is_empty(), "no offer before the finance step is done");

    let finance = json!({"financeData": {"monthlyFixedCosts": 8000, "averageTicket": 25, "variableCostPercent": 40, "expectedSalesPerMonth": 1000, "initialInvestment": 20000}, "completed": true});
    let (status, body) = app.call(Method::PUT, "/api/business-plan/finance", finance, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    app.say(ANA, "Quanto preciso vender para empatar?").await;
    eventually("the offer", || async { !received_containing(&app, offer).await.is_empty() }).await;
    let offered = received_containing(&app, offer).await;
    assert_eq!(offered[0].0, "interactive", "with answers to tap: {offered:?}");
    let (_, prefs) = app.call(Method::GET, "/api/reminders", Value::Null, Some(&token)).await;
    assert_eq!(prefs["data"]["reminders"]["monthlyCheckin"], false, "an offer is not consent");

    let answer = app.say(ANA, "Sim").await;
    assert!(answer.starts_with("Combinado! No primeiro dia útil de cada mês"), "{answer}");
    let (_, prefs) = app.call(Method::GET, "/api/reminders", Value::Null, Some(&token)).await;
    let on = &prefs["data"]["reminders"];
    assert_eq!(
        (on["monthlyCheckin"].as_bool(), on["taxReminders"].as_bool()),
        (Some(true), Some(true)),
        "{prefs}"
    );
    assert_eq!(
        app.count("select count(*) as n from reminder_preferences where consented_at is not null").await,
        1
    );

    // Offered once: the next answers carry no offer, and a later "sim" is the consultant's.
    app.say(ANA, "E o ponto de equilíbrio?").await;
    app.drain_jobs().await;
    assert_eq!(received_containing(&app, offer).await.len(), 1);
}
on_both_engines!(once_the_finance_step_is_done_the_consultant_offers_the_check_ins_once_and_sim_is_consent);

async fn the_guide_records_a_month_in_a_short_interview_started_by_resultados_or_by_the_check_in(
    db: TestDatabase,
) {
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "10".into())]).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let finance = json!({"financeData": {"monthlyFixedCosts": 8000, "averageTicket": 25, "variableCostPercent": 40, "expectedSalesPerMonth": 1000}});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/finance", finance, Some(&token)).await.0, 200);

    app.say_all(ANA, "Oi").await; // the welcome
    let asked = app.say(ANA, "resultados").await;
    assert!(asked.contains("Quanto você faturou no mês"), "{asked}");
    let costs = app.say(ANA, "uns 21 mil").await;
    assert!(costs.starts_with("Anotado! ✅") && costs.contains("custos e despesas"), "{costs}");
    let unreadable = app.say(ANA, "não sei ainda").await;
    assert!(unreadable.starts_with("Não consegui ler esse número"), "{unreadable}");
    let sales = app.say(ANA, "R$ 15.000").await;
    assert!(sales.contains("Quantas vendas"), "{sales}");
    let done = app.say(ANA, "840").await;
    assert!(done.contains("registrado") && done.contains("O plano previa"), "{done}");
    let (_, list) = app.call(Method::GET, "/api/results", Value::Null, Some(&token)).await;
    let month = &list["data"]["results"][0];
    assert_eq!(
        (month["revenue"].as_f64(), month["costs"].as_f64(), month["salesCount"].as_i64()),
        (Some(21000.0), Some(15000.0), Some(840)),
        "{list}"
    );

    // The check-in's answer starts it too, taking the first figure as the revenue.
    sqlx::query("delete from month_results").execute(app.db.pool()).await.unwrap();
    agree(&app, &token, true, false).await;
    let at = socio::plan::month::YearMonth::current(app.db.now_ms());
    let first_business_day = socio::plan::tracking::calendar::checkin_day(
        at.year,
        at.month,
        &Default::default(),
        socio::facts::calendar(),
    );
    let nine = socio::clock::CivilDate::starts_at(first_business_day) + 9 * 3_600_000;
    assert_eq!(
        socio::conversation::proactive::Proactive::new(app.db.clone()).run(nine).await.unwrap().sent,
        1
    );
    eventually("the check-in", || async { !received_containing(&app, "no seu negócio?").await.is_empty() })
        .await;
    let next = app.say(ANA, "Fechei com 18 mil").await;
    assert!(next.starts_with("Anotado! ✅") && next.contains("custos e despesas"), "{next}");
}
on_both_engines!(the_guide_records_a_month_in_a_short_interview_started_by_resultados_or_by_the_check_in);

async fn in_january_a_mei_whose_year_passed_the_ceiling_sees_what_to_do_and_by_when_on_the_card_and_whatsapp(
    db: TestDatabase,
) {
    let app = spawn_app(db).await;
    app.db.clock().set(instant("2026-12-28T10:00:00-03:00"));
    let token = mei(&app).await;
    let legal = json!({"legalData": {"businessType": "mei", "taxRegime": "simei", "activity": "services"}});
    let (status, body) = app.call(Method::PUT, "/api/business-plan/legal", legal, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    // 2026 month by month at R$ 7.500: R$ 90.000, over R$ 81.000 within the 20 % tolerance,
    // passed in November (11 × 7.500 = 82.500).
    for month in 1..=12 {
        record(&app, &token, &format!("2026-{month:02}"), 7_500.0).await;
    }
    agree(&app, &token, false, true).await;
    // 5 January 2027, a Tuesday, 10:00 in São Paulo: the new year has no month recorded yet.
    app.db.clock().set(instant("2027-01-05T10:00:00-03:00"));
    let (token, _) = app.login(ANA).await;
    let (status, list) = app.call(Method::GET, "/api/results", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{list}");
    let card = &list["data"]["ceiling"];
    assert_eq!(card["closed"], true, "{list}");
    assert_eq!((card["year"].as_i64(), card["projectedRevenue"].as_f64()), (Some(2026), Some(90_000.0)));
    // The report was due on the last business day of December (Thursday 31/12/2026); the DAS on
    // the excess, 6 % of R$ 9.000, goes with January's DAS on the 20th of February — a Saturday in
    // 2027, so Monday the 22nd.
    assert_eq!((card["reportBy"].as_str(), card["excessTax"].as_f64()), (Some("2026-12-31"), Some(540.0)));
    assert_eq!(card["excessTaxDue"], "2027-02-22", "{list}");
    let action = card["action"].as_str().unwrap();
    assert!(action.contains("o prazo era 31/12/2026") && action.contains("22/02/2027"), "{action}");

    // On WhatsApp, once for 2026, with the same words.
    assert_eq!(run(&app, "2027-01-05T10:00:00-03:00").await, 1);
    assert_eq!(run(&app, "2027-01-06T10:00:00-03:00").await, 0, "once for the year");
    eventually("the year's notice", || async {
        !received_containing(&app, "DAS do excesso").await.is_empty()
    })
    .await;
    let sent = received_containing(&app, "DAS do excesso").await;
    assert!(sent[0].1.contains("540,00") && sent[0].1.contains("22/02/2027"), "{sent:?}");
    assert!(
        sent[0].1.chars().count() <= 1024,
        "a template's body holds 1,024 characters: {}",
        sent[0].1.len()
    );

    // In March the card is this year's again (none without a month recorded).
    app.db.clock().set(instant("2027-03-02T10:00:00-03:00"));
    let (token, _) = app.login(ANA).await;
    let (_, list) = app.call(Method::GET, "/api/results", Value::Null, Some(&token)).await;
    assert!(list["data"]["ceiling"].is_null(), "{list}");
}
on_both_engines!(
    in_january_a_mei_whose_year_passed_the_ceiling_sees_what_to_do_and_by_when_on_the_card_and_whatsapp
);

/// The MEI of the accountant's table (issue 61): R$ 7.500 a month in 2026 (R$ 90.000, within the
/// 20 % tolerance), the limit crossed in November (11 × 7.500 = 82.500 > 81.000). On 1 December the
/// card and a reminder say to report by the last business day of December (LC 123/2006 art. 18-A
/// §7º III; Res. CGSN 140/2018 art. 115); from January she is an ME in the Simples Nacional (Annex I:
/// 4 % × R$ 7.500 = R$ 300 a month, LC 123/2006 Anexo I), reminded of December's DAS-MEI in January
/// and of the PGDAS-D from February, never of the DAS-MEI again.
async fn a_mei_past_the_ceiling_is_told_the_deadline_that_month_and_is_taxed_and_reminded_as_an_me_from_january(
    db: TestDatabase,
) {
    let app = spawn_app(db).await;
    app.db.clock().set(instant("2026-12-01T09:30:00-03:00"));
    let token = mei(&app).await;
    let legal = json!({"legalData": {"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}});
    let finance = json!({"financeData": {"monthlyFixedCosts": 1000, "averageTicket": 50, "expectedSalesPerMonth": 150}});
    for (step, body) in [("legal", legal), ("finance", finance)] {
        let (status, answer) =
            app.call(Method::PUT, &format!("/api/business-plan/{step}"), body, Some(&token)).await;
        assert_eq!(status, 200, "{answer}");
    }
    for month in 1..=11 {
        record(&app, &token, &format!("2026-{month:02}"), 7_500.0).await;
    }
    agree(&app, &token, false, true).await;
    let (status, list) = app.call(Method::GET, "/api/results", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{list}");
    let card = &list["data"]["ceiling"];
    assert_eq!((card["closed"].as_bool(), card["passed"].as_bool()), (Some(false), Some(true)), "{list}");
    assert_eq!(card["reportBy"], "2026-12-31", "{list}");
    // Within the tolerance at their pace (12 × 7.500 = 90.000): 4 % of the R$ 9.000 excess = R$ 360
    // with January's DAS, due Monday 22/02/2027.
    assert_eq!(
        (card["excessTax"].as_f64(), card["excessTaxDue"].as_str()),
        (Some(360.0), Some("2027-02-22"))
    );
    let action = card["action"].as_str().unwrap();
    for said in ["até 31/12/2026", "1º de janeiro de 2027", "ME no Simples Nacional", "360,00"] {
        assert!(action.contains(said), "{said}: {action}");
    }
    // On WhatsApp the same day, once.
    assert_eq!(run(&app, "2026-12-01T10:00:00-03:00").await, 1);
    assert_eq!(run(&app, "2026-12-02T10:00:00-03:00").await, 0, "once for the month it passed");
    eventually("the deadline", || async { !received_containing(&app, "até 31/12/2026").await.is_empty() })
        .await;
    let sent = received_containing(&app, "até 31/12/2026").await;
    assert!(sent[0].1.chars().count() <= 1024, "a template's body holds 1,024 characters: {}", sent[0].1);

    // 5 January 2027: December recorded, the year closed at R$ 90.000 — an ME since 1 January.
    app.db.clock().set(instant("2027-01-05T09:00:00-03:00"));
    let (token, _) = app.login(ANA).await;
    record(&app, &token, "2026-12", 7_500.0).await;
    let (_, plan) = app.call(Method::GET, "/api/business-plan", Value::Null, Some(&token)).await;
    let tax = &plan["data"]["businessPlan"]["financeAnalysis"]["tax"];
    assert_eq!(
        (tax["regime"].as_str(), tax["annex"].as_str()),
        (Some("simples_nacional"), Some("I")),
        "{tax}"
    );
    let das = tax["lines"].as_array().unwrap().iter().find(|l| l["code"] == "das").unwrap();
    assert_eq!(das["amount"].as_f64(), Some(300.0), "{tax}");
    assert!(
        tax["explanation"].as_str().unwrap().contains("Desde 1º de janeiro de 2027 o negócio é ME"),
        "{tax}"
    );
    // December's DAS-MEI is still hers, in January; from February the PGDAS-D, not the DAS-MEI.
    assert!(run(&app, "2027-01-15T10:00:00-03:00").await >= 1);
    eventually("December's DAS", || async {
        !received_containing(&app, "DAS do MEI de dezembro").await.is_empty()
    })
    .await;
    assert!(run(&app, "2027-02-15T10:00:00-03:00").await >= 1);
    eventually("the PGDAS-D", || async { !received_containing(&app, "PGDAS-D").await.is_empty() }).await;
    assert!(
        received_containing(&app, "DAS do MEI de janeiro").await.is_empty(),
        "{:?}",
        received(&app).await
    );

    // The owner says otherwise: a Legal step saved since 1 January that still says MEI is hers.
    app.db.clock().set(instant("2027-02-16T09:00:00-03:00"));
    let (token, _) = app.login(ANA).await;
    let legal = json!({"legalData": {"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}});
    let (status, _) = app.call(Method::PUT, "/api/business-plan/legal", legal, Some(&token)).await;
    assert_eq!(status, 200);
    let (_, plan) = app.call(Method::GET, "/api/business-plan", Value::Null, Some(&token)).await;
    assert_eq!(plan["data"]["businessPlan"]["financeAnalysis"]["tax"]["regime"], "mei");
}
on_both_engines!(
    a_mei_past_the_ceiling_is_told_the_deadline_that_month_and_is_taxed_and_reminded_as_an_me_from_january
);
