//! One person, one account, however their number is spelt: Brazilian mobiles with and without the
//! ninth digit (older WhatsApp accounts have 12-digit `wa_id`s, people type 13 digits), WhatsApp's
//! `user_changed_number` notice moving an account, and migration 0011 finding accounts that were
//! one person all along. Deliveries are Meta's documented payloads (tests/fixtures/whatsapp).

use std::borrow::Cow;

use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Row;

use crate::{
    fake_graph::{APP_SECRET, FakeGraph},
    helpers::{TestApp, TestDatabase, eventually, fixture, spawn_app_with},
    on_both_engines,
};

/// Carla's WhatsApp account predates the ninth digit: Meta delivers her as `553187654321`.
const CARLA_WA_ID: &str = "+553187654321";
/// What Carla types: `(31) 98765-4321`.
const CARLA_TYPED: &str = "(31) 98765-4321";
const CARLA_NEW: &str = "+5531976543210";

fn quick() -> Vec<(&'static str, String)> {
    vec![("WHATSAPP_BATCH_WINDOW_MS", "10".into())]
}

/// Carla writes to us for the first time, as Meta delivers it (no signature needed in dev mode).
async fn carla_writes(app: &TestApp) {
    assert_eq!(app.post_whatsapp_webhook(&fixture("whatsapp/inbound-text-old-number.json"), None).await, 200);
}

fn text_from(wa_id: &str, id: &str, text: &str) -> Vec<u8> {
    json!({
        "object": "whatsapp_business_account",
        "entry": [{ "id": "1", "changes": [{ "field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": { "display_phone_number": "5511900000000", "phone_number_id": "106540352242922" },
            "contacts": [{ "profile": { "name": "Carla Souza" }, "wa_id": wa_id }],
            "messages": [{ "from": wa_id, "id": id, "timestamp": "1795253580", "type": "text", "text": { "body": text } }]
        }}]}]
    })
    .to_string()
    .into_bytes()
}

async fn users(app: &TestApp) -> i64 {
    app.count("select count(*) as n from users").await
}

async fn an_older_account_without_the_ninth_digit_logs_in_typing_it_and_the_code_goes_to_its_wa_id(
    db: TestDatabase,
) {
    let graph = FakeGraph::start().await;
    graph.add_account("553187654321");
    let app = spawn_app_with(db, &graph.cloud_config()).await;
    let delivery = fixture("whatsapp/inbound-text-old-number.json");
    assert_eq!(app.post_whatsapp_webhook(&delivery, Some(APP_SECRET)).await, 200);
    assert_eq!(app.user_column(CARLA_WA_ID, "phone_number").await, CARLA_WA_ID, "kept as delivered");
    let welcome = graph.wait_for_requests(1).await;
    assert_eq!(welcome[0].body["to"], "553187654321");

    let (status, body) = app.send_code(CARLA_TYPED).await;
    assert_eq!(status, 200, "typing the ninth digit finds the account: {body}");
    let sent = graph.wait_for_requests(2).await;
    let template = &sent[1].body;
    assert_eq!(template["type"], "template");
    assert_eq!(template["to"], "553187654321", "the code goes to the wa_id WhatsApp knows");
    let code = template["template"]["components"][0]["parameters"][0]["text"].as_str().unwrap().to_owned();
    let (status, body) = app.verify("+55 31 98765-4321", &code).await;
    assert_eq!(status, 200, "{body}");
    let (_, who) = app.me(body["data"]["token"].as_str().unwrap()).await;
    assert_eq!(who["data"]["user"]["name"], "Carla Souza");
    assert_eq!(users(&app).await, 1);
}
on_both_engines!(an_older_account_without_the_ninth_digit_logs_in_typing_it_and_the_code_goes_to_its_wa_id);

async fn an_account_with_the_ninth_digit_logs_in_typed_without_it_and_the_code_goes_to_its_wa_id(
    db: TestDatabase,
) {
    let app = spawn_app_with(db, &quick()).await;
    let hello = json!({"from": "+5531987654321", "name": "Carla Souza", "text": "Oi"}).to_string();
    app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &hello).await;

    let (status, body) = app.send_code("+55 31 8765-4321").await;
    assert_eq!(status, 200, "{body}");
    assert!(
        app.outbox_messages(CARLA_WA_ID).await.is_empty(),
        "nothing goes to a spelling WhatsApp did not give"
    );
    let code = app.code_in_outbox("+5531987654321").await;
    let (status, body) = app.verify("553187654321", &code).await;
    assert_eq!(status, 200, "{body}");

    // Both spellings are one person: one code, one cooldown.
    let (status, _) = app.send_code("+5531987654321").await;
    assert_eq!(status, 429, "the other spelling shares the minute's cooldown");
    assert_eq!(app.count("select count(*) as n from login_codes").await, 1);
}
on_both_engines!(an_account_with_the_ninth_digit_logs_in_typed_without_it_and_the_code_goes_to_its_wa_id);

async fn checkout_and_admin_search_find_the_account_in_either_spelling(db: TestDatabase) {
    let mut config = quick();
    config.push(("ADMIN_PHONES", "+5531999990000".into()));
    let app = spawn_app_with(db, &config).await;
    carla_writes(&app).await;
    for typed in ["+5531987654321", "31987654321"] {
        let (status, body) = app
            .call(
                Method::POST,
                "/api/subscriptions/checkout",
                json!({"planType": "pro", "phoneNumber": typed}),
                None,
            )
            .await;
        assert_eq!(status, 200, "{typed}: {body}");
        assert!(body["data"]["checkoutUrl"].as_str().unwrap().contains("/checkout/sandbox/"));
    }
    let (admin, _) = app.login("+5531999990000").await;
    for search in ["(31) 98765-4321", "31 8765-4321", "553187654321", "5531987654321"] {
        let search = percent_encoding::utf8_percent_encode(search, percent_encoding::NON_ALPHANUMERIC);
        let path = format!("/api/admin/users?search={search}");
        let (status, body) = app.call(Method::GET, &path, Value::Null, Some(&admin)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["total"], 1, "{search}");
        assert_eq!(body["data"]["users"][0]["name"], "Carla Souza");
    }
}
on_both_engines!(checkout_and_admin_search_find_the_account_in_either_spelling);

async fn an_admin_number_typed_with_the_ninth_digit_is_the_account_whatsapp_delivers_without_it(
    db: TestDatabase,
) {
    let mut config = quick();
    config.push(("ADMIN_PHONES", "+5531987654321".into()));
    let app = spawn_app_with(db, &config).await;
    carla_writes(&app).await;
    assert_eq!(users(&app).await, 1, "one person, one account");
    assert_eq!(app.user_column(CARLA_WA_ID, "role").await, "admin");
    assert_eq!(app.user_column(CARLA_WA_ID, "name").await, "Carla Souza");
    eventually("the welcome goes to the wa_id WhatsApp delivered", || async {
        !app.outbox_messages(CARLA_WA_ID).await.is_empty()
    })
    .await;
    let (token, _) = app.login(CARLA_WA_ID).await;
    let (_, who) = app.me(&token).await;
    assert_eq!(who["data"]["user"]["role"], "admin");

    // `socio admin promote` and a restart with ADMIN_PHONES resolve through the same key.
    let database = app.stop().await;
    let app = spawn_app_with(database, &config).await;
    assert_eq!(users(&app).await, 1);
    assert_eq!(app.user_column(CARLA_WA_ID, "phone_number").await, CARLA_WA_ID);
}
on_both_engines!(an_admin_number_typed_with_the_ninth_digit_is_the_account_whatsapp_delivers_without_it);

async fn socio_admin_promote_typed_with_the_ninth_digit_promotes_the_account_whatsapp_knows(
    db: TestDatabase,
) {
    let app = spawn_app_with(db, &quick()).await;
    carla_writes(&app).await;
    let database = app.stop().await;
    let promoted = std::process::Command::new(env!("CARGO_BIN_EXE_socio"))
        .args(["admin", "promote", "(31) 98765-4321"])
        .env("DATABASE_URL", &database.url)
        .env("JWT_SECRET", "test-secret-that-is-long-enough-0123456789")
        .output()
        .expect("the socio binary runs");
    assert!(promoted.status.success(), "{}", String::from_utf8_lossy(&promoted.stderr));
    assert!(String::from_utf8_lossy(&promoted.stdout).contains("+553187654321 is now an admin"));
    let app = spawn_app_with(database, &quick()).await;
    assert_eq!(users(&app).await, 1);
    assert_eq!(app.user_column(CARLA_WA_ID, "role").await, "admin");
}
on_both_engines!(socio_admin_promote_typed_with_the_ninth_digit_promotes_the_account_whatsapp_knows);

/// Runs the migrations up to 0010 (before numbers had an identity), then `fill`, then the rest.
async fn database_from_before_identities(db: &TestDatabase, fill: &[&str]) {
    let engine = if db.is_postgres() { "postgres" } else { "sqlite" };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../migrations/{engine}"));
    let mut before = sqlx::migrate::Migrator::new(dir).await.unwrap();
    before.migrations = Cow::Owned(before.migrations.iter().filter(|m| m.version <= 10).cloned().collect());
    let old = socio::db::Db::connect(&db.url).await.unwrap();
    before.run(old.pool()).await.unwrap();
    for sql in fill {
        sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).execute(old.pool()).await.unwrap();
    }
    old.close().await;
}

async fn two_accounts_of_one_person_are_reported_by_the_migration_never_merged(db: TestDatabase) {
    database_from_before_identities(
        &db,
        &[
            // The same person twice (typed by an admin, then as WhatsApp delivers her), a landline
            // whose 13-digit look-alike is someone else, and an unrelated mobile.
            "insert into users (id, phone_number, name, created_at, updated_at, last_active_at, search_key) values ('u-typed', '+5531987654321', '', 1000, 1000, null, '')",
            "insert into users (id, phone_number, name, created_at, updated_at, last_active_at, search_key) values ('u-whatsapp', '+553187654321', 'Carla Souza', 2000, 2000, 5000, '')",
            "insert into users (id, phone_number, name, created_at, updated_at, search_key) values ('u-landline', '+553134567890', 'Padaria', 1000, 1000, '')",
            "insert into users (id, phone_number, name, created_at, updated_at, search_key) values ('u-other', '+5531934567890', 'Bruno', 1000, 1000, '')",
            "insert into login_codes (id, phone_number, code_hash, attempts, expires_at, created_at) values ('c1', '+553187654321', 'x', 0, 1, 1)",
        ],
    )
    .await;
    let app = spawn_app_with(db, &quick()).await;
    assert_eq!(users(&app).await, 4, "nobody merged, nobody lost");
    let conflicts = sqlx::query("select user_id, kept_user_id, phone_key from phone_key_conflicts")
        .fetch_all(app.db.pool())
        .await
        .unwrap();
    assert_eq!(conflicts.len(), 1);
    let (lost, kept, key): (String, String, String) =
        (conflicts[0].get("user_id"), conflicts[0].get("kept_user_id"), conflicts[0].get("phone_key"));
    assert_eq!((lost.as_str(), kept.as_str(), key.as_str()), ("u-typed", "u-whatsapp", "+5531987654321"));
    let key_of = |id: &'static str| {
        let db = app.db.clone();
        async move {
            sqlx::query("select phone_key from users where id = $1")
                .bind(id)
                .fetch_one(db.pool())
                .await
                .unwrap()
                .get::<String, _>("phone_key")
        }
    };
    assert_eq!(key_of("u-whatsapp").await, "+5531987654321", "the most recently active keeps the number");
    assert_eq!(key_of("u-landline").await, "+553134567890", "a landline keeps eight digits");
    assert_eq!(key_of("u-other").await, "+5531934567890");
    assert_eq!(
        app.count("select count(*) as n from login_codes where phone_number = '+5531987654321'").await,
        1,
        "codes belong to the person"
    );
    // The number logs into the account WhatsApp knows, in either spelling.
    let (status, _) = app.send_code(CARLA_TYPED).await;
    assert_eq!(status, 200);
    let code = app.code_in_outbox(CARLA_WA_ID).await;
    let (_, body) = app.verify(CARLA_WA_ID, &code).await;
    let (_, who) = app.me(body["data"]["token"].as_str().unwrap()).await;
    assert_eq!(who["data"]["user"]["id"], "u-whatsapp");
    // A second account for the same key cannot be made any more.
    let dup = sqlx::query("insert into users (id, phone_number, phone_key, created_at, updated_at) values ('x', '+5531987654321', '+5531987654321', 1, 1)")
        .execute(app.db.pool())
        .await;
    assert!(dup.is_err(), "the key is unique");
}
on_both_engines!(two_accounts_of_one_person_are_reported_by_the_migration_never_merged);

async fn notice(app: &TestApp) -> u16 {
    app.post_whatsapp_webhook(&fixture("whatsapp/inbound-system-user-changed-number.json"), None).await
}

/// Once the job queue has nothing left to do, counts what went out to anyone.
async fn sent_after_a_while(app: &TestApp) -> i64 {
    app.drain_jobs().await;
    app.count("select count(*) as n from whatsapp_outbox").await
}

async fn a_number_change_moves_the_account_with_its_sessions_and_is_never_answered(db: TestDatabase) {
    let app = spawn_app_with(db, &quick()).await;
    carla_writes(&app).await;
    app.make_pro(CARLA_WA_ID, socio::locale::Language::PtBr).await;
    let id = app.user_column(CARLA_WA_ID, "id").await;
    let (token, _) = app.login(CARLA_WA_ID).await;
    let sent = sent_after_a_while(&app).await;

    assert_eq!(notice(&app).await, 200);
    assert_eq!(sent_after_a_while(&app).await, sent, "a system notice is never answered");
    assert_eq!(app.count("select count(*) as n from messages where kind = 'system'").await, 0);
    assert_eq!(app.count("select count(*) as n from whatsapp_notices").await, 1, "it is kept");
    assert_eq!(app.user_column(CARLA_NEW, "id").await, id, "the same account, at the new number");
    assert_eq!(app.tier_of(CARLA_NEW).await, "pro", "with what she paid for");
    let (status, who) = app.me(&token).await;
    assert_eq!(status, 200, "her session goes on");
    assert_eq!(who["data"]["user"]["phoneNumber"], CARLA_NEW);
    let (status, body) = app.send_code(CARLA_TYPED).await;
    assert_eq!(status, 404, "the old number is nobody's now: {body}");
    app.login("(31) 97654-3210").await;

    assert_eq!(notice(&app).await, 200, "a redelivery is acknowledged");
    assert_eq!(app.count("select count(*) as n from whatsapp_notices").await, 1, "and changes nothing");
    assert_eq!(users(&app).await, 1);
}
on_both_engines!(a_number_change_moves_the_account_with_its_sessions_and_is_never_answered);

async fn what_the_new_number_wrote_before_the_notice_joins_the_moving_account(db: TestDatabase) {
    let app = spawn_app_with(db, &quick()).await;
    carla_writes(&app).await;
    app.make_pro(CARLA_WA_ID, socio::locale::Language::PtBr).await;
    let id = app.user_column(CARLA_WA_ID, "id").await;
    // She writes from the new phone before WhatsApp's notice reaches us: a new, free account.
    assert_eq!(
        app.post_whatsapp_webhook(&text_from("5531976543210", "wamid.new.1", "Oi, troquei de número"), None)
            .await,
        200
    );
    assert_eq!(users(&app).await, 2);

    assert_eq!(notice(&app).await, 200);
    assert_eq!(users(&app).await, 1, "the new number's bare account is absorbed");
    assert_eq!(app.user_column(CARLA_NEW, "id").await, id);
    assert_eq!(app.tier_of(CARLA_NEW).await, "pro");
    let inbound =
        sqlx::query("select count(*) as n from messages where user_id = $1 and direction = 'inbound'")
            .bind(&id)
            .fetch_one(app.db.pool())
            .await
            .unwrap()
            .get::<i64, _>("n");
    assert_eq!(inbound, 2, "both conversations are hers");
}
on_both_engines!(what_the_new_number_wrote_before_the_notice_joins_the_moving_account);

async fn when_the_new_number_holds_its_own_subscription_both_accounts_stay_for_an_admin(db: TestDatabase) {
    let app = spawn_app_with(db, &quick()).await;
    carla_writes(&app).await;
    assert_eq!(app.post_whatsapp_webhook(&text_from("5531976543210", "wamid.new.1", "Oi"), None).await, 200);
    app.make_pro(CARLA_NEW, socio::locale::Language::PtBr).await;
    let (old_id, new_id) = (app.user_column(CARLA_WA_ID, "id").await, app.user_column(CARLA_NEW, "id").await);

    assert_eq!(notice(&app).await, 200);
    assert_eq!(users(&app).await, 2, "never merged silently");
    assert_eq!(app.user_column(CARLA_WA_ID, "id").await, old_id);
    assert_eq!(app.user_column(CARLA_NEW, "id").await, new_id);
    let listed = sqlx::query("select kept_user_id from phone_key_conflicts where user_id = $1")
        .bind(&old_id)
        .fetch_one(app.db.pool())
        .await
        .unwrap()
        .get::<String, _>("kept_user_id");
    assert_eq!(listed, new_id, "the pair waits for an admin");
}
on_both_engines!(when_the_new_number_holds_its_own_subscription_both_accounts_stay_for_an_admin);

async fn a_burst_of_first_messages_from_one_new_person_makes_one_account(db: TestDatabase) {
    let app = spawn_app_with(db, &quick()).await;
    // Both phone_number and phone_key are unique: concurrent first contacts collide on either.
    // Eight people, each writing ten messages at once (a race: several rounds make it likely).
    for person in 0..8 {
        let wa_id = format!("55318765{person:04}");
        let deliveries: Vec<Vec<u8>> =
            (0..10).map(|n| text_from(&wa_id, &format!("wamid.burst.{person}.{n}"), "Oi")).collect();
        let statuses =
            futures::future::join_all(deliveries.iter().map(|d| app.post_whatsapp_webhook(d, None))).await;
        assert_eq!(statuses, vec![200; 10], "every delivery is acknowledged");
    }
    assert_eq!(users(&app).await, 8, "one account a person");
    assert_eq!(app.count("select count(*) as n from messages where direction = 'inbound'").await, 80);
}
on_both_engines!(a_burst_of_first_messages_from_one_new_person_makes_one_account);

async fn a_message_type_the_cloud_api_cannot_show_gets_the_polite_write_it_as_text_reply(db: TestDatabase) {
    let app = spawn_app_with(db, &quick()).await;
    assert_eq!(app.post_whatsapp_webhook(&fixture("whatsapp/inbound-unsupported.json"), None).await, 200);
    eventually("the person is asked to write it as text", || async {
        app.outbox_has("+5511987654321", "Pode me escrever em texto?").await
    })
    .await;
}
on_both_engines!(a_message_type_the_cloud_api_cannot_show_gets_the_polite_write_it_as_text_reply);
