//! `ConsultantService`: the consultant from the web, with the same engine and the same
//! conversation as WhatsApp. Pro users and admins only. `Chat` streams the model's words as they
//! come; the answer is composed and stored by a task of its own, so a browser that leaves mid-answer
//! finds it in the conversation.

use std::time::Duration;

use tonic::{Request, Response};

use super::{Rpc, edge, paging::Page, timestamp};
use crate::{
    consultant::{engine::Engine, replies},
    conversation::messages::{self, Author, Message},
    db::{
        Db, now_ms,
        rate_limit::{self, Limit},
    },
    error::{AppError, Precondition, Problem},
    identity::users,
    locale,
    proto::socio::v1::{self as pb, chat_response::Event, consultant_service_server::ConsultantService},
};

const MAX_TEXT_CHARS: usize = 4096;
/// Questions one person may ask from the web (each may call the model, which is paid by the
/// answer): a burst, and a day.
pub const CHAT_PER_TEN_MINUTES: Limit = Limit { max: 40, window: Duration::from_secs(600) };
pub const CHAT_PER_DAY: Limit = Limit { max: 300, window: Duration::from_secs(86_400) };

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
        rate_limit::per_key(&self.db, &format!("chat:user:{}:burst", user.id), CHAT_PER_TEN_MINUTES).await?;
        rate_limit::per_key(&self.db, &format!("chat:user:{}:day", user.id), CHAT_PER_DAY).await?;
        let now = now_ms();
        let asked = messages::insert_web_message(&self.db, &user.id, Author::User, &text, now)
            .await
            .map_err(AppError::from)?;
        let mut conn = self.db.pool().acquire().await.map_err(AppError::from)?;
        users::touch(&mut conn, &user.id, now).await.map_err(AppError::from)?;
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
                let at = now_ms().max(now + 1);
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
        Ok(Response::new(Box::pin(tokio_stream::wrappers::UnboundedReceiverStream::new(stream))))
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
