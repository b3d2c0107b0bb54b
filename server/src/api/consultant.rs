//! `ConsultantService`: the consultant from the web, with the same engine and the same
//! conversation as WhatsApp. Pro users and admins only.

use tonic::{Request, Response};

use super::{Rpc, edge, paging::Page, timestamp};
use crate::{
    consultant::{engine::Engine, replies},
    conversation::messages::{self, Author, Message},
    db::{Db, now_ms},
    error::{AppError, Precondition, Problem},
    identity::users,
    proto::socio::v1::{self as pb, chat_response::Event, consultant_service_server::ConsultantService},
};

const MAX_TEXT_CHARS: usize = 4096;

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
    }
}

#[tonic::async_trait]
impl ConsultantService for ConsultantApi {
    async fn chat(
        &self,
        request: Request<pb::ChatRequest>,
    ) -> Rpc<tonic::codegen::BoxStream<pb::ChatResponse>> {
        let caller = edge::caller(&request)?;
        let user = caller.user;
        if !replies::entitled(&user) {
            return Err(AppError::FailedPrecondition(Precondition::ConsultantIsPro).into());
        }
        let text = request.get_ref().text.trim().to_owned();
        if text.is_empty() {
            return Err(AppError::invalid("text", Problem::Required).into());
        }
        if text.chars().count() > MAX_TEXT_CHARS {
            return Err(AppError::invalid("text", Problem::TooLong { max: MAX_TEXT_CHARS }).into());
        }
        let now = now_ms();
        let asked = messages::insert_web_message(&self.db, &user.id, Author::User, &text, now)
            .await
            .map_err(AppError::from)?;
        let mut conn = self.db.pool().acquire().await.map_err(AppError::from)?;
        users::touch(&mut conn, &user.id, now).await.map_err(AppError::from)?;
        drop(conn);
        let answer = self.engine.reply(&user, &text).await?;
        let answered = messages::insert_web_message(
            &self.db,
            &user.id,
            Author::Assistant,
            &answer,
            now_ms().max(now + 1),
        )
        .await
        .map_err(AppError::from)?;
        let events = vec![
            Ok(pb::ChatResponse { event: Some(Event::UserMessage(chat_message(&asked))) }),
            Ok(pb::ChatResponse { event: Some(Event::Delta(answer)) }),
            Ok(pb::ChatResponse { event: Some(Event::Reply(chat_message(&answered))) }),
        ];
        Ok(Response::new(Box::pin(tokio_stream::iter(events))))
    }

    async fn list_chat_messages(
        &self,
        request: Request<pb::ListChatMessagesRequest>,
    ) -> Rpc<pb::ListChatMessagesResponse> {
        let caller = edge::caller(&request)?;
        let page = Page::parse(request.get_ref().page, request.get_ref().limit, 50)?;
        let (mut found, total) = messages::page(&self.db, &caller.user.id, page.limit, page.offset())
            .await
            .map_err(AppError::from)?;
        found.reverse();
        Ok(Response::new(pb::ListChatMessagesResponse {
            messages: found.iter().map(chat_message).collect(),
            total: total as i32,
            total_pages: page.count(total),
        }))
    }
}
