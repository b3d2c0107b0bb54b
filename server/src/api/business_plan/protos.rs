//! The builder's own mappers: a change of the feed with its source, and
//! the source a client may name. Only this adapter returns them; the plan itself is mapped in
//! `api::protos::plan`.

use crate::{
    api::timestamp,
    plan::store::{Change, Source},
    proto::{json::json_to_struct, socio::v1 as pb},
};

pub(super) fn source_proto(source: Source) -> pb::ChangeSource {
    match source {
        Source::Dashboard => pb::ChangeSource::Dashboard,
        Source::Builder => pb::ChangeSource::Builder,
        Source::WhatsApp => pb::ChangeSource::Whatsapp,
        Source::WebChat => pb::ChangeSource::WebChat,
        Source::Admin => pb::ChangeSource::Admin,
        Source::Api => pb::ChangeSource::Api,
    }
}

/// The source of a change a person makes through these calls is the server's to say: a client may
/// only name which of its own screens sent it (the builder; the dashboard otherwise, as the spec
/// says). `admin`, `whatsapp` and `web_chat` are set by the server where those happen, never taken
/// from a body.
pub(super) fn source_from_proto(value: i32) -> Source {
    match pb::ChangeSource::try_from(value).unwrap_or(pb::ChangeSource::Unspecified) {
        pb::ChangeSource::Builder => Source::Builder,
        pb::ChangeSource::Unspecified
        | pb::ChangeSource::Dashboard
        | pb::ChangeSource::Whatsapp
        | pb::ChangeSource::WebChat
        | pb::ChangeSource::Admin
        | pb::ChangeSource::Api => Source::Dashboard,
    }
}

pub(super) fn change_proto(change: &Change) -> pb::PlanChange {
    pb::PlanChange {
        cursor: change.cursor.to_string(),
        step: change.step.proto() as i32,
        data: Some(json_to_struct(&change.data)),
        completed: change.completed,
        source: source_proto(change.source) as i32,
        actor_id: change.actor_id.clone().unwrap_or_default(),
        created_at: Some(timestamp(change.created_at)),
    }
}
