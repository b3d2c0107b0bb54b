//! Buying from the site without an account: a visitor who picks Pro and an interval on the site is
//! sent to WhatsApp with a ready message that names the choice ("Quero assinar o Sócio Pro anual"),
//! because only a number that wrote to us has an account. The consultant reads the choice back from
//! that message and answers with the checkout link for that interval. The message's words and their
//! reading live here, side by side, so the site and the consultant cannot drift apart.

use super::subscriptions::Interval;
use crate::locale::Language;

/// The ready message a visitor sends to subscribe to Pro for `interval`.
pub fn subscribe_text(interval: Interval, lang: Language) -> String {
    say!(lang, "billing-subscribe-on-whatsapp", yearly = matches!(interval, Interval::Yearly))
}

/// `https://wa.me/<number>?text=<the ready message>`.
pub fn subscribe_url(business_number: &str, interval: Interval, lang: Language) -> String {
    let ready = subscribe_text(interval, lang);
    let text = percent_encoding::utf8_percent_encode(&ready, percent_encoding::NON_ALPHANUMERIC);
    format!("https://wa.me/{business_number}?text={text}")
}

/// The interval a message asks Pro for, when it is (or holds) the ready message — in either
/// language, whatever its case, accents or punctuation, as people and phones retype it.
pub fn requested_interval(text: &str) -> Option<Interval> {
    let plain = fold(text);
    let asks = plain.contains("assinar o socio pro") || plain.contains("subscribe to socio pro");
    if !asks {
        return None;
    }
    if plain.contains("anual") || plain.contains("yearly") {
        Some(Interval::Yearly)
    } else {
        Some(Interval::Monthly)
    }
}

/// Lower case, without accents, punctuation turned into single spaces.
fn fold(text: &str) -> String {
    let mapped: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' => 'a',
            'é' | 'ê' => 'e',
            'í' => 'i',
            'ó' | 'ô' | 'õ' => 'o',
            'ú' | 'ü' => 'u',
            'ç' => 'c',
            c if c.is_alphanumeric() => c,
            _ => ' ',
        })
        .collect();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ready_message_is_read_back_as_the_interval_it_names() {
        for interval in [Interval::Monthly, Interval::Yearly] {
            for lang in [Language::PtBr, Language::En] {
                assert_eq!(requested_interval(&subscribe_text(interval, lang)), Some(interval), "{lang:?}");
            }
        }
    }

    #[test]
    fn a_retyped_request_without_accents_or_in_capitals_is_still_read() {
        assert_eq!(requested_interval("QUERO ASSINAR O SOCIO PRO ANUAL!!"), Some(Interval::Yearly));
        assert_eq!(requested_interval("oi, quero assinar o sócio pro"), Some(Interval::Monthly));
    }

    #[test]
    fn ordinary_messages_are_not_requests() {
        assert_eq!(requested_interval("Oi"), None);
        assert_eq!(requested_interval("Quero um plano anual de marketing"), None);
    }

    #[test]
    fn the_whatsapp_address_carries_the_message_percent_encoded() {
        assert_eq!(
            subscribe_url("5511900000000", Interval::Yearly, Language::PtBr),
            "https://wa.me/5511900000000?text=Ol%C3%A1%21%20Quero%20assinar%20o%20S%C3%B3cio%20Pro%20anual%2E"
        );
    }
}
