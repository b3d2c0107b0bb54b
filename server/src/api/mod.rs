//! The protocol edge: one thin adapter per proto service (validate, call a domain, map to proto)
//! behind one layer that authenticates and localises every call (`edge`), the REST transcoder
//! and the web app. Nothing below this layer imports it.

pub mod access;
pub mod account;
pub mod admin;
pub mod auth;
pub mod billing;
pub mod business_plan;
pub mod call;
pub mod client_address;
pub mod consultant;
pub mod dashboard;
pub mod dev;
pub mod edge;
pub mod export;
pub mod handoff;
pub mod health;
pub mod in_language;
pub mod landing;
pub mod paging;
pub mod protos;
pub mod rest;
pub mod results;
pub mod security_headers;
pub mod system_prompts;
pub mod unary;
pub mod web;
pub mod webhooks;

use crate::{
    billing::{
        manual_refunds::{ManualRefund, REFUND_BUSINESS_DAYS, RefundStatus},
        pix_key::PixKey,
    },
    error::{AppError, Problem},
    identity::users::{Role, Tier, User},
    proto::socio::v1 as pb,
};

/// A proto enum field as the domain's value: an unknown number, or a value `domain` refuses (the
/// unset one), is the field's "one of `choices`" error.
pub fn enum_field<E: TryFrom<i32>, T>(
    value: i32,
    field: &str,
    choices: &[&str],
    domain: impl FnOnce(E) -> Option<T>,
) -> Result<T, AppError> {
    E::try_from(value).ok().and_then(domain).ok_or_else(|| AppError::invalid(field, Problem::one_of(choices)))
}

/// A Unix-milliseconds time as a protobuf timestamp.
pub fn timestamp(ms: i64) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: ms.div_euclid(1000), nanos: (ms.rem_euclid(1000) * 1_000_000) as i32 }
}

/// A refund paid by hand by Pix as the contracts show it; `for_admin` adds whose it is.
pub fn pix_refund_proto(refund: &ManualRefund, for_admin: bool) -> pb::PixRefund {
    let key = refund.pix_key.as_deref().and_then(PixKey::parse);
    pb::PixRefund {
        id: refund.id.clone(),
        status: match refund.status {
            RefundStatus::AwaitingKey => pb::PixRefundStatus::AwaitingKey,
            RefundStatus::ToPay => pb::PixRefundStatus::ToPay,
            RefundStatus::Paid => pb::PixRefundStatus::Paid,
        } as i32,
        amount: refund.amount_cents as f64 / 100.0,
        paid_with: refund.paid_with.clone(),
        pix_key: refund.pix_key.clone().unwrap_or_default(),
        pix_key_label: key.map(|k| k.to_string()).unwrap_or_default(),
        business_days: REFUND_BUSINESS_DAYS as i32,
        requested_at: Some(timestamp(refund.requested_at)),
        key_given_at: refund.key_given_at.map(timestamp),
        paid_at: refund.paid_at.map(timestamp),
        user_id: if for_admin { refund.user_id.clone().unwrap_or_default() } else { String::new() },
        user_name: if for_admin { refund.name.clone().unwrap_or_default() } else { String::new() },
        phone_number: if for_admin { refund.phone.clone().unwrap_or_default() } else { String::new() },
    }
}

/// A user as the contracts show it.
pub fn user_proto(user: &User) -> pb::User {
    pb::User {
        id: user.id.clone(),
        name: user.name.clone(),
        phone_number: user.phone_e164(),
        username: user.username.clone().unwrap_or_default(),
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
