//! Mappers of the messages several services return — the plan, a conversation's message, a month's
//! numbers — kept here so that no adapter borrows another's. A mapper only one adapter needs lives
//! in that adapter.

pub mod chat;
pub mod months;
pub mod plan;
