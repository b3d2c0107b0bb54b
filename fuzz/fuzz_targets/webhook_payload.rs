//! Meta's webhook body, as anyone on the internet can send it: parsing never panics, and every
//! message that parses names a sender the inbox can tell apart — a valid phone number or a
//! business-scoped user id.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|body: &[u8]| {
    if let Ok(inbound) = socio::whatsapp::payload::parse(body) {
        for message in &inbound.messages {
            assert!(message.from.address().is_some(), "a message without a sender was kept");
            let _ = socio::identity::contact::Contact::from_sender(&message.from);
        }
    }
});
