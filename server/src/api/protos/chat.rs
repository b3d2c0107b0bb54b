//! A message of the conversation as the contracts show it: to the person (the web chat) and to the
//! admins (who of the team wrote it, how its delivery went). The web chat, the admin panel and the
//! handoff desk show the same messages, so their adapters take these mappers from here.

use crate::{
    api::timestamp,
    conversation::messages::{Author, Message},
    proto::socio::v1 as pb,
};

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
