//! `ConsultantService`: the consultant from the web, with the same engine and the same
//! conversation as WhatsApp. Pro users and admins only. `Chat` streams the model's words as they
//! come; the answer is composed and stored by a task of its own, so a browser that leaves mid-answer
//! finds it in the conversation.

use std::time::Duration;

use super::{
    call::{Answer, Call, rpc_service},
    paging::Page,
    timestamp,
};
use crate::{
    consultant::{engine::Engine, replies},
    conversation::messages::{self, Author, Message},
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::{AppError, Precondition, Problem},
    identity::users,
    locale,
    proto::socio::v1::{self as pb, chat_response::Event, consultant_service_server::ConsultantService},
};

const MAX_TEXT_CHARS: usize = 4096;
/// Questions one person may ask from the web (each may call the model, which is paid by the
/// answer), by the key's suffix: a burst in ten minutes, and a day.
pub const CHAT_LIMITS: [(&str, Limit); 2] = [
    ("burst", Limit { max: 40, window: Duration::from_secs(600) }),
    ("day", Limit { max: 300, window: Duration::from_secs(86_400) }),
];

#[derive(Clone)]
pub struct ConsultantApi {
    engine: Engine,
    db: Db,
}

impl ConsultantApi {
    pub fn new(engine: Engine, db: Db) -> Self {
        Self { engine, db }
    }
}

/// A message of the conversation as the web chat and the admin panel show it.
pub fn chat_message(message: &Message) -> pb::ChatMessage {
    pb::ChatMessage {
        id: message.id.clone(),
        r#type: match message.author {
            Author::User => pb::ChatMessageType::User,
            Author::Assistant => pb::ChatMessageType::Assistant,
        } as i32,
        content: message.content.clone(),
        timestamp: Some(timestamp(message.created_at)),
        written_by: String::new(),
        status: String::new(),
    }
}

/// A message as admins see it: also who of the team wrote it, and how its delivery went.
pub fn admin_chat_message(message: &Message) -> pb::ChatMessage {
    pb::ChatMessage {
        written_by: message.sent_by_name.clone().unwrap_or_default(),
        status: message.status.clone(),
        ..chat_message(message)
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
        for (window, limit) in CHAT_LIMITS {
            rate_limit::per_key(&self.db, &format!("chat:user:{}:{window}", user.id), limit).await?;
        }
        let now = self.db.now_ms();
        let asked = messages::insert_web_message(&self.db, &user.id, Author::User, &text, now).await?;
        let mut conn = self.db.pool().acquire().await?;
        users::touch(&mut conn, &user.id, now).await?;
        drop(conn);

        let (events, stream) = tokio::sync::mpsc::unbounded_channel();
        let _ = events.send(Ok(pb::ChatResponse { event: Some(Event::UserMessage(chat_message(&asked))) }));
        let (engine, db) = (self.engine.clone(), self.db.clone());
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
                let answer = engine.reply_streaming(&user, &text, Some(&deltas)).await;
                drop(deltas);
                let answer = answer?;
                let at = db.now_ms().max(now + 1);
                let answered =
                    messages::insert_web_message(&db, &user.id, Author::Assistant, &answer, at).await?;
                Ok::<_, AppError>((answer, answered))
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
        let (mut found, total) = messages::page(&self.db, &caller.user.id, page.limit, page.offset()).await?;
        found.reverse();
        Ok(page.reply(found.iter().map(chat_message), total))
    }
}

rpc_service!(ConsultantService for ConsultantApi {
    list_chat_messages,
} streams { chat });
