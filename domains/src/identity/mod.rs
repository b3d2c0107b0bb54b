//! Who people are: phone numbers and WhatsApp identities, users, login codes, sessions, and the caller of each request.

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
