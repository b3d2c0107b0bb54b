//! Memory beyond the window: once enough messages have left the model's window of the latest 30,
//! a job folds them into the person's summary — written by the model, or the guide's recap
//! without one — which goes into the model's context and the admin's user detail, and is erased
//! with the person.

use reqwest::Method;
use serde_json::Value;
use socio::{conversation::messages::Author, locale::Language};

use crate::{
    fake_llm::{FakeLlm, text},
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines,
};

const ANA: &str = "+5511987654321";
const ADMIN: &str = "+5531999990000";

/// `n` earlier exchanges, an hour ago and before, as if Ana had talked for a while: the clock goes
/// back, each question and answer is stored a second apart as the conversation stores them, and
/// the clock comes back to now.
async fn earlier_conversation(app: &TestApp, user_id: &str, n: i64) {
    let messages = socio::conversation::messages::Messages::new(app.db.clone());
    let back = 3_600_000 + n * 2_000;
    app.db.clock().advance(-back);
    for i in 0..n {
        for (author, content) in [
            (Author::User, format!("Pergunta antiga {i} sobre a padaria de Campinas")),
            (Author::Assistant, format!("Resposta antiga {i}")),
        ] {
            messages.insert_web(user_id, author, &content, app.db.now_ms()).await.unwrap();
            app.db.clock().advance(1_000);
        }
    }
    app.db.clock().advance(back - n * 2_000);
}

async fn summary_of(app: &TestApp, user_id: &str) -> Option<(String, String)> {
    sqlx::query_as::<_, (String, String)>(
        "select summary, source from conversation_summaries where user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(app.db.pool())
    .await
    .unwrap()
}

async fn older_turns_are_summarised_by_the_model_and_come_back_in_its_context(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([
        (200, text("Certo, vamos seguir.")),
        (200, text("Ana abre uma padaria em Campinas; já perguntou sobre preços e MEI.")),
    ]);
    let mut config = llm.config(5);
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "10".into()));
    config.push(("ADMIN_PHONES", ADMIN.into()));
    let app = spawn_app_with(db, &config).await;
    let ana = app.make_pro(ANA, Language::PtBr).await;
    earlier_conversation(&app, &ana, 30).await;
    app.say(ANA, "Vamos continuar?").await;
    eventually("the summary is written", || async { summary_of(&app, &ana).await.is_some() }).await;
    let (summary, source) = summary_of(&app, &ana).await.unwrap();
    assert_eq!(
        (summary.as_str(), source.as_str()),
        ("Ana abre uma padaria em Campinas; já perguntou sobre preços e MEI.", "model")
    );
    let asked = llm.requests()[1]["messages"][0]["content"].as_str().unwrap().to_owned();
    assert!(
        asked.contains("Pergunta antiga 0 sobre a padaria") && !asked.contains("Pergunta antiga 29"),
        "the oldest, not the window"
    );

    llm.answer_with([(200, text("Lembro da sua padaria!"))]);
    app.say(ANA, "Lembra do que falamos?").await;
    // The summary of her words comes back as her data (a tagged user message), not as system text.
    let messages = llm.requests()[2]["messages"].as_array().unwrap().clone();
    let context = messages
        .iter()
        .find(|m| m["role"] == "user" && m["content"].as_str().unwrap().starts_with("<dados_do_usuario>"))
        .expect("her data");
    assert!(context["content"].as_str().unwrap().contains("Ana abre uma padaria em Campinas"), "{context}");
    assert!(messages[1]["content"].as_str().unwrap().contains("a summary of the earlier messages"));

    let (admin, _) = app.login(ADMIN).await;
    let (_, detail) =
        app.call(Method::GET, &format!("/api/admin/users/{ana}"), Value::Null, Some(&admin)).await;
    assert_eq!(
        detail["data"]["conversationSummary"],
        "Ana abre uma padaria em Campinas; já perguntou sobre preços e MEI."
    );
    assert!(socio::erasure::Erasure::new(app.db.clone()).erase(&ana).await.unwrap());
    assert_eq!(app.count("select count(*) as n from conversation_summaries").await, 0);
}
on_both_engines!(older_turns_are_summarised_by_the_model_and_come_back_in_its_context);

async fn without_a_model_the_guide_keeps_its_own_recap(db: TestDatabase) {
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "10".into())]).await;
    let ana = app.make_pro(ANA, Language::PtBr).await;
    earlier_conversation(&app, &ana, 12).await;
    app.say(ANA, "Oi").await;
    app.drain_jobs().await;
    assert_eq!(
        summary_of(&app, &ana).await,
        None,
        "26 messages all fit the window: nothing to summarise yet"
    );
    earlier_conversation(&app, &ana, 14).await;
    app.say(ANA, "Oi de novo").await;
    eventually("the recap is written", || async { summary_of(&app, &ana).await.is_some() }).await;
    let (summary, source) = summary_of(&app, &ana).await.unwrap();
    assert_eq!(source, "guide");
    assert!(summary.starts_with("Resumo automático (sem modelo):") && summary.contains("idea"), "{summary}");
}
on_both_engines!(without_a_model_the_guide_keeps_its_own_recap);
