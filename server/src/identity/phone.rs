//! Phone numbers in E.164, the product's identity for a person.
//!
//! Parsing follows the spec (strip everything but digits and a leading `+`; add the `+`) with the
//! one improvement Brazilian users expect: 10 or 11 digits typed without `+` are a number with area
//! code and get `+55`. Fewer than 8 or more than 15 digits is refused.

use std::fmt;

use crate::error::{AppError, Problem};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PhoneNumber(String);

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a phone number has 8 to 15 digits")]
pub struct InvalidPhone;

impl PhoneNumber {
    /// Parses what a person typed.
    pub fn parse(input: &str) -> Result<Self, InvalidPhone> {
        let trimmed = input.trim();
        if trimmed.len() > 40 {
            return Err(InvalidPhone);
        }
        let international = trimmed.starts_with('+') || trimmed.starts_with("00");
        let mut digits: String = trimmed.chars().filter(char::is_ascii_digit).collect();
        if trimmed.starts_with("00") {
            digits.drain(..2);
        }
        if !international && (digits.len() == 10 || digits.len() == 11) {
            digits.insert_str(0, "55");
        }
        Self::from_digits(&digits)
    }

    /// A WhatsApp id (`wa_id`): the full number's digits, country code included.
    pub fn from_wa_id(wa_id: &str) -> Result<Self, InvalidPhone> {
        if !wa_id.chars().all(|c| c.is_ascii_digit()) {
            return Err(InvalidPhone);
        }
        Self::from_digits(wa_id)
    }

    fn from_digits(digits: &str) -> Result<Self, InvalidPhone> {
        if (8..=15).contains(&digits.len()) && !digits.starts_with('0') {
            Ok(Self(format!("+{digits}")))
        } else {
            Err(InvalidPhone)
        }
    }

    /// `+5511987654321`
    pub fn e164(&self) -> &str {
        &self.0
    }

    /// `5511987654321`: WhatsApp's `to` and `wa.me` form.
    pub fn digits(&self) -> &str {
        &self.0[1..]
    }

    /// `+55 11 *****-4321`: enough to recognise in logs, not enough to identify.
    pub fn masked(&self) -> String {
        let digits = self.digits();
        let tail = &digits[digits.len().saturating_sub(4)..];
        format!("+{}…{tail}", &digits[..2.min(digits.len())])
    }

    /// Parses an input field, as a field violation when it is not a phone number.
    pub fn parse_field(field: &str, input: &str) -> Result<Self, AppError> {
        if input.trim().is_empty() {
            return Err(AppError::invalid(field, Problem::Required));
        }
        Self::parse(input).map_err(|_| {
            AppError::invalid(
                field,
                Problem::Format {
                    pt_br: "informe um número de telefone com DDD (8 a 15 dígitos)",
                    en: "enter a phone number with area code (8 to 15 digits)",
                },
            )
        })
    }
}

impl fmt::Display for PhoneNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn international_numbers_keep_their_country_code() {
        assert_eq!(PhoneNumber::parse("+55 (11) 98765-4321").unwrap().e164(), "+5511987654321");
        assert_eq!(PhoneNumber::parse("+1 415 555 0100").unwrap().e164(), "+14155550100");
        assert_eq!(PhoneNumber::parse("0055 11 98765 4321").unwrap().e164(), "+5511987654321");
    }

    #[test]
    fn brazilian_numbers_typed_with_area_code_only_get_plus_55() {
        assert_eq!(PhoneNumber::parse("(11) 98765-4321").unwrap().e164(), "+5511987654321");
        assert_eq!(PhoneNumber::parse("11 3456-7890").unwrap().e164(), "+551134567890");
    }

    #[test]
    fn full_numbers_without_plus_are_taken_as_they_are() {
        assert_eq!(PhoneNumber::parse("5511987654321").unwrap().e164(), "+5511987654321");
    }

    #[test]
    fn too_short_too_long_or_empty_is_refused() {
        for input in ["", "1234567", "+1234567890123456", "abc", "+0011987654321"] {
            assert_eq!(PhoneNumber::parse(input), Err(InvalidPhone), "{input:?}");
        }
    }

    #[test]
    fn whatsapp_ids_are_digits_with_country_code() {
        assert_eq!(PhoneNumber::from_wa_id("5511987654321").unwrap().e164(), "+5511987654321");
        assert!(PhoneNumber::from_wa_id("+5511987654321").is_err());
    }

    #[test]
    fn masked_numbers_show_only_country_and_last_four_digits() {
        assert_eq!(PhoneNumber::parse("+5511987654321").unwrap().masked(), "+55…4321");
    }

    #[test]
    fn parsing_never_panics_and_always_yields_plus_and_digits() {
        for seed in 0u32..2000 {
            let input: String = (0..(seed % 23))
                .map(|i| char::from(b"0123456789+-() x"[((seed * 31 + i * 7) % 16) as usize]))
                .collect();
            if let Ok(phone) = PhoneNumber::parse(&input) {
                assert!(phone.e164().starts_with('+'));
                assert!(phone.digits().chars().all(|c| c.is_ascii_digit()));
                assert!((8..=15).contains(&phone.digits().len()));
            }
        }
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    /// A Brazilian mobile: area code 11–99, then 9 and eight digits.
    fn mobile() -> impl Strategy<Value = (String, String, String)> {
        (11u32..=99, 0u32..10_000, 0u32..10_000)
            .prop_map(|(area, a, b)| (format!("{area}"), format!("9{a:04}"), format!("{b:04}")))
    }

    proptest! {
        #[test]
        fn however_a_brazilian_mobile_is_typed_it_is_the_same_number((area, first, last) in mobile(), style in 0usize..6) {
            let typed = match style {
                0 => format!("+55 ({area}) {first}-{last}"),
                1 => format!("({area}) {first}-{last}"),
                2 => format!("{area}{first}{last}"),
                3 => format!("0055 {area} {first} {last}"),
                4 => format!(" +55{area}{first}{last} "),
                _ => format!("55-{area}-{first}-{last}"),
            };
            let parsed = PhoneNumber::parse(&typed).unwrap();
            prop_assert_eq!(parsed.e164(), format!("+55{area}{first}{last}"));
            prop_assert_eq!(PhoneNumber::parse(parsed.e164()).unwrap(), parsed.clone());
            prop_assert_eq!(PhoneNumber::from_wa_id(parsed.digits()).unwrap(), parsed);
        }

        #[test]
        fn any_text_parses_to_a_valid_number_or_is_refused_never_a_panic(text in "\\PC{0,50}") {
            if let Ok(phone) = PhoneNumber::parse(&text) {
                let digits = phone.digits();
                prop_assert!((8..=15).contains(&digits.len()));
                prop_assert!(digits.chars().all(|c| c.is_ascii_digit()) && !digits.starts_with('0'));
            }
        }
    }
}
