//! `ConsultantService`: the consultant from the web, with the same engine and the same
//! conversation as WhatsApp. Pro users and admins only. `Chat` streams the model's words as they
//! come; the answer is composed and stored by a task of its own, so a browser that leaves mid-answer
//! finds it in the conversation.

use super::{
    call::{Answer, Call, rpc_service},
    paging::Page,
    protos::chat::chat_message,
};
use crate::{
    consultant::{replies, web_chat::WebChat},
    error::{AppError, Precondition, Problem},
    locale,
    proto::socio::v1::{self as pb, chat_response::Event, consultant_service_server::ConsultantService},
};

const MAX_TEXT_CHARS: usize = 4096;

#[derive(Clone)]
pub struct ConsultantApi {
    chat: WebChat,
}

impl ConsultantApi {
    pub fn new(chat: WebChat) -> Self {
        Self { chat }
    }
}

impl ConsultantApi {
    async fn chat(&self, call: Call<Chat>) -> Answer<Chat> {
        let caller = call.caller()?;
        let user = caller.user.clone();
        if !replies::entitled(&user) {
            return Err(AppError::FailedPrecondition(Precondition::ConsultantIsPro));
        }
        let text = call.body().text.trim().to_owned();
        if text.is_empty() {
            return Err(AppError::invalid("text", Problem::Required));
        }
        if text.chars().count() > MAX_TEXT_CHARS {
            return Err(AppError::invalid("text", Problem::TooLong { max: MAX_TEXT_CHARS }));
        }
        let asked = self.chat.ask(&user, &text).await?;

        let (events, stream) = tokio::sync::mpsc::unbounded_channel();
        let _ = events.send(Ok(pb::ChatResponse { event: Some(Event::UserMessage(chat_message(&asked))) }));
        let chat = self.chat.clone();
        let compose = async move {
            let (deltas, mut pieces) = tokio::sync::mpsc::unbounded_channel::<String>();
            let forward = {
                let events = events.clone();
                async move {
                    let mut said = false;
                    while let Some(piece) = pieces.recv().await {
                        said = true;
                        let _ = events.send(Ok(pb::ChatResponse { event: Some(Event::Delta(piece)) }));
                    }
                    said
                }
            };
            let answering = async move {
                let answered = chat.answer(&user, &asked, Some(&deltas)).await;
                drop(deltas);
                answered
            };
            let (said, answered) = tokio::join!(forward, answering);
            let reply = answered.map(|(answer, answered)| {
                if !said {
                    // The guide, or a model that does not stream: the whole answer at once.
                    let _ = events.send(Ok(pb::ChatResponse { event: Some(Event::Delta(answer)) }));
                }
                pb::ChatResponse { event: Some(Event::Reply(chat_message(&answered))) }
            });
            let _ = events.send(reply.map_err(tonic::Status::from));
        };
        // Its own task, in the request's language: it ends and stores the answer whether or not
        // anyone still listens.
        tokio::spawn(locale::in_request(locale::current(), compose));
        let stream: tonic::codegen::BoxStream<pb::ChatResponse> =
            Box::pin(tokio_stream::wrappers::UnboundedReceiverStream::new(stream));
        Ok(stream.into())
    }

    async fn list_chat_messages(&self, call: Call<ListChatMessages>) -> Answer<ListChatMessages> {
        let caller = call.caller()?;
        let page = Page::parse(call.body().page, call.body().limit, 50)?;
        let (mut found, total) = self.chat.page(&caller.user.id, page.limit, page.offset()).await?;
        found.reverse();
        Ok(page.reply(found.iter().map(chat_message), total))
    }
}

rpc_service!(ConsultantService for ConsultantApi {
    list_chat_messages,
} streams { chat });
