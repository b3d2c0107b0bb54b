//! Conversations: the messages users send and we answer (stored, deduplicated, with delivery
//! status), the inbox that takes WhatsApp deliveries in (a number change moves the person's account),
//! the delivery of our replies, logging in by sending a message, a human consultant stepping in (handoff, and the team's desk), the summary of what was
//! said before the model's window, and the announcements that keep admin views of a conversation
//! live; a person's overview (the dashboard's read) in one round trip.

pub mod delivery;
pub mod desk;
pub mod erase;
pub mod handoff;
pub mod inbox;
pub mod login_question;
pub mod messages;
pub mod notices;
pub mod number_change;
pub mod overview;
pub mod proactive;
pub mod reminder_words;
mod sent;
pub mod split;
pub mod summaries;
pub mod turns;
pub mod updates;
