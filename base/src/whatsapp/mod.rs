//! The WhatsApp wire: Meta's webhook payloads and signature, and the sender port with its two
//! implementations (the Cloud API, and the dev outbox that stands in for phones), closed questions
//! as buttons and lists, and "typing…" while we compose.

pub mod choices;
pub mod cloud;
pub mod media;
pub mod notices;
pub mod outbox;
pub mod payload;
pub mod sender;
pub mod signature;
pub mod templates;
pub mod typing;
