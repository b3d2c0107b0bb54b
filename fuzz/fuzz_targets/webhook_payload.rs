//! Meta's webhook body, as anyone on the internet can send it: parsing never panics, and whatever
//! parses names a sender that is a valid phone number or is skipped by the inbox.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|body: &[u8]| {
    if let Ok(inbound) = socio::whatsapp::payload::parse(body) {
        for message in &inbound.messages {
            let _ = socio::identity::phone::PhoneNumber::from_wa_id(&message.from);
        }
    }
});
