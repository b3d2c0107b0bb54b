//! A human consultant steps in: someone asks for a person (in words, through the model's tool, or
//! a consultation call from the dashboard) and waits in the admins' queue; an admin takes the
//! conversation over (the AI goes quiet, an answer it was composing is dropped), answers on
//! WhatsApp through the durable send path, and gives it back; two admins never hold one
//! conversation; it survives a restart; the live view follows it.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use socio::proto::socio::v1::{
    HandoffStatus, WatchConversationRequest, WatchConversationResponse,
    handoff_service_client::HandoffServiceClient,
};
use tokio_stream::StreamExt;
use tonic::Streaming;

use crate::{
    fake_llm::{FakeLlm, text, tool_call},
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines,
};

const ADMIN: &str = "+5531999990000";
const OTHER_ADMIN: &str = "+5531999990001";
const ANA: &str = "+5511987654321";

/// The app with two admins (the first named Carla Mendes), not logged in.
async fn start(db: TestDatabase, extra: Vec<(&'static str, String)>) -> TestApp {
    let mut config = vec![
        ("ADMIN_PHONES", format!("{ADMIN},{OTHER_ADMIN}")),
        ("WHATSAPP_BATCH_WINDOW_MS", "10".to_owned()),
        ("SOCIO_JOB_RETRY_BASE_MS", "5".to_owned()),
    ];
    config.extend(extra);
    let app = spawn_app_with(db, &config).await;
    sqlx::query("update users set name = 'Carla Mendes' where phone_number = $1")
        .bind(ADMIN)
        .execute(app.db.pool())
        .await
        .unwrap();
    app
}

/// The app and the first admin's token.
async fn app_with(db: TestDatabase, extra: Vec<(&'static str, String)>) -> (TestApp, String) {
    let app = start(db, extra).await;
    let (token, _) = app.login(ADMIN).await;
    (app, token)
}

/// Writes on the simulator as the number, without waiting for any reply.
async fn write(app: &TestApp, phone: &str, words: &str) {
    let body = json!({"from": phone, "name": "Ana Lima", "text": words}).to_string();
    let (status, _) = app.rest_send(Method::POST, "/api/dev/whatsapp/inbound", &body).await;
    assert_eq!(status, 200);
}

async fn queue(app: &TestApp, token: &str) -> Value {
    let (status, body) = app.call(Method::GET, "/api/admin/handoffs", Value::Null, Some(token)).await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

async fn take(app: &TestApp, token: &str, user_id: &str) -> (u16, Value) {
    app.call(Method::POST, &format!("/api/admin/users/{user_id}/handoff"), Value::Null, Some(token)).await
}

async fn give_back(app: &TestApp, token: &str, user_id: &str) -> (u16, Value) {
    app.call(Method::DELETE, &format!("/api/admin/users/{user_id}/handoff"), Value::Null, Some(token)).await
}

async fn send_as_person(app: &TestApp, token: &str, user_id: &str, words: &str) -> (u16, Value) {
    let path = format!("/api/admin/users/{user_id}/messages");
    app.call(Method::POST, &path, json!({"text": words}), Some(token)).await
}

async fn asking_for_a_person_queues_the_conversation_and_the_consultant_says_one_will_answer(
    db: TestDatabase,
) {
    let (app, admin) = app_with(db, vec![]).await;
    let ana = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let reply = app.say(ANA, "Oi, quero falar com um humano, por favor").await;
    assert!(reply.contains("pessoa da nossa equipe"), "{reply}");
    let queued = queue(&app, &admin).await;
    assert_eq!(queued["waiting"], 1);
    let handoff = &queued["handoffs"][0];
    assert_eq!(
        (handoff["userId"].as_str(), handoff["status"].as_str(), handoff["reason"].as_str()),
        (Some(ana.as_str()), Some("waiting"), Some("asked"))
    );
    assert_eq!(handoff["note"], "Oi, quero falar com um humano, por favor");
    assert_eq!(handoff["phoneNumber"], ANA);

    // Waiting, the consultant still answers: nobody is left in silence until a person comes.
    let reply = app.say(ANA, "Enquanto isso: quanto custa abrir um MEI?").await;
    assert!(!reply.contains("pessoa da nossa equipe"), "{reply}");
    assert_eq!(queue(&app, &admin).await["waiting"], 1, "asked once, queued once");
}
on_both_engines!(asking_for_a_person_queues_the_conversation_and_the_consultant_says_one_will_answer);

async fn a_taken_conversation_is_answered_by_the_admin_alone_and_given_back_to_the_consultant(
    db: TestDatabase,
) {
    let (app, admin) = app_with(db, vec![]).await;
    let ana = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    app.say(ANA, "Oi! Quero abrir uma padaria").await;
    let before = app.texts_to(ANA).await.len();

    let (status, body) = take(&app, &admin, &ana).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["handoff"]["status"], "taken");
    assert_eq!(body["data"]["handoff"]["takenByName"], "Carla Mendes");
    write(&app, ANA, "Alguém aí? Preciso de ajuda com o alvará").await;
    app.drain_jobs().await;
    assert_eq!(app.texts_to(ANA).await.len(), before, "the consultant does not answer a taken conversation");

    let (status, body) =
        send_as_person(&app, &admin, &ana, "Oi Ana, aqui é a Carla, da equipe do Sócio!").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["message"]["writtenBy"], "Carla Mendes");
    eventually("the admin's words reach WhatsApp", || async {
        app.texts_to(ANA).await.last().is_some_and(|t| t == "Oi Ana, aqui é a Carla, da equipe do Sócio!")
    })
    .await;

    // The person's side shows the consultant; the admin panel shows who of the team wrote it.
    let (token, _) = app.login(ANA).await;
    let (_, dashboard) = app.call(Method::GET, "/api/dashboard", Value::Null, Some(&token)).await;
    assert_eq!(dashboard["data"]["recentMessages"][0]["type"], "ai");
    let (_, history) = app
        .call(Method::GET, &format!("/api/admin/users/{ana}/chat-history"), Value::Null, Some(&admin))
        .await;
    let messages = history["data"]["messages"].as_array().unwrap();
    let unanswered = messages.iter().find(|m| m["content"] == "Alguém aí? Preciso de ajuda com o alvará");
    assert!(unanswered.is_some(), "what they wrote meanwhile is kept and shown");
    let by_person = messages.iter().find(|m| m["writtenBy"] == "Carla Mendes").unwrap();
    assert_eq!(by_person["type"], "assistant");

    let (status, _) = give_back(&app, &admin, &ana).await;
    assert_eq!(status, 200);
    assert_eq!(queue(&app, &admin).await["handoffs"], json!([]));
    let reply = app.say(ANA, "Obrigada! Qual o próximo passo do plano?").await;
    assert!(!reply.contains("Carla"), "the consultant answers again: {reply}");
    let actions: Vec<String> = sqlx::query_scalar("select action from audit_events order by created_at")
        .fetch_all(app.db.pool())
        .await
        .unwrap();
    for action in ["take_over_conversation", "send_consultant_message", "give_back_conversation"] {
        assert!(actions.iter().any(|a| a == action), "{action} audited: {actions:?}");
    }
}
on_both_engines!(a_taken_conversation_is_answered_by_the_admin_alone_and_given_back_to_the_consultant);

async fn an_answer_the_model_is_composing_is_dropped_when_an_admin_takes_over(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    let thinking = llm.think_until_opened();
    let (app, admin) = app_with(db, llm.config(10)).await;
    let ana = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    write(&app, ANA, "Como eu calculo o preço do meu pão?").await;
    eventually("the model is asked", || async { !llm.requests().is_empty() }).await;
    assert_eq!(take(&app, &admin, &ana).await.0, 200);
    thinking.open();
    eventually("the model answers once she is taken", || async { llm.in_flight() == 0 }).await;
    app.drain_jobs().await;
    assert_eq!(app.texts_to(ANA).await, Vec::<String>::new(), "the composed answer was dropped, not sent");
    let stored = app.count("select count(*) as n from messages where direction = 'outbound'").await;
    assert_eq!(stored, 0, "nor stored");
}
on_both_engines!(an_answer_the_model_is_composing_is_dropped_when_an_admin_takes_over);

async fn two_admins_cannot_both_take_one_conversation(db: TestDatabase) {
    let (app, first) = app_with(db, vec![]).await;
    let (second, _) = app.login(OTHER_ADMIN).await;
    let ana = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let tries = (0..16).map(|n| {
        let token = if n % 2 == 0 { first.clone() } else { second.clone() };
        let (app, ana) = (&app, ana.clone());
        async move { (n % 2, take(app, &token, &ana).await) }
    });
    let results = futures::future::join_all(tries).await;
    let winners: std::collections::HashSet<usize> =
        results.iter().filter(|(_, (status, _))| *status == 200).map(|(who, _)| *who).collect();
    assert_eq!(winners.len(), 1, "one admin holds it: {results:?}");
    let (loser_status, loser_body) = &results.iter().find(|(who, _)| !winners.contains(who)).unwrap().1;
    assert_eq!(*loser_status, 409, "{loser_body}");
    assert_eq!(loser_body["error"], "ABORTED");
    assert!(loser_body["message"].as_str().unwrap().contains("já está sendo atendida"), "{loser_body}");

    // The one who does not hold it cannot write as the consultant meanwhile either.
    write(&app, ANA, "Oi").await;
    let loser = if winners.contains(&0) { &second } else { &first };
    assert_eq!(send_as_person(&app, loser, &ana, "Oi, Ana").await.0, 409);
}
on_both_engines!(two_admins_cannot_both_take_one_conversation);

async fn a_message_outside_whatsapps_24_hour_window_is_refused_with_a_clear_message(db: TestDatabase) {
    let (app, admin) = app_with(db, vec![]).await;
    let ana = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (status, body) = send_as_person(&app, &admin, &ana, "Oi, Ana!").await;
    assert_eq!((status, body["error"].as_str()), (409, Some("FAILED_PRECONDITION")), "never wrote: {body}");
    app.say(ANA, "Oi").await;
    // A day and an hour later (the admin signs in again: the first token has lapsed).
    app.db.clock().advance(25 * 60 * 60 * 1000);
    let (admin, _) = app.login(ADMIN).await;
    let outbound = app.count("select count(*) as n from messages where direction = 'outbound'").await;
    let (status, body) = send_as_person(&app, &admin, &ana, "Oi, Ana!").await;
    assert_eq!(status, 409, "{body}");
    assert!(body["message"].as_str().unwrap().contains("24 horas"), "{body}");
    let after = app.count("select count(*) as n from messages where direction = 'outbound'").await;
    assert_eq!(after, outbound, "nothing stored, nothing sent");
    let (status, body) = send_as_person(&app, &admin, &ana, "  ").await;
    assert_eq!((status, body["error"].as_str()), (400, Some("INVALID_ARGUMENT")));
}
on_both_engines!(a_message_outside_whatsapps_24_hour_window_is_refused_with_a_clear_message);

async fn a_taken_conversation_stays_taken_after_a_restart(db: TestDatabase) {
    let (app, admin) = app_with(db, vec![]).await;
    let ana = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    app.say(ANA, "Oi").await;
    assert_eq!(take(&app, &admin, &ana).await.0, 200);
    let db = app.stop().await;
    let app = start(db, vec![]).await;
    let before = app.texts_to(ANA).await.len();
    write(&app, ANA, "Ainda está aí?").await;
    app.drain_jobs().await;
    assert_eq!(app.texts_to(ANA).await.len(), before, "still the admin's to answer");
    assert_eq!(queue(&app, &admin).await["handoffs"][0]["status"], "taken");
}
on_both_engines!(a_taken_conversation_stays_taken_after_a_restart);

async fn pro_users_ask_for_a_consultation_call_from_the_dashboard_into_the_same_queue(db: TestDatabase) {
    let (app, admin) = app_with(db, vec![]).await;
    let ana = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let ask = |times: &'static str| {
        let token = token.clone();
        let app = &app;
        async move {
            app.call(
                Method::POST,
                "/api/dashboard/consultation-call",
                json!({"preferredTimes": times}),
                Some(&token),
            )
            .await
        }
    };
    let (status, body) = ask("").await;
    assert_eq!((status, body["error"].as_str()), (400, Some("INVALID_ARGUMENT")), "{body}");
    let (status, body) = ask("Terças e quintas, depois das 14h").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["queued"], true);
    assert!(body["message"].as_str().unwrap().contains("WhatsApp"));
    assert_eq!(ask("Qualquer dia").await.1["data"]["queued"], false, "one request at a time");
    let handoff = &queue(&app, &admin).await["handoffs"][0];
    assert_eq!(handoff["userId"], ana.as_str());
    assert_eq!(handoff["reason"], "call");
    assert_eq!(handoff["note"], "Terças e quintas, depois das 14h");

    app.register("+5521998765432").await;
    let (free, _) = app.login("+5521998765432").await;
    let (status, _) = app
        .call(
            Method::POST,
            "/api/dashboard/consultation-call",
            json!({"preferredTimes": "Amanhã"}),
            Some(&free),
        )
        .await;
    assert_eq!(status, 409, "a Pro feature");

    assert!(socio::erasure::Erasure::new(app.db.clone()).erase(&ana).await.unwrap());
    assert_eq!(queue(&app, &admin).await["handoffs"], json!([]), "erasure takes the request with it");
}
on_both_engines!(pro_users_ask_for_a_consultation_call_from_the_dashboard_into_the_same_queue);

async fn a_call_asked_while_already_waiting_for_a_person_keeps_its_times(db: TestDatabase) {
    let (app, admin) = app_with(db, vec![]).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    app.say(ANA, "Oi, quero falar com um humano, por favor").await;
    assert_eq!(queue(&app, &admin).await["handoffs"][0]["reason"], "asked");
    let (token, _) = app.login(ANA).await;
    let (status, body) = app
        .call(
            Method::POST,
            "/api/dashboard/consultation-call",
            json!({"preferredTimes": "Sexta às 10h"}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["queued"], true, "not refused as a duplicate: {body}");
    assert!(body["message"].as_str().unwrap().contains("Anotamos os horários"), "{body}");
    let handoffs = queue(&app, &admin).await["handoffs"].clone();
    assert_eq!(handoffs.as_array().unwrap().len(), 1, "still one request: {handoffs}");
    assert_eq!(handoffs[0]["reason"], "call");
    assert_eq!(handoffs[0]["note"], "Sexta às 10h — Oi, quero falar com um humano, por favor");
}
on_both_engines!(a_call_asked_while_already_waiting_for_a_person_keeps_its_times);

async fn two_call_requests_at_once_make_one_request(db: TestDatabase) {
    let (app, admin) = app_with(db, vec![]).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let ask = |times: &'static str| {
        app.call(
            Method::POST,
            "/api/dashboard/consultation-call",
            json!({"preferredTimes": times}),
            Some(&token),
        )
    };
    let (first, second) = tokio::join!(ask("Segunda de manhã"), ask("Quarta à tarde"));
    assert_eq!((first.0, second.0), (200, 200), "{first:?} {second:?}");
    let mut queued = [first.1["data"]["queued"].clone(), second.1["data"]["queued"].clone()];
    queued.sort_by_key(|q| q == &json!(true));
    assert_eq!(queued, [json!(false), json!(true)], "one added, one told it is already there");
    assert_eq!(queue(&app, &admin).await["handoffs"].as_array().unwrap().len(), 1);
}
on_both_engines!(two_call_requests_at_once_make_one_request);

async fn only_admins_reach_the_handoff_calls(db: TestDatabase) {
    let (app, _) = app_with(db, vec![]).await;
    let ana = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    assert_eq!(app.call(Method::GET, "/api/admin/handoffs", Value::Null, Some(&token)).await.0, 403);
    assert_eq!(take(&app, &token, &ana).await.0, 403);
    assert_eq!(send_as_person(&app, &token, &ana, "Oi").await.0, 403);
    assert_eq!(app.call(Method::GET, "/api/admin/handoffs", Value::Null, None).await.0, 401);
}
on_both_engines!(only_admins_reach_the_handoff_calls);

async fn the_model_can_call_a_person_into_the_conversation(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    llm.answer_with([
        (200, tool_call("request_human", json!({"reason": "quer contestar uma cobrança"}))),
        (200, text("Chamei uma pessoa da equipe, ela vai te responder aqui.")),
    ]);
    let (app, admin) = app_with(db, llm.config(5)).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let reply = app.say(ANA, "Fui cobrada duas vezes este mês").await;
    assert!(reply.contains("Chamei uma pessoa"), "{reply}");
    let handoff = &queue(&app, &admin).await["handoffs"][0];
    assert_eq!(handoff["note"], "quer contestar uma cobrança");
}
on_both_engines!(the_model_can_call_a_person_into_the_conversation);

async fn a_team_described_with_an_atendente_calls_nobody(db: TestDatabase) {
    let (app, admin) = app_with(db, vec![]).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    app.say_all(ANA, "Oi").await;
    for words in [
        "Somos 4 pessoas: eu, um padeiro, um atendente e um entregador",
        "O cliente pode falar com alguém no balcão",
    ] {
        let reply = app.say_all(ANA, words).await;
        assert!(!reply.contains("pessoa da nossa equipe"), "{words}: {reply}");
    }
    assert_eq!(queue(&app, &admin).await["waiting"], 0, "nobody asked for a person");
}
on_both_engines!(a_team_described_with_an_atendente_calls_nobody);

async fn with_a_model_the_model_decides_and_the_words_alone_call_nobody(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    // The model reads "falar com um humano" here as part of the plan (a bakery's service), and
    // answers without its request_human tool: nobody is called on top of it.
    llm.answer_with([(
        200,
        text("Anotei: atendimento no balcão, com uma pessoa para falar com os clientes."),
    )]);
    let (app, admin) = app_with(db, llm.config(5)).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let reply =
        app.say(ANA, "Quero falar com um humano sobre o atendimento: preciso contratar alguém?").await;
    assert!(reply.contains("Anotei"), "{reply}");
    assert_eq!(queue(&app, &admin).await["waiting"], 0);
    assert_eq!(llm.requests().len(), 1, "the model answered");
}
on_both_engines!(with_a_model_the_model_decides_and_the_words_alone_call_nobody);

async fn watch(app: &TestApp, token: &str, user_id: &str) -> Streaming<WatchConversationResponse> {
    let mut grpc = HandoffServiceClient::new(app.grpc_channel().await);
    let mut request = tonic::Request::new(WatchConversationRequest { id: user_id.to_owned() });
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    grpc.watch_conversation(request).await.unwrap().into_inner()
}

/// The next view the stream sends, within a second.
async fn next_view(stream: &mut Streaming<WatchConversationResponse>) -> WatchConversationResponse {
    tokio::time::timeout(Duration::from_secs(1), stream.next())
        .await
        .expect("a view within a second")
        .expect("the stream is open")
        .expect("a view, not an error")
}

async fn the_live_view_follows_the_conversation_and_its_handoff(db: TestDatabase) {
    let (app, admin) = app_with(db, vec![]).await;
    let ana = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let mut view = watch(&app, &admin, &ana).await;
    let first = next_view(&mut view).await;
    assert!(first.messages.is_empty());
    assert_eq!(first.handoff.unwrap().status, HandoffStatus::None as i32);

    write(&app, ANA, "Quero falar com uma pessoa").await;
    let seen = next_view(&mut view).await;
    assert!(seen.messages.iter().any(|m| m.content == "Quero falar com uma pessoa"), "{seen:?}");
    assert_eq!(take(&app, &admin, &ana).await.0, 200);
    let mut latest = next_view(&mut view).await;
    while latest.handoff.as_ref().unwrap().status != HandoffStatus::Taken as i32 {
        latest = next_view(&mut view).await;
    }
    assert_eq!(latest.handoff.unwrap().taken_by_name, "Carla Mendes");
}
on_both_engines!(the_live_view_follows_the_conversation_and_its_handoff);
