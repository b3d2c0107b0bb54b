//! Conversations: the messages users send and we answer (stored, deduplicated, with delivery
//! status), the inbox that takes WhatsApp deliveries in (a number change moves the person's account),
//! and the delivery of our replies.

pub mod delivery;
pub mod inbox;
pub mod messages;
pub mod notices;
pub mod number_change;
pub mod split;
