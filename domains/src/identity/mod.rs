//! Who people are: phone numbers and WhatsApp identities, users, login codes, sessions, and the caller of each request.

use crate::db::personal::{Erase, HandOver, Personal};

pub mod caller;
pub mod changes;
pub mod codes;
pub mod contact;
pub mod device;
pub mod directory;
pub mod export_links;
pub mod links;
pub mod live;
pub mod login;
pub mod message_login;
pub mod numbers;
pub mod phone;
pub mod roles;
pub mod search;
pub mod sessions;
pub mod totals;
pub mod users;
pub mod verified;

/// Identity's rows of a person, all erased, the user row last: sessions, logins by message,
/// copies of their data still to be fetched, and the pairs of accounts listed for an admin. None
/// is handed over: an absorbed account's go with it (`numbers::remove_absorbed`). Login codes and
/// failure counts are kept by number, not by id: the erasure clears them by the person's numbers.
pub const PERSONAL: &[Personal] = &[
    Personal::of("refresh_tokens", "user_id", Erase::Delete, HandOver::Stay),
    Personal::of("message_logins", "user_id", Erase::Delete, HandOver::Stay),
    Personal::of("export_links", "user_id", Erase::Delete, HandOver::Stay),
    // The links an admin asked for others' copies: they live only as long as their session.
    Personal::of("export_links", "requester_id", Erase::Delete, HandOver::Stay),
    Personal::of("phone_key_conflicts", "user_id", Erase::Delete, HandOver::Stay),
    Personal::of("phone_key_conflicts", "kept_user_id", Erase::Delete, HandOver::Stay),
    Personal::of("users", "id", Erase::Delete, HandOver::Stay),
];
