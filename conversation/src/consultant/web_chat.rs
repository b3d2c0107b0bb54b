//! The consultant from the web as a service: a question asked in the browser (within the person's
//! limits, stored in the same conversation as WhatsApp), the engine's answer stored after it, and
//! the conversation's pages. The consultant adapter holds no database.

use std::time::Duration;

use super::{engine::Engine, llm::Deltas};
use crate::{
    conversation::messages::{Author, Message, Messages},
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::AppError,
    identity::users::{User, Users},
};

/// Questions one person may ask from the web (each may call the model, which is paid by the
/// answer), by the key's suffix: a burst in ten minutes, and a day.
pub const CHAT_LIMITS: [(&str, Limit); 2] = [
    ("burst", Limit { max: 40, window: Duration::from_secs(600) }),
    ("day", Limit { max: 300, window: Duration::from_secs(86_400) }),
];

#[derive(Clone)]
pub struct WebChat {
    engine: Engine,
    db: Db,
    messages: Messages,
}

impl WebChat {
    pub fn new(engine: Engine, db: Db) -> Self {
        Self { engine, messages: Messages::new(db.clone()), db }
    }

    /// Stores the person's question (their limits first; `RateLimited` past them) and marks them
    /// active; the stored message.
    pub async fn ask(&self, user: &User, text: &str) -> Result<Message, AppError> {
        for (window, limit) in CHAT_LIMITS {
            rate_limit::per_key(&self.db, &format!("chat:user:{}:{window}", user.id), limit).await?;
        }
        let now = self.db.now_ms();
        let asked = self.messages.insert_web(&user.id, Author::User, text, now).await?;
        Users::new(self.db.clone()).touch(&user.id, now).await?;
        Ok(asked)
    }

    /// The consultant's answer to `asked` (its words sent to `deltas` as they come), stored after
    /// the question; the answer's text and the stored message.
    pub async fn answer(
        &self,
        user: &User,
        asked: &Message,
        deltas: Option<&Deltas>,
    ) -> Result<(String, Message), AppError> {
        let answer = self.engine.reply_streaming(user, &asked.content, deltas).await?;
        let at = self.db.now_ms().max(asked.created_at + 1);
        let answered = self.messages.insert_web(&user.id, Author::Assistant, &answer, at).await?;
        Ok((answer, answered))
    }

    /// A page of the person's conversation, newest first, and how many messages in all.
    pub async fn page(
        &self,
        user_id: &str,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Message>, i64), AppError> {
        self.messages.page(user_id, limit, offset).await
    }
}
