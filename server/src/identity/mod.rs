//! Who people are: phone numbers, users and (later) their login codes and sessions.

pub mod phone;
pub mod users;
