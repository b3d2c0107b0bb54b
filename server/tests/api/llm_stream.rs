//! The web chat with a model that streams: its words reach the browser as the model writes them,
//! an answer survives the browser leaving, a tool call streamed in pieces is saved before the
//! answer streams, and a model that ignores `stream` still answers in one piece.

use std::time::Duration;

use crate::{
    fake_llm::FakeLlm,
    helpers::{TestApp, TestDatabase},
    llm::{ANA, app_with_model, section},
    on_both_engines,
};

/// Opens the web chat for `token` and sends `text`: the stream of events.
async fn open_chat(
    app: &TestApp,
    token: &str,
    text: &str,
) -> tonic::Streaming<socio::proto::socio::v1::ChatResponse> {
    use socio::proto::socio::v1::{ChatRequest, consultant_service_client::ConsultantServiceClient};
    let mut client = ConsultantServiceClient::new(app.grpc_channel().await);
    let mut request = tonic::Request::new(ChatRequest { text: text.into() });
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    client.chat(request).await.unwrap().into_inner()
}

async fn the_web_chat_streams_the_model_s_words_as_they_come(db: TestDatabase) {
    use socio::proto::socio::v1::chat_response::Event;
    let llm = FakeLlm::start().await;
    let rest = llm.stream_text_held(&["Ótima ", "pergunta, ", "Ana!"]);
    let app = app_with_model(db, &llm, 10).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let mut stream = open_chat(&app, &token, "Como precifico meu pão?").await;
    // The model has said its first words and is still writing the rest: she already sees them.
    let first_words = async {
        loop {
            match stream.message().await.unwrap().expect("the stream goes on").event {
                Some(Event::Delta(piece)) => return piece,
                Some(Event::Reply(_)) => panic!("the whole before the model finished"),
                _ => {}
            }
        }
    };
    let first = tokio::time::timeout(Duration::from_secs(5), first_words)
        .await
        .expect("the first words, before the whole");
    rest.open();
    let mut deltas = vec![first];
    let mut reply = None;
    while let Some(event) = stream.message().await.unwrap() {
        match event.event {
            Some(Event::Delta(piece)) => deltas.push(piece),
            Some(Event::Reply(message)) => reply = Some(message),
            _ => {}
        }
    }
    assert_eq!(deltas, vec!["Ótima ", "pergunta, ", "Ana!"], "piece by piece");
    assert_eq!(reply.unwrap().content, "Ótima pergunta, Ana!");
    assert_eq!(llm.requests()[0]["stream"], true, "asked to stream");
}
on_both_engines!(the_web_chat_streams_the_model_s_words_as_they_come);

async fn a_browser_that_leaves_mid_answer_finds_it_in_the_conversation(db: TestDatabase) {
    let llm = FakeLlm::start().await;
    let rest = llm.stream_text_held(&["Primeiro, ", "calcule ", "seus custos."]);
    let app = app_with_model(db, &llm, 10).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let mut stream = open_chat(&app, &token, "Por onde começo?").await;
    stream.message().await.unwrap(); // the question, stored
    drop(stream); // the browser closes the tab while the model is still writing
    rest.open();
    crate::helpers::eventually("the answer is kept", || async {
        app.count("select count(*) as n from messages where content = 'Primeiro, calcule seus custos.'").await
            == 1
    })
    .await;
}
on_both_engines!(a_browser_that_leaves_mid_answer_finds_it_in_the_conversation);

async fn a_tool_call_streamed_in_pieces_saves_into_the_plan_and_the_answer_streams_after(db: TestDatabase) {
    use socio::proto::socio::v1::chat_response::Event;
    let llm = FakeLlm::start().await;
    llm.stream_tool_call(
        "save_plan_section",
        &[
            r#"{"section": "idea", "#,
            r#""fields": {"businessIdea": "Padaria "#,
            r#"de fermentação natural"}}"#,
        ],
    );
    llm.stream_text(&["Anotei ", "a sua ideia."]);
    let app = app_with_model(db, &llm, 10).await;
    let id = app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let mut stream = open_chat(&app, &token, "Quero abrir uma padaria de fermentação natural").await;
    let mut text = String::new();
    while let Some(event) = stream.message().await.unwrap() {
        if let Some(Event::Delta(piece)) = event.event {
            text.push_str(&piece);
        }
    }
    assert_eq!(text, "Anotei a sua ideia.");
    assert_eq!(section(&app, &id, "idea").await["businessIdea"], "Padaria de fermentação natural");
}
on_both_engines!(a_tool_call_streamed_in_pieces_saves_into_the_plan_and_the_answer_streams_after);

async fn a_model_that_ignores_stream_still_answers_the_web_chat_in_one_piece(db: TestDatabase) {
    use socio::proto::socio::v1::chat_response::Event;
    let llm = FakeLlm::start().await;
    let app = app_with_model(db, &llm, 10).await;
    app.make_pro(ANA, socio::locale::Language::PtBr).await;
    let (token, _) = app.login(ANA).await;
    let mut stream = open_chat(&app, &token, "Oi").await;
    let mut events = Vec::new();
    while let Some(event) = stream.message().await.unwrap() {
        events.push(event.event.unwrap());
    }
    assert!(matches!(&events[1], Event::Delta(t) if t == "Olá! Sou o Sócio, com o modelo."), "{events:?}");
    assert!(matches!(&events[2], Event::Reply(m) if m.content == "Olá! Sou o Sócio, com o modelo."));
}
on_both_engines!(a_model_that_ignores_stream_still_answers_the_web_chat_in_one_piece);
