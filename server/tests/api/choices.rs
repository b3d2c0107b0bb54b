//! Closed questions as taps: the guide's stage, legal form and CNPJ questions (and the model's
//! `offer_choices`) go as WhatsApp reply buttons or a list message in Meta's documented shape, and
//! the person's tap (`interactive.button_reply` / `list_reply`, as Meta delivers it) is read like
//! typed words.

use serde_json::{Value, json};
use socio::locale::Language;

use crate::{
    fake_graph::{APP_SECRET, FakeGraph, PHONE_NUMBER_ID},
    fake_llm::{FakeLlm, text, tool_call},
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines,
    whatsapp::text_delivery,
};

const ANA: &str = "5511987654321";

/// A tap on a list row, as Meta delivers it (the row's id and title in `list_reply`).
fn list_tap(id: &str, row: &str, title: &str) -> Vec<u8> {
    json!({
        "object": "whatsapp_business_account",
        "entry": [{ "id": "1", "changes": [{ "field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": { "display_phone_number": "5511900000000", "phone_number_id": PHONE_NUMBER_ID },
            "contacts": [{ "profile": { "name": "Ana Lima" }, "wa_id": ANA }],
            "messages": [{ "from": ANA, "id": id, "timestamp": "1795253720", "type": "interactive",
                "interactive": { "type": "list_reply", "list_reply": { "id": row, "title": title } } }]
        }}]}]
    })
    .to_string()
    .into_bytes()
}

/// Writes as Ana and waits for the product's next message to reach the Graph API.
async fn write(app: &TestApp, graph: &FakeGraph, words: &[u8]) -> Value {
    let before = graph.requests().len();
    assert_eq!(app.post_whatsapp_webhook(words, Some(APP_SECRET)).await, 200);
    graph.wait_for_requests(before + 1).await.last().unwrap().body.clone()
}

async fn the_stage_question_is_a_list_and_a_tap_answers_it(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let app = spawn_app_with(db, &graph.cloud_config()).await;
    app.make_pro(&format!("+{ANA}"), Language::PtBr).await;
    let mut asked = write(&app, &graph, &text_delivery(ANA, "Ana Lima", "w1", "Oi")).await;
    for (n, answer) in ["Uma padaria artesanal", "Falta pão de qualidade no bairro", "Fermentação natural"]
        .iter()
        .enumerate()
    {
        assert_eq!(asked["type"], "text", "open questions are text");
        let id = format!("w{}", n + 2);
        asked = write(&app, &graph, &text_delivery(ANA, "Ana Lima", &id, answer)).await;
    }
    assert_eq!(asked["type"], "interactive", "{asked}");
    let list = &asked["interactive"];
    assert_eq!(list["type"], "list");
    assert!(list["body"]["text"].as_str().unwrap().contains("Em que fase"));
    assert_eq!(list["action"]["button"], "Escolher");
    let rows: Vec<(String, String)> = list["action"]["sections"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap().to_owned(), r["title"].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(rows[1], ("stage:planning".to_owned(), "Planejando".to_owned()));
    assert_eq!(rows.len(), 4);

    let next = write(&app, &graph, &list_tap("w5", "stage:planning", "Planejando")).await;
    assert!(next.to_string().contains("Etapa *Ideia de negócio* concluída"), "{next}");
    let stage: String = sqlx::query_scalar(
        "select s.data from plan_sections s join business_plans p on p.id = s.plan_id where s.step = 'idea'",
    )
    .fetch_one(app.db.pool())
    .await
    .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&stage).unwrap()["stage"], "planning");
}
on_both_engines!(the_stage_question_is_a_list_and_a_tap_answers_it);

async fn the_model_offers_a_yes_or_no_as_two_buttons(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let llm = FakeLlm::start().await;
    llm.answer_with([
        (200, tool_call("offer_choices", json!({"options": ["Sim, já tenho", "Ainda não"]}))),
        (200, text("Você já tem CNPJ?")),
    ]);
    let mut config = graph.cloud_config();
    config.extend(llm.config(5));
    let app = spawn_app_with(db, &config).await;
    app.make_pro(&format!("+{ANA}"), Language::PtBr).await;
    let asked = write(&app, &graph, &text_delivery(ANA, "Ana Lima", "m1", "Quero formalizar")).await;
    assert_eq!(asked["interactive"]["type"], "button", "{asked}");
    assert_eq!(
        asked["interactive"]["action"]["buttons"][1],
        json!({"type": "reply", "reply": {"id": "option:2", "title": "Ainda não"}})
    );
    assert!(asked["interactive"]["body"]["text"].as_str().unwrap().ends_with("Você já tem CNPJ?"));
}
on_both_engines!(the_model_offers_a_yes_or_no_as_two_buttons);

async fn the_simulator_shows_the_answers_and_a_tap_is_read_like_words(db: TestDatabase) {
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "10".into())]).await;
    app.make_pro(&format!("+{ANA}"), Language::En).await;
    let phone = format!("+{ANA}");
    app.say(&phone, "Hi").await;
    for answer in ["A sourdough bakery", "No good bread nearby", "Natural fermentation"] {
        app.say(&phone, answer).await;
    }
    let outbox = app.outbox_messages(&phone).await;
    let asked = outbox.last().unwrap();
    assert_eq!(asked["kind"], "interactive");
    assert_eq!(asked["choices"][3], json!({"id": "stage:running", "title": "Already running"}));

    let before = app.texts_to(&phone).await.len();
    let tap = json!({"from": phone, "name": "Ana Lima", "text": "Already running", "choice": "stage:running", "list": true});
    let (status, _) =
        app.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &tap.to_string()).await;
    assert_eq!(status, 200);
    eventually("the tap is answered", || async { app.texts_to(&phone).await.len() > before }).await;
    let stored: String = sqlx::query_scalar("select kind from messages where content = 'Already running'")
        .fetch_one(app.db.pool())
        .await
        .unwrap();
    assert_eq!(stored, "interactive");
    assert!(app.texts_to(&phone).await.last().unwrap().contains("*Business idea* complete"));
}
on_both_engines!(the_simulator_shows_the_answers_and_a_tap_is_read_like_words);
