//! Conversations: the messages users send and we answer (stored, deduplicated, with delivery
//! status), the inbox that takes WhatsApp deliveries in, and the delivery of our replies.

pub mod delivery;
pub mod inbox;
pub mod messages;
pub mod notices;
