//! Conversations: the messages users send and we answer (stored, deduplicated, with delivery
//! status), the inbox that takes WhatsApp deliveries in (a number change moves the person's account),
//! the delivery of our replies, logging in by sending a message, a human consultant stepping in (handoff, and the team's desk), the summary of what was
//! said before the model's window, and the announcements that keep admin views of a conversation
//! live; a person's overview (the dashboard's read) in one round trip.

pub mod delivery;
pub mod desk;
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

use crate::db::personal::{Erase, HandOver, Personal};

/// The conversation's rows of a person: their messages, handoffs, summary, WhatsApp's notices
/// about them and the check-ins they were sent go with an erasure; what they sent or took as an
/// admin stays without their id and name. A number change hands over the messages, notices and
/// check-ins (a month's check-in the receiving account was already sent is not sent twice).
pub const PERSONAL: &[Personal] = &[
    Personal::of("messages", "user_id", Erase::Delete, HandOver::Move),
    Personal::of("messages", "sent_by", Erase::Forget(&["sent_by", "sent_by_name"]), HandOver::Stay),
    Personal::of("handoffs", "user_id", Erase::Delete, HandOver::Stay),
    Personal::of("handoffs", "taken_by", Erase::Forget(&["taken_by", "taken_by_name"]), HandOver::Stay),
    Personal::of("conversation_summaries", "user_id", Erase::Delete, HandOver::Stay),
    Personal::of("whatsapp_notices", "user_id", Erase::Delete, HandOver::Move),
    Personal::of("reminders_sent", "user_id", Erase::Delete, HandOver::MoveUnlessHeld(&["kind", "period"])),
];
