//! `HandoffService`: a human consultant steps in — the queue of people waiting for a person,
//! taking a conversation over, answering as a person on WhatsApp, giving it back, and a live view
//! of the conversation. Admins only (`access::ADMIN`); every change is audited in the same
//! transaction that makes it.

use std::time::Duration;

use futures::StreamExt;
use tokio::sync::broadcast::error::RecvError;

use super::{
    call::{Answer, Call, Reply, rpc_service, say},
    consultant::admin_chat_message,
    timestamp,
};
use crate::{
    audit,
    conversation::{
        handoff::{self, Handoff, Reason, Refusal, Status, Take},
        messages, updates,
    },
    db::Db,
    error::{AppError, Precondition, Problem, Resource},
    identity::{
        live::LiveSessions,
        users::{self, User},
    },
    proto::socio::v1::{self as pb, handoff_service_server::HandoffService},
};

const MAX_TEXT_CHARS: usize = 4096;
/// Messages a live view shows.
const VIEW_MESSAGES: i64 = 100;
/// A live view re-reads this often even unprompted, for delivery statuses (not announced).
const VIEW_REFRESH: Duration = Duration::from_secs(2);

#[derive(Clone)]
pub struct HandoffApi {
    db: Db,
    sessions: LiveSessions,
}

impl HandoffApi {
    pub fn new(db: Db, sessions: LiveSessions) -> Self {
        Self { db, sessions }
    }

    async fn person(&self, id: &str) -> Result<User, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        users::find_by_id(&mut conn, id).await?.ok_or(AppError::NotFound(Resource::User))
    }
}

pub fn handoff_proto(handoff: &Handoff, now: i64) -> pb::Handoff {
    let waited_until = handoff.taken_at.unwrap_or(now);
    pb::Handoff {
        user_id: handoff.user_id.clone(),
        user_name: handoff.user_name.clone(),
        phone_number: handoff.phone_number.clone(),
        status: match handoff.status {
            Status::Waiting => pb::HandoffStatus::Waiting,
            Status::Taken => pb::HandoffStatus::Taken,
        } as i32,
        reason: match handoff.reason {
            Reason::Asked => pb::HandoffReason::Asked,
            Reason::Call => pb::HandoffReason::Call,
            Reason::Admin => pb::HandoffReason::Admin,
        } as i32,
        note: handoff.note.clone(),
        requested_at: Some(timestamp(handoff.requested_at)),
        waiting_seconds: ((waited_until - handoff.requested_at) / 1000).max(0),
        taken_by_id: handoff.taken_by.clone().unwrap_or_default(),
        taken_by_name: handoff.taken_by_name.clone(),
        taken_at: handoff.taken_at.map(timestamp),
    }
}

/// A conversation nobody asked a person for.
fn no_handoff(person: &User) -> pb::Handoff {
    pb::Handoff {
        user_id: person.id.clone(),
        user_name: person.name.clone(),
        phone_number: person.handle(),
        status: pb::HandoffStatus::None as i32,
        ..Default::default()
    }
}

/// The person's latest messages (oldest first) and handoff, as a live view shows them.
async fn snapshot(db: &Db, person: &User) -> Result<pb::WatchConversationResponse, AppError> {
    let mut latest = messages::latest(db, &person.id, VIEW_MESSAGES, 0).await?;
    latest.reverse();
    let mut conn = db.pool().acquire().await?;
    let handoff = handoff::get(&mut conn, &person.id).await?;
    Ok(pb::WatchConversationResponse {
        messages: latest.iter().map(admin_chat_message).collect(),
        handoff: Some(handoff.map_or_else(|| no_handoff(person), |h| handoff_proto(&h, db.now_ms()))),
    })
}

impl HandoffApi {
    async fn list_handoffs(&self, _call: Call<ListHandoffs>) -> Answer<ListHandoffs> {
        let all = handoff::list(&self.db).await?;
        let now = self.db.now_ms();
        let waiting = all.iter().filter(|h| h.status == Status::Waiting).count() as i32;
        Ok(Reply::from(pb::ListHandoffsResponse {
            handoffs: all.iter().map(|h| handoff_proto(h, now)).collect(),
            waiting,
            taken: all.len() as i32 - waiting,
        }))
    }

    async fn take_over_conversation(&self, call: Call<TakeOverConversation>) -> Answer<TakeOverConversation> {
        let admin = call.caller()?.user.clone();
        let person = self.person(&call.body().id).await?;
        let taken = async {
            let mut tx = self.db.begin().await?;
            match handoff::take(&mut tx, &person.id, &admin, self.db.now_ms()).await? {
                Take::TakenBy(by) => return Err(AppError::ConversationTaken { by }),
                Take::Taken => {}
            }
            audit::record(&mut tx, &admin.id, "take_over_conversation", &person.id, "", self.db.now_ms())
                .await?;
            let taken = handoff::get(&mut tx, &person.id).await?.ok_or(AppError::NotFound(Resource::User))?;
            tx.commit().await?;
            Ok(taken)
        }
        .await?;
        tracing::info!(target: "security", event = "conversation_taken", admin = %admin.id, user = %person.id, "an admin took a conversation over");
        let notice = say(
            "Você assumiu a conversa: o Sócio não responde até você devolvê-la.",
            "You took the conversation over: Sócio will not answer until you give it back.",
        );
        Ok(Reply::with_message(
            pb::TakeOverConversationResponse { handoff: Some(handoff_proto(&taken, self.db.now_ms())) },
            notice,
        ))
    }

    async fn give_back_conversation(&self, call: Call<GiveBackConversation>) -> Answer<GiveBackConversation> {
        let admin = call.caller()?.user.clone();
        let person = self.person(&call.body().id).await?;
        async {
            let mut tx = self.db.begin().await?;
            if handoff::give_back(&mut tx, &person.id).await? {
                audit::record(&mut tx, &admin.id, "give_back_conversation", &person.id, "", self.db.now_ms())
                    .await?;
            }
            tx.commit().await
        }
        .await?;
        let notice = say("Conversa devolvida ao Sócio.", "Conversation given back to Sócio.");
        Ok(Reply::with_message(pb::GiveBackConversationResponse {}, notice))
    }

    async fn send_consultant_message(
        &self,
        call: Call<SendConsultantMessage>,
    ) -> Answer<SendConsultantMessage> {
        let admin = call.caller()?.user.clone();
        let body = call.body();
        let text = body.text.trim();
        if text.is_empty() {
            return Err(AppError::invalid("text", Problem::Required));
        }
        if text.chars().count() > MAX_TEXT_CHARS {
            return Err(AppError::invalid("text", Problem::TooLong { max: MAX_TEXT_CHARS }));
        }
        let person = self.person(&body.id).await?;
        let sent = async {
            let mut tx = self.db.begin().await?;
            let id = match handoff::write_as_person(&mut tx, &person, &admin, text, self.db.now_ms()).await? {
                Ok(id) => id,
                Err(Refusal::OutsideWindow) => {
                    return Err(AppError::FailedPrecondition(Precondition::OutsideServiceWindow));
                }
                Err(Refusal::TakenBy(by)) => return Err(AppError::ConversationTaken { by }),
            };
            audit::record(&mut tx, &admin.id, "send_consultant_message", &person.id, &id, self.db.now_ms())
                .await?;
            tx.commit().await?; // wakes the workers for the send
            messages::get(&self.db, &id).await?.ok_or(AppError::NotFound(Resource::User))
        }
        .await?;
        let notice = say("Mensagem enviada pelo WhatsApp.", "Message sent on WhatsApp.");
        Ok(Reply::with_message(
            pb::SendConsultantMessageResponse { message: Some(admin_chat_message(&sent)) },
            notice,
        ))
    }

    async fn watch_conversation(&self, call: Call<WatchConversation>) -> Answer<WatchConversation> {
        let caller = call.caller()?.clone();
        let person = self.person(&call.body().id).await?;
        // Hear changes before the first read, so nothing falls between the two.
        let notices = self.db.notices();
        let first = snapshot(&self.db, &person).await?;
        let db = self.db.clone();
        let changes = futures::stream::unfold(
            (db, person, notices, first.clone()),
            move |(db, person, mut notices, mut shown)| async move {
                loop {
                    let refresh = tokio::time::sleep(VIEW_REFRESH);
                    tokio::select! {
                        () = refresh => {}
                        heard = notices.recv() => match heard {
                            Ok(notice) if !updates::concerns(&notice, &person.id) => continue,
                            Ok(_) | Err(RecvError::Lagged(_)) => {}
                            Err(RecvError::Closed) => return None,
                        },
                    }
                    match snapshot(&db, &person).await {
                        Ok(now) if now == shown => {}
                        Ok(now) => {
                            shown = now.clone();
                            return Some((Ok(now), (db, person, notices, shown)));
                        }
                        Err(error) => return Some((Err(error.into()), (db, person, notices, shown))),
                    }
                }
            },
        );
        // The view lives as long as the admin's session (logout, revocation or the token's expiry).
        let ended = self.sessions.ended(caller.user.id.clone(), caller.session_id, caller.token_expires_at);
        let unauthenticated = futures::stream::once(async { Err(AppError::Unauthenticated.into()) });
        let stream = futures::stream::once(async { Ok(first) })
            .chain(changes)
            .take_until(ended)
            .chain(unauthenticated);
        Ok(Reply::from(stream.boxed()))
    }
}

rpc_service!(HandoffService for HandoffApi {
    list_handoffs,
    take_over_conversation,
    give_back_conversation,
    send_consultant_message,
} streams { watch_conversation });
