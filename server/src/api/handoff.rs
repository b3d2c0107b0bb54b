//! `HandoffService`: a human consultant steps in — the queue of people waiting for a person,
//! taking a conversation over, answering as a person on WhatsApp, giving it back, and a live view
//! of the conversation. Admins only (the service's `(socio.v1.service_access) = ACCESS_ADMIN`); every change is audited in the same
//! transaction that makes it.

use std::time::Duration;

use futures::StreamExt;
use tokio::sync::broadcast::error::RecvError;

use super::{
    call::{Answer, Call, Reply, rpc_service},
    protos::chat::admin_chat_message,
    timestamp,
};
use crate::{
    conversation::{
        desk::{Desk, View},
        handoff::{Handoff, Reason, Status},
    },
    error::{AppError, Problem},
    identity::{live::LiveSessions, users::User},
    proto::socio::v1::{self as pb, handoff_service_server::HandoffService},
};

const MAX_TEXT_CHARS: usize = 4096;
/// Messages a live view shows.
const VIEW_MESSAGES: i64 = 100;
/// A live view re-reads this often even unprompted, for delivery statuses (not announced).
const VIEW_REFRESH: Duration = Duration::from_secs(2);

#[derive(Clone)]
pub struct HandoffApi {
    desk: Desk,
    sessions: LiveSessions,
}

impl HandoffApi {
    pub fn new(desk: Desk, sessions: LiveSessions) -> Self {
        Self { desk, sessions }
    }
}

fn handoff_proto(handoff: &Handoff, now: i64) -> pb::Handoff {
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
async fn snapshot(desk: &Desk, person: &User) -> Result<pb::WatchConversationResponse, AppError> {
    let View { messages, handoff, at } = desk.view(person, VIEW_MESSAGES).await?;
    Ok(pb::WatchConversationResponse {
        messages: messages.iter().map(admin_chat_message).collect(),
        handoff: Some(handoff.map_or_else(|| no_handoff(person), |h| handoff_proto(&h, at))),
    })
}

impl HandoffApi {
    async fn list_handoffs(&self, _call: Call<ListHandoffs>) -> Answer<ListHandoffs> {
        let (all, now) = self.desk.queue().await?;
        let waiting = all.iter().filter(|h| h.status == Status::Waiting).count() as i32;
        Ok(Reply::from(pb::ListHandoffsResponse {
            handoffs: all.iter().map(|h| handoff_proto(h, now)).collect(),
            waiting,
            taken: all.len() as i32 - waiting,
        }))
    }

    async fn take_over_conversation(&self, call: Call<TakeOverConversation>) -> Answer<TakeOverConversation> {
        let admin = call.caller()?.user.clone();
        let person = self.desk.person(&call.body().id).await?;
        let taken = self.desk.take_over(&admin, &person).await?;
        tracing::info!(target: "security", event = "conversation_taken", admin = %admin.id, user = %person.id, "an admin took a conversation over");
        let notice = say!(crate::locale::current(), "api-handoff-you-took-the-conversation-over");
        Ok(Reply::with_message(
            pb::TakeOverConversationResponse { handoff: Some(handoff_proto(&taken, self.desk.now_ms())) },
            notice,
        ))
    }

    async fn give_back_conversation(&self, call: Call<GiveBackConversation>) -> Answer<GiveBackConversation> {
        let admin = call.caller()?.user.clone();
        let person = self.desk.person(&call.body().id).await?;
        self.desk.give_back(&admin, &person).await?;
        let notice = say!(crate::locale::current(), "api-handoff-conversation-given-back-to-s");
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
        let person = self.desk.person(&body.id).await?;
        let sent = self.desk.write(&admin, &person, text).await?;
        let notice = say!(crate::locale::current(), "api-handoff-message-sent-on-whatsapp");
        Ok(Reply::with_message(
            pb::SendConsultantMessageResponse { message: Some(admin_chat_message(&sent)) },
            notice,
        ))
    }

    async fn watch_conversation(&self, call: Call<WatchConversation>) -> Answer<WatchConversation> {
        let caller = call.caller()?.clone();
        let person = self.desk.person(&call.body().id).await?;
        // Hear changes before the first read, so nothing falls between the two.
        let notices = self.desk.changes();
        let first = snapshot(&self.desk, &person).await?;
        let desk = self.desk.clone();
        let changes = futures::stream::unfold(
            (desk, person, notices, first.clone()),
            move |(desk, person, mut notices, mut shown)| async move {
                loop {
                    let refresh = tokio::time::sleep(VIEW_REFRESH);
                    tokio::select! {
                        () = refresh => {}
                        heard = notices.recv() => match heard {
                            Ok(notice) if !Desk::concerns(&notice, &person.id) => continue,
                            Ok(_) | Err(RecvError::Lagged(_)) => {}
                            Err(RecvError::Closed) => return None,
                        },
                    }
                    match snapshot(&desk, &person).await {
                        Ok(now) if now == shown => {}
                        Ok(now) => {
                            shown = now.clone();
                            return Some((Ok(now), (desk, person, notices, shown)));
                        }
                        Err(error) => return Some((Err(error.into()), (desk, person, notices, shown))),
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
