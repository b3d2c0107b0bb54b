//! The protocol edge: one thin adapter per proto service (validate, call a domain, map to proto)
//! behind one layer that authenticates and localises every call (`edge`), the REST transcoder
//! and the web app. Nothing below this layer imports it.

pub mod admin;
pub mod auth;
pub mod billing;
pub mod business_plan;
pub mod client_address;
pub mod consultant;
pub mod dashboard;
pub mod dev;
pub mod edge;
pub mod export;
pub mod handoff;
pub mod health;
pub mod landing;
pub mod paging;
pub mod rest;
pub mod security_headers;
pub mod system_prompts;
pub mod web;
pub mod webhooks;

use crate::{
    identity::users::{Role, Tier, User},
    locale::Language,
    proto::socio::v1 as pb,
};

/// What every RPC handler answers: a reply, or a status (an `AppError` turns into one with `?`).
pub type Rpc<T> = Result<tonic::Response<T>, tonic::Status>;

/// The caller's language from the request's `Accept-Language` metadata.
pub fn request_language<T>(request: &tonic::Request<T>) -> Language {
    Language::from_accept_language(request.metadata().get("accept-language").and_then(|v| v.to_str().ok()))
}

/// The language a call names in its body, which wins over `Accept-Language` for the whole reply,
/// errors included.
pub fn named_language<T>(request: &tonic::Request<T>, named: &str) -> Language {
    let lang = Language::parse(named).unwrap_or_else(|| request_language(request));
    crate::locale::answer_in(lang);
    lang
}

/// A Unix-milliseconds time as a protobuf timestamp.
pub fn timestamp(ms: i64) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: ms.div_euclid(1000), nanos: (ms.rem_euclid(1000) * 1_000_000) as i32 }
}

/// A user as the contracts show it.
pub fn user_proto(user: &User) -> pb::User {
    pb::User {
        id: user.id.clone(),
        name: user.name.clone(),
        phone_number: user.phone.e164().to_owned(),
        language: user.language.tag().to_owned(),
        subscription_status: match user.tier {
            Tier::Free => pb::SubscriptionStatus::Free,
            Tier::Pro => pb::SubscriptionStatus::Pro,
        } as i32,
        role: match user.role {
            Role::User => pb::Role::User,
            Role::Admin => pb::Role::Admin,
        } as i32,
        created_at: Some(timestamp(user.created_at)),
    }
}

/// Attaches a localised success message, which the REST envelope shows as `message`.
pub fn with_message<T>(message: T, text: &str) -> tonic::Response<T> {
    let mut response = tonic::Response::new(message);
    let encoded = percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string();
    if let Ok(value) = encoded.parse() {
        response.metadata_mut().insert(rest::MESSAGE_METADATA, value);
    }
    response
}

#[cfg(test)]
mod tests {
    #[test]
    fn timestamps_keep_millisecond_precision_even_before_1970() {
        let ts = super::timestamp(1_700_000_000_123);
        assert_eq!((ts.seconds, ts.nanos), (1_700_000_000, 123_000_000));
        let ts = super::timestamp(-1);
        assert_eq!((ts.seconds, ts.nanos), (-1, 999_000_000));
    }
}
