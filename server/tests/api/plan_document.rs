//! The plan on WhatsApp: "me manda o plano" (or the guide's *plano*, or the model's tool) sends
//! the complete plan as a PDF document — in cloud mode uploaded to the Graph API's `/media` and sent
//! as a `document` message naming it, in dev mode kept in the outbox for the simulator to
//! download — stored in the conversation and sent once; outside the 24-hour window, not attempted.

use serde_json::{Value, json};
use socio::locale::Language;

use crate::{
    fake_graph::{APP_SECRET, FakeGraph},
    fake_llm::{FakeLlm, text, tool_call},
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines,
    whatsapp::text_delivery,
};

const ANA: &str = "5511987654321";

async fn write(app: &TestApp, id: &str, words: &str) {
    let delivery = text_delivery(ANA, "Ana Lima", id, words);
    assert_eq!(app.post_whatsapp_webhook(&delivery, Some(APP_SECRET)).await, 200);
}

async fn asking_for_the_plan_sends_its_pdf_as_a_whatsapp_document(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let app = spawn_app_with(db, &graph.cloud_config()).await;
    app.make_pro(&format!("+{ANA}"), Language::PtBr).await;
    write(&app, "wamid.plan.1", "Me manda o plano em PDF?").await;
    eventually("the plan is uploaded", || async { !graph.uploads().is_empty() }).await;
    let upload = &graph.uploads()[0];
    assert_eq!(
        (upload.messaging_product.as_str(), upload.mime_type.as_str()),
        ("whatsapp", "application/pdf")
    );
    assert_eq!(
        (upload.file_name.as_str(), upload.file_type.as_str()),
        ("plano-de-negocios-v1.pdf", "application/pdf")
    );
    assert!(upload.bytes.starts_with(b"%PDF-"), "a real PDF");

    let sent = graph.wait_for_requests(2).await;
    let on_its_way = sent.iter().find(|r| r.body["type"] == "text").expect("the reply that it is coming");
    assert!(on_its_way.body["text"]["body"].as_str().unwrap().contains("PDF"));
    let document = sent.iter().find(|r| r.body["type"] == "document").expect("the document message");
    assert_eq!(document.body["to"], ANA);
    assert_eq!(document.body["document"]["id"], upload.media_id.as_str());
    assert_eq!(document.body["document"]["filename"], "plano-de-negocios-v1.pdf");
    assert!(document.body["document"]["caption"].as_str().unwrap().contains("versão 1"));
    eventually("stored as sent", || async {
        app.count("select count(*) as n from messages where kind = 'document' and status = 'sent'").await == 1
    })
    .await;
    app.drain_jobs().await;
    assert_eq!(graph.uploads().len(), 1, "sent once");
}
on_both_engines!(asking_for_the_plan_sends_its_pdf_as_a_whatsapp_document);

async fn outside_the_24_hour_window_the_plan_is_not_attempted(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let app = spawn_app_with(db, &graph.cloud_config()).await;
    let ana = app.make_pro(&format!("+{ANA}"), Language::PtBr).await;
    write(&app, "wamid.plan.2", "Oi").await;
    app.drain_jobs().await;
    // A day and an hour later: WhatsApp's 24-hour customer-service window has closed.
    app.db.clock().advance(25 * 60 * 60 * 1000);
    socio::consultant::plan_request::PlanRequests::new(app.db.clone())
        .request(&ana, Language::PtBr)
        .await
        .unwrap();
    app.drain_jobs().await;
    assert!(graph.uploads().is_empty());
    assert!(graph.requests().iter().all(|r| r.body["type"] != "document"));
    assert_eq!(app.count("select count(*) as n from messages where kind = 'document'").await, 0);
}
on_both_engines!(outside_the_24_hour_window_the_plan_is_not_attempted);

/// The simulator's view of what went to Ana: (kind, text, document).
async fn outbox(app: &TestApp) -> Vec<Value> {
    app.outbox_messages(&format!("+{ANA}")).await
}

async fn the_guides_plano_command_puts_a_downloadable_pdf_in_the_dev_outbox(db: TestDatabase) {
    let app = spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "10".into())]).await;
    app.make_pro(&format!("+{ANA}"), Language::PtBr).await;
    let reply = app.say(&format!("+{ANA}"), "plano").await;
    assert!(reply.contains("PDF") && reply.contains("/business-plan"), "{reply}");
    eventually("the document is in the outbox", || async {
        outbox(&app).await.iter().any(|m| m["kind"] == "document")
    })
    .await;
    let messages = outbox(&app).await;
    let document = messages.iter().find(|m| m["kind"] == "document").unwrap();
    assert_eq!(document["document"]["fileName"], "plano-de-negocios-v1.pdf");
    let url = document["document"]["url"].as_str().unwrap();
    let file = app.http.get(format!("{}{url}", app.address)).send().await.unwrap();
    assert_eq!(file.status(), 200);
    assert_eq!(file.headers()["content-type"], "application/pdf");
    assert!(file.headers()["content-disposition"].to_str().unwrap().contains("plano-de-negocios-v1.pdf"));
    assert!(file.bytes().await.unwrap().starts_with(b"%PDF-"));
    let (status, _) = app.rest_get("/api/dev/whatsapp/outbox/files/999999", "pt-BR").await;
    assert_eq!(status, 404);
}
on_both_engines!(the_guides_plano_command_puts_a_downloadable_pdf_in_the_dev_outbox);

/// Ana, on Pro with the model, asks for her business's document: the app once the model's reply
/// (containing `reply`) and a document have reached her.
async fn ask_the_model_for_the_plan(db: TestDatabase, llm: &FakeLlm, reply: &str) -> TestApp {
    let mut config = llm.config(10);
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "10".into()));
    let app = spawn_app_with(db, &config).await;
    app.make_pro(&format!("+{ANA}"), Language::PtBr).await;
    assert!(app.say(&format!("+{ANA}"), "Quero o documento do meu negócio").await.contains(reply));
    eventually("a document", || async { outbox(&app).await.iter().any(|m| m["kind"] == "document") }).await;
    app
}

async fn the_model_can_send_the_plan_and_an_unchanged_plan_is_not_generated_again(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([
        (200, tool_call("send_plan_document", json!({}))),
        (200, text("Prontinho, já te mando o PDF!")),
    ]);
    let app = ask_the_model_for_the_plan(db, &llm, "Prontinho").await;
    let asked = llm.requests().len(); // the replies, and the document's overview
    llm.answer_with([(200, tool_call("send_plan_document", json!({}))), (200, text("Mandei de novo!"))]);
    assert!(app.say(&format!("+{ANA}"), "Pode mandar de novo o documento?").await.contains("de novo"));
    eventually("a second document", || async {
        outbox(&app).await.iter().filter(|m| m["kind"] == "document").count() == 2
    })
    .await;
    let names: Vec<Value> = outbox(&app)
        .await
        .iter()
        .filter(|m| m["kind"] == "document")
        .map(|m| m["document"]["fileName"].clone())
        .collect();
    assert_eq!(
        names,
        [json!("plano-de-negocios-v1.pdf"), json!("plano-de-negocios-v1.pdf")],
        "nothing changed: the same version"
    );
    assert_eq!(llm.requests().len(), asked + 2, "and no new overview was asked of the model");
}
on_both_engines!(the_model_can_send_the_plan_and_an_unchanged_plan_is_not_generated_again);

async fn the_plan_asked_of_a_slow_model_arrives_after_the_reply_that_says_it_is_coming(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([(200, tool_call("send_plan_document", json!({})))]);
    // The model takes its time to write the answer after the tool: the plan must not overtake it.
    let writing = llm.answer_held(text("Já te mando o PDF do plano!"));
    let mut config = llm.config(10);
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "10".into()));
    let app = spawn_app_with(db, &config).await;
    app.make_pro(&format!("+{ANA}"), Language::PtBr).await;
    let plan_jobs = |state: &'static str| {
        let sql = format!("select count(*) as n from jobs where kind = 'plan_document' and {state}");
        let app = &app;
        async move { app.count(&sql).await }
    };
    let meanwhile = async {
        eventually("the plan is asked for while the model writes its answer", || async {
            llm.in_flight() == 1 && plan_jobs("status = 'queued'").await == 1
        })
        .await;
        app.db.clock().advance(1_000); // past the plan's time (half a second after it was asked for)
        eventually("the plan has tried, and waits for the reply", || async {
            plan_jobs("status = 'queued' and attempts >= 1").await == 1
        })
        .await;
        writing.open();
    };
    let ana = format!("+{ANA}");
    let (reply, ()) = tokio::join!(app.say(&ana, "Quero o documento do meu negócio"), meanwhile);
    assert!(reply.contains("Já te mando"), "{reply}");
    app.db.clock().advance(2_000); // the plan's next try is due
    eventually("a document", || async { outbox(&app).await.iter().any(|m| m["kind"] == "document") }).await;
    let kinds: Vec<String> = outbox(&app)
        .await
        .iter()
        .filter(|m| m["kind"] == "document" || m["text"].as_str().is_some_and(|t| t.contains("Já te mando")))
        .map(|m| m["kind"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(kinds, ["text", "document"], "the reply first, then the plan");
}
on_both_engines!(the_plan_asked_of_a_slow_model_arrives_after_the_reply_that_says_it_is_coming);
