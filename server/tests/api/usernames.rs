//! WhatsApp as it is in late 2026, against the fake Graph API: people who arrive with a
//! business-scoped user id (BSUID) and a username but no number, deliveries that mix them with
//! everyone else, one person seen in three shapes, a number change that brings a new BSUID, links
//! without a number, and what each message cost.

use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Row;

use crate::{
    fake_graph::{APP_SECRET, FakeGraph, PHONE_NUMBER_ID},
    helpers::{TestApp, TestDatabase, eventually, fixture, spawn_app_with},
    on_both_engines,
};

const BIA: &str = "BR.1502576394655843";
const ANA: &str = "5511987654321";
const ANA_BSUID: &str = "BR.2716354091827364";

/// A text from a person as Meta delivers it: `wa_id` and/or BSUID, and a username when given.
fn delivery(
    wa_id: Option<&str>,
    bsuid: Option<&str>,
    username: Option<&str>,
    id: &str,
    text: &str,
) -> Vec<u8> {
    let mut contact = json!({ "profile": { "name": "Bia Doces" } });
    let mut message =
        json!({ "id": id, "timestamp": "1795253580", "type": "text", "text": { "body": text } });
    if let Some(wa_id) = wa_id {
        contact["wa_id"] = json!(wa_id);
        message["from"] = json!(wa_id);
    }
    if let Some(bsuid) = bsuid {
        contact["user_id"] = json!(bsuid);
        message["from_user_id"] = json!(bsuid);
    }
    if let Some(username) = username {
        contact["profile"]["username"] = json!(username);
    }
    json!({
        "object": "whatsapp_business_account",
        "entry": [{ "id": "1", "changes": [{ "field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": { "display_phone_number": "5511900000000", "phone_number_id": PHONE_NUMBER_ID },
            "contacts": [contact],
            "messages": [message]
        }}]}]
    })
    .to_string()
    .into_bytes()
}

const ADMIN: &str = "+5531999990000";

async fn cloud_app(db: TestDatabase) -> (TestApp, FakeGraph) {
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    config.push(("ADMIN_PHONES", ADMIN.into()));
    let app = spawn_app_with(db, &config).await;
    (app, graph)
}

/// An admin's access token: the login code goes out as Meta's authentication template.
async fn admin_token(app: &TestApp, graph: &FakeGraph) -> String {
    assert_eq!(app.send_code(ADMIN).await.0, 200);
    let sent = graph.requests();
    let template = sent.iter().rev().find(|r| r.body["type"] == "template").expect("the login code");
    let code =
        template.body["template"]["components"][0]["parameters"][0]["text"].as_str().unwrap().to_owned();
    let (status, body) = app.verify(ADMIN, &code).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["token"].as_str().unwrap().to_owned()
}

/// (phone_number, bsuid, username) of every user but the admin, oldest first.
async fn people(app: &TestApp) -> Vec<(Option<String>, Option<String>, Option<String>)> {
    sqlx::query(
        "select phone_number, bsuid, username from users where role <> 'admin' order by created_at, id",
    )
    .fetch_all(app.db.pool())
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get("phone_number"), r.get("bsuid"), r.get("username")))
    .collect()
}

async fn someone_without_a_visible_number_is_kept_once_and_answered_through_their_business_scoped_id(
    db: TestDatabase,
) {
    let (app, graph) = cloud_app(db).await;
    let body = fixture("whatsapp/inbound-username-only.json");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200, "Meta's retry");
    assert_eq!(app.count("select count(*) as n from messages where direction = 'inbound'").await, 1);
    assert_eq!(people(&app).await, [(None, Some(BIA.into()), Some("@bia.doces".into()))]);

    let requests = graph.wait_for_requests(1).await;
    let sent = &requests[0].body;
    assert_eq!(sent["recipient"], BIA, "{sent}");
    assert!(sent.get("to").is_none(), "only one address: {sent}");
    let text = sent["text"]["body"].as_str().unwrap();
    assert!(text.starts_with("Olá, Bia! 👋"), "{text}");
    assert!(text.contains("/checkout?link="), "a checkout link without a number: {text}");
    assert!(text.contains("consultor de negócios com IA"), "{text}");
    app.drain_jobs().await;
    assert_eq!(graph.requests().len(), 1, "answered once");
}
on_both_engines!(someone_without_a_visible_number_is_kept_once_and_answered_through_their_business_scoped_id);

async fn a_delivery_mixing_a_username_person_an_ordinary_one_and_an_unreadable_message_loses_nothing(
    db: TestDatabase,
) {
    let (app, graph) = cloud_app(db).await;
    let body = fixture("whatsapp/inbound-mixed-batch.json");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    let kinds: Vec<String> =
        sqlx::query("select kind from messages where direction = 'inbound' order by created_at")
            .fetch_all(app.db.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| r.get("kind"))
            .collect();
    assert_eq!(kinds, ["text", "text", "unsupported"], "the unreadable one is kept too");
    assert_eq!(app.count("select count(*) as n from users where role <> 'admin'").await, 2);
    let requests = graph.wait_for_requests(2).await;
    let mut addressed: Vec<String> = requests
        .iter()
        .map(|r| r.body["recipient"].as_str().or(r.body["to"].as_str()).unwrap().to_owned())
        .collect();
    addressed.sort();
    assert_eq!(addressed, [ANA.to_owned(), BIA.to_owned()], "both people answered");
}
on_both_engines!(a_delivery_mixing_a_username_person_an_ordinary_one_and_an_unreadable_message_loses_nothing);

async fn one_person_is_one_account_whether_whatsapp_shows_their_number_their_id_or_both(db: TestDatabase) {
    let (app, _graph) = cloud_app(db).await;
    let post = |body: Vec<u8>| {
        let app = &app;
        async move { assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200) }
    };
    // Known by number first (before BSUIDs), then both, then only the BSUID with a username.
    post(delivery(Some(ANA), None, None, "wamid.shape.1", "Oi")).await;
    post(delivery(Some(ANA), Some(ANA_BSUID), None, "wamid.shape.2", "Tudo bem?")).await;
    post(delivery(None, Some(ANA_BSUID), Some("@ana.lima"), "wamid.shape.3", "Agora tenho username")).await;
    assert_eq!(
        people(&app).await,
        [(Some(format!("+{ANA}")), Some(ANA_BSUID.into()), Some("@ana.lima".into()))],
        "one account that learnt each thing WhatsApp showed"
    );
    assert_eq!(app.count("select count(*) as n from messages where direction = 'inbound'").await, 3);

    // The other way round: first only the BSUID, later the number.
    post(delivery(None, Some(BIA), Some("@bia.doces"), "wamid.shape.4", "Oi")).await;
    post(delivery(Some("5521987654321"), Some(BIA), None, "wamid.shape.5", "Meu número apareceu")).await;
    let bia: Vec<_> = people(&app).await.into_iter().filter(|p| p.1.as_deref() == Some(BIA)).collect();
    assert_eq!(bia, [(Some("+5521987654321".into()), Some(BIA.into()), Some("@bia.doces".into()))]);
    assert_eq!(app.count("select count(*) as n from users where role <> 'admin'").await, 2);
}
on_both_engines!(one_person_is_one_account_whether_whatsapp_shows_their_number_their_id_or_both);

async fn an_account_made_without_the_number_joins_the_number_s_account_when_both_show(db: TestDatabase) {
    let (app, _graph) = cloud_app(db).await;
    // An account by number (a Pro customer), and one WhatsApp showed only by BSUID.
    let ana = app.make_pro(&format!("+{ANA}"), socio::locale::Language::PtBr).await;
    let body = delivery(None, Some(ANA_BSUID), Some("@ana.lima"), "wamid.join.1", "Oi, sou a Ana");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    assert_eq!(app.count("select count(*) as n from users where role <> 'admin'").await, 2);
    // A delivery shows both: one person.
    let body = delivery(Some(ANA), Some(ANA_BSUID), Some("@ana.lima"), "wamid.join.2", "De novo");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    assert_eq!(
        people(&app).await,
        [(Some(format!("+{ANA}")), Some(ANA_BSUID.into()), Some("@ana.lima".into()))]
    );
    let theirs = app
        .count(&format!(
            "select count(*) as n from messages where user_id = '{ana}' and direction = 'inbound'"
        ))
        .await;
    assert_eq!(theirs, 2, "the conversation of the joined account is the Pro account's");
    assert_eq!(app.tier_of(&format!("+{ANA}")).await, "pro");
}
on_both_engines!(an_account_made_without_the_number_joins_the_number_s_account_when_both_show);

async fn a_number_change_gives_the_same_account_the_new_number_and_the_new_business_scoped_id(
    db: TestDatabase,
) {
    let (app, graph) = cloud_app(db).await;
    let body = delivery(Some(ANA), Some(ANA_BSUID), None, "wamid.change.1", "Oi");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    let notice = fixture("whatsapp/inbound-system-user-changed-number-bsuid.json");
    assert_eq!(app.post_whatsapp_webhook(&notice, Some(APP_SECRET)).await, 200);
    assert_eq!(
        people(&app).await,
        [(Some("+5511976543210".into()), Some("BR.9988776655443322".into()), None)]
    );
    // Later they write with a username and the new BSUID only: still them.
    let body = delivery(None, Some("BR.9988776655443322"), Some("@ana.nova"), "wamid.change.2", "Voltei");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    assert_eq!(app.count("select count(*) as n from users where role <> 'admin'").await, 1);
    app.drain_jobs().await;
    let last = graph.requests().last().unwrap().body.clone();
    assert_eq!(last["to"], "5511976543210", "a number WhatsApp shows is still where messages go: {last}");
}
on_both_engines!(a_number_change_gives_the_same_account_the_new_number_and_the_new_business_scoped_id);

async fn what_meta_billed_each_message_as_is_kept_and_counted_per_day(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    let body = fixture("whatsapp/inbound-username-only.json");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    graph.wait_for_requests(1).await;
    eventually("the welcome is sent", || async {
        app.count("select count(*) as n from messages where wa_message_id = 'wamid.fake.1'").await == 1
    })
    .await;
    assert_eq!(app.post_whatsapp_webhook(&graph.status_webhook(1, "delivered"), Some(APP_SECRET)).await, 200);
    let row = sqlx::query("select status, billable, pricing_category, pricing_type from messages where wa_message_id = 'wamid.fake.1'")
        .fetch_one(app.db.pool())
        .await
        .unwrap();
    assert_eq!(row.get::<String, _>("status"), "delivered");
    assert_eq!(row.get::<Option<i32>, _>("billable"), Some(0), "a reply in the window is free");
    assert_eq!(row.get::<Option<String>, _>("pricing_category").as_deref(), Some("service"));
    assert_eq!(row.get::<Option<String>, _>("pricing_type").as_deref(), Some("free_customer_service"));

    // A billable utility template, reported on a later status.
    sqlx::query("update messages set wa_message_id = 'wamid.fake.7' where wa_message_id = 'wamid.fake.1'")
        .execute(app.db.pool())
        .await
        .unwrap();
    let billed = String::from_utf8(fixture("whatsapp/status-billable-utility-bsuid.json"))
        .unwrap()
        .replace("wamid.HBgLQlIuMTUwMjU3NjM5NDY1NTg0MxUCABEYEk9VVDAwMDAwMDAwMDAwMDAwMgA=", "wamid.fake.7");
    assert_eq!(app.post_whatsapp_webhook(billed.as_bytes(), Some(APP_SECRET)).await, 200);
    let token = admin_token(&app, &graph).await;
    let (status, analytics) = app.call(Method::GET, "/api/admin/analytics", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{analytics}");
    let days = analytics["data"]["billableMessagesPerDay"].as_array().cloned().unwrap_or_default();
    assert_eq!(days.len(), 30, "every day of the window");
    let utility: i64 = days.iter().map(|d| d["utility"].as_i64().unwrap_or(0)).sum();
    // The welcome (free, in the window) and the admin's login code (authentication) are the others.
    assert_eq!(utility, 1, "{analytics}");
    assert!(analytics["data"]["estimatedCostBrl"].as_f64().unwrap() > 0.0, "{analytics}");
}
on_both_engines!(what_meta_billed_each_message_as_is_kept_and_counted_per_day);

async fn admins_find_people_by_their_username(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    let body = fixture("whatsapp/inbound-username-only.json");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    let token = admin_token(&app, &graph).await;
    let (status, found) =
        app.call(Method::GET, "/api/admin/users?search=bia.doces", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{found}");
    let users = found["data"]["users"].as_array().unwrap();
    assert_eq!(users.len(), 1, "{found}");
    assert_eq!(
        (users[0]["username"].as_str(), users[0]["phoneNumber"].as_str()),
        (Some("@bia.doces"), Some(""))
    );
    let (_, none) = app.call(Method::GET, "/api/admin/users?search=%25", Value::Null, Some(&token)).await;
    assert_eq!(none["data"]["total"], 0, "a % is a literal, not a wildcard: {none}");
}
on_both_engines!(admins_find_people_by_their_username);

async fn a_checkout_link_names_a_person_without_a_number_and_nobody_else(db: TestDatabase) {
    let (app, graph) = cloud_app(db).await;
    let body = fixture("whatsapp/inbound-username-only.json");
    assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    let requests = graph.wait_for_requests(1).await;
    let text = requests[0].body["text"]["body"].as_str().unwrap().to_owned();
    let link = text.split("/checkout?link=").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    let checkout = |link: String| {
        let body = json!({"planType": "pro", "link": link, "language": "pt-BR"});
        app.call(Method::POST, "/api/subscriptions/checkout", body, None)
    };
    let (status, paid) = checkout(link.clone()).await;
    assert_eq!(status, 200, "{paid}");
    assert!(paid["data"]["checkoutUrl"].as_str().unwrap().contains("/checkout/sandbox/"), "{paid}");
    let mut forged = link.clone();
    forged.replace_range(0..1, if link.starts_with('A') { "B" } else { "A" });
    let (status, refused) = checkout(forged).await;
    assert_eq!((status, refused["error"].as_str()), (400, Some("INVALID_ARGUMENT")), "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("link"), "{refused}");
}
on_both_engines!(a_checkout_link_names_a_person_without_a_number_and_nobody_else);
