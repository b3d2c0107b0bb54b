//! The admin calls with an admin's token: finding users, stats, overrides, LGPD erasure, the audit
//! trail and the system prompts' rules; the consultant takes the newly active prompt.

use reqwest::Method;
use serde_json::{Value, json};
use socio::{
    conversation::messages::Author,
    identity::{
        contact::Contact,
        phone::PhoneNumber,
        users::{self, Tier},
    },
    plan::{
        sections::Step,
        store::{Source, StepUpdate},
    },
};

use crate::{
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines,
};

const ADMIN: &str = "+5531999990000";

async fn admin_app(db: TestDatabase, extra: &[(&'static str, String)]) -> (TestApp, String) {
    let mut config = vec![("ADMIN_PHONES", ADMIN.to_owned()), ("WHATSAPP_BATCH_WINDOW_MS", "10".to_owned())];
    config.extend(extra.iter().cloned());
    let app = spawn_app_with(db, &config).await;
    let (token, _) = app.login(ADMIN).await;
    (app, token)
}

async fn add_user(app: &TestApp, phone: &str, name: &str, tier: Tier) -> String {
    let users = users::Users::new(app.db.clone());
    let mut tx = app.db.begin().await.unwrap();
    let user = users
        .register_in(
            &mut tx,
            &Contact::phone(PhoneNumber::parse(phone).unwrap()),
            users::Spelling::Delivered,
            name,
            socio::locale::Language::PtBr,
        )
        .await
        .unwrap()
        .user;
    users.set_tier_in(&mut tx, &user.id, tier).await.unwrap();
    tx.commit().await.unwrap();
    user.id
}

/// The admin sets a person's tier ("pro" or "free") by the override: the answer.
async fn set_tier_as_admin(app: &TestApp, token: &str, id: &str, tier: &str) -> (u16, Value) {
    let body = json!({"subscriptionStatus": tier});
    app.call(Method::PUT, &format!("/api/admin/users/{id}/subscription"), body, Some(token)).await
}

/// The list's total is remembered between pages (counting every user grows with the database),
/// yet a user who joins, changes tier or is erased is in the very next page's total.
async fn the_list_s_total_follows_every_join_tier_change_and_erasure_at_once(db: TestDatabase) {
    let (app, token) = admin_app(db, &[]).await;
    let totals = || async {
        let mut totals = Vec::new();
        for filter in ["", "&subscriptionStatus=pro"] {
            let path = format!("/api/admin/users?page=1&limit=20{filter}");
            let (status, body) = app.call(Method::GET, &path, Value::Null, Some(&token)).await;
            assert_eq!(status, 200, "{body}");
            totals.push(body["data"]["total"].as_i64().unwrap());
        }
        totals
    };
    assert_eq!(totals().await, [1, 0], "the admin alone");
    assert_eq!(totals().await, [1, 0], "asked again, the same");
    // Joining through WhatsApp, as people do.
    app.say("+5511987650001", "Oi").await;
    assert_eq!(totals().await, [2, 0]);
    let id = add_user(&app, "+5511987650002", "Bia", Tier::Free).await;
    assert_eq!(totals().await, [3, 0]);
    let (status, body) = set_tier_as_admin(&app, &token, &id, "pro").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(totals().await, [3, 1], "a tier change moves the filtered total");
    let (status, body) =
        app.call(Method::DELETE, &format!("/api/admin/users/{id}"), Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(totals().await, [2, 0], "erased, gone from both");
}
on_both_engines!(the_list_s_total_follows_every_join_tier_change_and_erasure_at_once);

async fn finding_users_by_name_number_and_tier_with_pages(db: TestDatabase) {
    let (app, token) = admin_app(db, &[]).await;
    for n in 0..44 {
        add_user(
            &app,
            &format!("+55119000{n:05}"),
            &format!("Pessoa {n}"),
            if n % 4 == 0 { Tier::Pro } else { Tier::Free },
        )
        .await;
    }
    add_user(&app, "+5521987650000", "João Ávila", Tier::Free).await;
    let (status, body) =
        app.call(Method::GET, "/api/admin/users?page=1&limit=20", Value::Null, Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["data"]["total"].clone(), body["data"]["totalPages"].clone()), (json!(46), json!(3)));
    assert_eq!(body["data"]["users"].as_array().unwrap().len(), 20);
    let (_, last) = app.call(Method::GET, "/api/admin/users?page=3", Value::Null, Some(&token)).await;
    assert_eq!(last["data"]["users"].as_array().unwrap().len(), 6);
    let (_, pro) =
        app.call(Method::GET, "/api/admin/users?subscriptionStatus=pro", Value::Null, Some(&token)).await;
    assert_eq!(pro["data"]["total"], 11);
    let (_, joao) =
        app.call(Method::GET, "/api/admin/users?search=JOAO%20avila", Value::Null, Some(&token)).await;
    assert_eq!(joao["data"]["total"], 1, "accents and case are ignored");
    let user = &joao["data"]["users"][0];
    assert_eq!(
        (user["name"].clone(), user["businessPlanStatus"].clone(), user["totalMessages"].clone()),
        (json!("João Ávila"), json!("none"), json!(0))
    );
    let (_, by_phone) =
        app.call(Method::GET, "/api/admin/users?search=21987650", Value::Null, Some(&token)).await;
    assert_eq!(by_phone["data"]["total"], 1);
    let (_, stats) = app.call(Method::GET, "/api/admin/stats", Value::Null, Some(&token)).await;
    assert_eq!(stats["data"]["stats"]["totalUsers"], 46);
    assert_eq!(stats["data"]["stats"]["proUsers"], 11);
}
on_both_engines!(finding_users_by_name_number_and_tier_with_pages);

async fn setting_pro_and_free_is_an_audited_override(db: TestDatabase) {
    let (app, token) = admin_app(db, &[]).await;
    let id = add_user(&app, "+5511987654321", "Ana Lima", Tier::Free).await;
    let (status, body) = set_tier_as_admin(&app, &token, &id, "pro").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "Usuário atualizado para Pro");
    assert_eq!(body["data"]["user"]["subscriptionStatus"], "pro");
    assert_eq!(
        app.count("select count(*) as n from subscriptions where source = 'admin' and status = 'active'")
            .await,
        1
    );
    let (_, body) = set_tier_as_admin(&app, &token, &id, "free").await;
    assert_eq!(body["message"], "Usuário atualizado para Free");
    let (_, audit) = app.call(Method::GET, "/api/admin/audit", Value::Null, Some(&token)).await;
    let actions: Vec<&str> =
        audit["data"]["events"].as_array().unwrap().iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(actions, ["set_subscription_free", "set_subscription_pro"]);
}
on_both_engines!(setting_pro_and_free_is_an_audited_override);

async fn erasing_a_user_removes_everything_personal_and_ends_their_sessions(db: TestDatabase) {
    let (app, admin) = admin_app(db, &[]).await;
    let phone = "+5511987654321";
    let hello = json!({"from": phone, "name": "Ana Lima", "text": "Oi"}).to_string();
    app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &hello).await;
    eventually("the welcome", || async {
        app.count("select count(*) as n from messages where direction = 'outbound'").await > 0
    })
    .await;
    let (token, _) = app.login(phone).await;
    app.call(
        Method::PUT,
        "/api/business-plan/idea",
        json!({"ideaData": {"businessIdea": "Segredo"}}),
        Some(&token),
    )
    .await;
    let (_, found) = app.call(Method::GET, "/api/admin/users?search=ana", Value::Null, Some(&admin)).await;
    let id = found["data"]["users"][0]["id"].as_str().unwrap().to_owned();
    let (_, history) = app
        .call(Method::GET, &format!("/api/admin/users/{id}/chat-history"), Value::Null, Some(&admin))
        .await;
    assert_eq!(history["data"]["messages"][0]["type"], "user");
    assert_eq!(history["data"]["messages"][1]["type"], "assistant");
    let (_, plan) = app
        .call(Method::GET, &format!("/api/admin/users/{id}/business-plan"), Value::Null, Some(&admin))
        .await;
    assert_eq!(plan["data"]["businessPlan"]["ideaData"]["businessIdea"], "Segredo");
    // A copy of her data still to be fetched, and a guarantee refund by Pix not yet paid.
    for sql in [
        "insert into export_links (id, user_id, requester_id, session_id, requester_role, expires_at, created_at) \
         values ('l1', $1, $1, 's1', 'user', 9999999999999, 0)",
        "insert into manual_refunds (id, user_id, subscription_id, amount_cents, paid_with, status, pix_key, requested_at) \
         values ('r1', $1, 'sub1', 10000, 'boleto', 'to_pay', 'ana@example.com', 0)",
    ] {
        sqlx::query(sql).bind(&id).execute(app.db.pool()).await.unwrap();
    }

    let (status, body) =
        app.call(Method::DELETE, &format!("/api/admin/users/{id}"), Value::Null, Some(&admin)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "Usuário excluído com sucesso");
    for table in [
        "messages",
        "business_plans",
        "plan_sections",
        "plan_changes",
        "refresh_tokens",
        "login_codes",
        "whatsapp_outbox",
    ] {
        let sql: &'static str = Box::leak(format!("select count(*) as n from {table}").into_boxed_str());
        let left = app.count(sql).await;
        let admin_rows = if table == "refresh_tokens" || table == "login_codes" || table == "whatsapp_outbox"
        {
            1
        } else {
            0
        };
        assert_eq!(left, admin_rows, "{table}");
    }
    assert_eq!(app.count("select count(*) as n from export_links").await, 0, "her copy's link goes");
    assert_eq!(
        app.count(
            "select count(*) as n from manual_refunds where status = 'to_pay' and pix_key = 'ana@example.com'"
        )
        .await,
        1,
        "the refund we owe her stays, with the key to pay it to"
    );
    assert_eq!(
        app.call(Method::GET, "/api/auth/me", Value::Null, Some(&token)).await.0,
        401,
        "their token stops working"
    );
    let (status, _) =
        app.call(Method::GET, &format!("/api/admin/users/{id}"), Value::Null, Some(&admin)).await;
    assert_eq!(status, 404);
}
on_both_engines!(erasing_a_user_removes_everything_personal_and_ends_their_sessions);

async fn system_prompts_keep_exactly_one_active_and_the_active_one_cannot_be_deleted(db: TestDatabase) {
    let (app, token) = admin_app(db, &[]).await;
    let (status, list) = app.call(Method::GET, "/api/system-prompts", Value::Null, Some(&token)).await;
    assert_eq!(status, 200);
    let seeded = list["data"].as_array().unwrap();
    assert_eq!(seeded.len(), 1, "the default, seeded on first run");
    assert_eq!(seeded[0]["is_active"], true);
    let default_id = seeded[0]["id"].as_str().unwrap().to_owned();

    let (status, body) = app
        .call(
            Method::POST,
            "/api/system-prompts",
            json!({"name": "", "title": "x", "content": ""}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["field"], "name");
    let new = json!({"name": "direto", "title": "Consultor direto", "content": "Seja breve e direto.", "is_active": false});
    let (status, created) = app.call(Method::POST, "/api/system-prompts", new, Some(&token)).await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["message"], "Prompt do sistema criado com sucesso");
    let id = created["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (created["data"]["is_active"].clone(), created["data"]["version"].clone()),
        (json!(false), json!(1))
    );
    assert!(created["data"]["created_at"].as_str().is_some());

    let (status, _) =
        app.call(Method::PATCH, &format!("/api/system-prompts/{id}/activate"), json!({}), Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(app.count("select count(*) as n from system_prompts where is_active = true").await, 1);
    let (status, refused) =
        app.call(Method::DELETE, &format!("/api/system-prompts/{id}"), Value::Null, Some(&token)).await;
    assert_eq!(status, 409);
    assert!(refused["message"].as_str().unwrap().contains("Ative outro prompt primeiro"));
    let edit = json!({"name": "direto", "title": "Consultor direto v2", "content": "Seja muito breve."});
    let (_, updated) = app.call(Method::PUT, &format!("/api/system-prompts/{id}"), edit, Some(&token)).await;
    assert_eq!(
        (updated["data"]["version"].clone(), updated["data"]["is_active"].clone()),
        (json!(2), json!(true))
    );
    let (status, _) = app
        .call(Method::DELETE, &format!("/api/system-prompts/{default_id}"), Value::Null, Some(&token))
        .await;
    assert_eq!(status, 200, "an inactive prompt can go");
}
on_both_engines!(system_prompts_keep_exactly_one_active_and_the_active_one_cannot_be_deleted);

async fn concurrent_activations_leave_exactly_one_active_prompt(db: TestDatabase) {
    let (app, token) = admin_app(db, &[]).await;
    let mut ids = Vec::new();
    for n in 0..4 {
        let body = json!({"name": format!("p{n}"), "title": "t", "content": "c"});
        let (_, created) = app.call(Method::POST, "/api/system-prompts", body, Some(&token)).await;
        ids.push(created["data"]["id"].as_str().unwrap().to_owned());
    }
    let calls = ids.iter().map(|id| {
        app.call(
            Method::PATCH,
            Box::leak(format!("/api/system-prompts/{id}/activate").into_boxed_str()),
            json!({}),
            Some(&token),
        )
    });
    let results = futures::future::join_all(calls).await;
    assert!(
        results.iter().all(|(status, _)| *status == 200 || *status == 503 || *status == 500),
        "{results:?}"
    );
    assert_eq!(app.count("select count(*) as n from system_prompts where is_active = true").await, 1);
}
on_both_engines!(concurrent_activations_leave_exactly_one_active_prompt);

async fn the_consultant_uses_a_newly_activated_prompt(db: TestDatabase) {
    let llm = crate::fake_llm::FakeLlm::start().await;
    let (app, token) = admin_app(db, &llm.config(5)).await;
    let body = json!({"name": "novo", "title": "Novo", "content": "Você é um consultor muito paciente.", "is_active": true});
    app.call(Method::POST, "/api/system-prompts", body, Some(&token)).await;
    let ana = add_user(&app, "+5511987654321", "Ana", Tier::Pro).await;
    let _ = ana;
    let hello = json!({"from": "+5511987654321", "name": "Ana", "text": "Oi"}).to_string();
    app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &hello).await;
    eventually("the model is asked", || async { !llm.requests().is_empty() }).await;
    assert_eq!(llm.requests()[0]["messages"][0]["content"], "Você é um consultor muito paciente.");
}
on_both_engines!(the_consultant_uses_a_newly_activated_prompt);

async fn an_export_link_serves_that_user_s_data_in_its_window_only(db: TestDatabase) {
    let (app, token) = admin_app(db, &[]).await;
    let hello =
        json!({"from": "+5511987654321", "name": "Ana Lima", "text": "Oi, quero exportar"}).to_string();
    app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &hello).await;
    let other = add_user(&app, "+5521998765432", "Bruno", Tier::Free).await;
    let (_, found) = app.call(Method::GET, "/api/admin/users?search=ana", Value::Null, Some(&token)).await;
    let id = found["data"]["users"][0]["id"].as_str().unwrap().to_owned();
    let (status, body) =
        app.call(Method::POST, &format!("/api/admin/users/{id}/export"), json!({}), Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    let url = body["data"]["downloadUrl"].as_str().unwrap().replace("http://localhost:8080", &app.address);
    assert!(body["data"]["expiresAt"].as_str().unwrap().ends_with('Z'));

    let someone_else = url.replace(&id, &other);
    assert_eq!(
        app.http.get(&someone_else).send().await.unwrap().status(),
        403,
        "the link serves only its user"
    );
    let response = app.http.get(&url).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-disposition"].to_str().unwrap().starts_with("attachment"));
    let export: Value = response.json().await.unwrap();
    assert_eq!(export["user"]["phoneNumber"], "+5511987654321");
    assert_eq!(export["messages"][0]["content"], "Oi, quero exportar");
    assert!(export.get("businessPlanMarkdown").is_some());
    assert_eq!(export["monthResults"], json!([]), "the month results are hers too (none recorded here)");

    assert_eq!(app.http.get(&url).send().await.unwrap().status(), 410, "once only");
    let privacy = socio::privacy::Privacy::new(
        app.db.clone(),
        socio::plan::Plans::new(app.db.clone(), Default::default()),
        &socio::config::Secret::new("test-secret-that-is-long-enough-0123456789"),
        &app.address,
    );
    let expired = privacy.link(&id, "any-link", app.db.now_ms() - 1);
    assert_eq!(app.http.get(&expired).send().await.unwrap().status(), 410, "not after its window");
    let (_, audit) = app.call(Method::GET, "/api/admin/audit", Value::Null, Some(&token)).await;
    assert_eq!(audit["data"]["events"][0]["action"], "export_user");
}
on_both_engines!(an_export_link_serves_that_user_s_data_in_its_window_only);

/// Issue 62: a link dies with the session that asked for it and with the admin's role; two
/// downloads at once serve one copy.
async fn an_export_link_serves_once_and_only_while_its_asker_s_session_and_role_stand(db: TestDatabase) {
    let (app, token) = admin_app(db, &[]).await;
    let hello = json!({"from": "+5511987654321", "name": "Ana Lima", "text": "Oi"}).to_string();
    app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &hello).await;
    let (_, found) = app.call(Method::GET, "/api/admin/users?search=ana", Value::Null, Some(&token)).await;
    let id = found["data"]["users"][0]["id"].as_str().unwrap().to_owned();
    let export = || async {
        let (status, body) =
            app.call(Method::POST, &format!("/api/admin/users/{id}/export"), json!({}), Some(&token)).await;
        assert_eq!(status, 200, "{body}");
        body["data"]["downloadUrl"].as_str().unwrap().replace("http://localhost:8080", &app.address)
    };
    let http = &app.http;
    let get = |url: String| async move { http.get(&url).send().await.unwrap().status().as_u16() };

    let url = export().await;
    let mut both = [0u16; 2];
    (both[0], both[1]) = tokio::join!(get(url.clone()), get(url.clone()));
    both.sort_unstable();
    assert_eq!(both, [200, 410], "one copy served");

    // The admin is no longer one (the role written straight in the database, so the session
    // stands): the link they asked for as an admin serves nothing.
    let url = export().await;
    sqlx::query("update users set role = 'user' where phone_number = $1")
        .bind(ADMIN)
        .execute(app.db.pool())
        .await
        .unwrap();
    assert_eq!(get(url.clone()).await, 403, "the role it was asked with is gone");
    sqlx::query("update users set role = 'admin' where phone_number = $1")
        .bind(ADMIN)
        .execute(app.db.pool())
        .await
        .unwrap();
    assert_eq!(get(url).await, 200, "refused links were not spent");

    // The admin logs out: a link asked for in that session serves nothing any more.
    let url = export().await;
    let (status, _) = app.call(Method::POST, "/api/auth/logout", json!({}), Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(get(url).await, 403, "the session that asked ended");
}
on_both_engines!(an_export_link_serves_once_and_only_while_its_asker_s_session_and_role_stand);

async fn the_figures_count_users_activity_messages_and_plans_from_known_data(db: TestDatabase) {
    let (app, token) = admin_app(db, &[]).await;
    let figures = || async {
        let (status, body) = app.call(Method::GET, "/api/admin/stats", Value::Null, Some(&token)).await;
        assert_eq!(status, 200, "{body}");
        body["data"]["stats"].clone()
    };
    let before = figures().await;
    let day = 86_400_000_i64;
    let ana = add_user(&app, "+5511900000001", "Ana", Tier::Pro).await;
    let bia = add_user(&app, "+5511900000002", "Bia", Tier::Free).await;
    let caio = add_user(&app, "+5511900000003", "Caio", Tier::Free).await;
    add_user(&app, "+5511900000004", "Duda", Tier::Free).await;
    // Caio last wrote 40 days ago, Bia 10, Ana now, by the app's clock (back to now at the end).
    for (id, days_ago) in [(&caio, 40), (&bia, 10), (&ana, 0)] {
        let shift = days_ago * day;
        app.db.clock().advance(-shift);
        users::Users::new(app.db.clone()).touch(id, app.db.now_ms()).await.unwrap();
        app.db.clock().advance(shift);
    }
    // Three messages of Ana's and one of Bia's, now; Ana's plan complete, Bia's two steps in —
    // through the conversation's and the plan's services.
    let messages = socio::conversation::messages::Messages::new(app.db.clone());
    for id in [&ana, &ana, &ana, &bia] {
        messages.insert_web(id, Author::User, "oi", app.db.now_ms()).await.unwrap();
    }
    let plans = socio::plan::Plans::new(app.db.clone(), Default::default());
    for (id, completed_steps) in [(&ana, 6), (&bia, 2)] {
        let updates: Vec<StepUpdate> = Step::ALL
            .iter()
            .take(completed_steps)
            .map(|&step| StepUpdate {
                step,
                patch: None,
                completed: Some(true),
                field: step.data_field().into(),
            })
            .collect();
        plans.update(id, Some(id), Source::Dashboard, &updates).await.unwrap();
    }

    let after = figures().await;
    let grew = |field: &str| after[field].as_i64().unwrap() - before[field].as_i64().unwrap();
    assert_eq!(grew("totalUsers"), 4);
    assert_eq!(grew("activeUsers"), 2, "active means a message in the last 30 days");
    assert_eq!(grew("proUsers"), 1);
    assert_eq!(grew("totalMessages"), 4);
    assert_eq!(grew("usersWithBusinessPlans"), 2);
    assert_eq!(grew("completedBusinessPlans"), 1, "complete means all six steps");
    let average = after["totalMessages"].as_f64().unwrap() / after["totalUsers"].as_f64().unwrap();
    assert_eq!(after["averageMessagesPerUser"].as_f64().unwrap(), (average * 10.0).round() / 10.0);
}
on_both_engines!(the_figures_count_users_activity_messages_and_plans_from_known_data);

/// The plan's status as the person's own plan says it and as the admin's list of users says it.
async fn both_statuses(app: &TestApp, admin: &str, person: &str) -> (Value, Value) {
    let (_, own) = app.call(Method::GET, "/api/business-plan", Value::Null, Some(person)).await;
    let (_, listed) =
        app.call(Method::GET, "/api/admin/users?search=11987654321", Value::Null, Some(admin)).await;
    (own["data"]["businessPlan"]["status"].clone(), listed["data"]["users"][0]["businessPlanStatus"].clone())
}

async fn the_admin_s_list_says_a_plan_is_in_progress_by_the_plan_s_own_rule(db: TestDatabase) {
    let (app, admin) = admin_app(db, &[]).await;
    let ana = "+5511987654321";
    app.register(ana).await;
    let (person, _) = app.login(ana).await;
    let idea = |text: &str| json!({"ideaData": {"businessIdea": text}});
    app.call(Method::PUT, "/api/business-plan/idea", idea("Padaria de fermentação natural"), Some(&person))
        .await;
    assert_eq!(both_statuses(&app, &admin, &person).await, (json!("in_progress"), json!("in_progress")));
    // Written, then emptied: a change on record, but nothing in the plan — a draft for both.
    app.call(Method::PUT, "/api/business-plan/idea", idea(""), Some(&person)).await;
    assert_eq!(both_statuses(&app, &admin, &person).await, (json!("draft"), json!("draft")));

    // A section written before the flag was kept is judged at start, by the same rule.
    app.call(Method::PUT, "/api/business-plan/idea", idea("Padaria"), Some(&person)).await;
    sqlx::query("update plan_sections set filled = null").execute(app.db.pool()).await.unwrap();
    let plans = socio::plan::Plans::new(app.db.clone(), Default::default());
    assert_eq!(plans.fill_section_flags().await.unwrap(), 6);
    assert_eq!(both_statuses(&app, &admin, &person).await, (json!("in_progress"), json!("in_progress")));
}
on_both_engines!(the_admin_s_list_says_a_plan_is_in_progress_by_the_plan_s_own_rule);
