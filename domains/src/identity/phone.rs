//! Phone numbers in E.164, the product's identity for a person.
//!
//! Parsing follows the spec (strip everything but digits and a leading `+`; add the `+`) with the
//! one improvement Brazilian users expect: 10 or 11 digits typed without `+` are a number with area
//! code and get `+55`. Fewer than 8 or more than 15 digits is refused.
//!
//! A Brazilian mobile is one person with or without its ninth digit. Anatel added a 9 in front of
//! every mobile number region by region between 2012 and 2016; 8-digit subscriber numbers that begin
//! with 6, 7, 8 or 9 were mobiles and got it, those that begin with 2 to 5 are landlines and kept
//! 8 digits (Anatel's numbering plan, as summarised in "Telephone numbers in Brazil",
//! <https://en.wikipedia.org/wiki/Telephone_numbers_in_Brazil>, "Mobile telephony" and "Ninth
//! digit"). WhatsApp accounts created before the change still have a 12-digit `wa_id`
//! (`55 31 8765 4321`) while their owners type 13 digits, and some the other way round. So a number
//! keeps the spelling it came with (messages go to the `wa_id` WhatsApp delivered) and has an
//! [`identity`](PhoneNumber::identity): the 13-digit form, which is how people are looked up.

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

    /// The canonical lookup key of the person behind this number: a Brazilian mobile written without
    /// its ninth digit (`+55 AA NXXX-XXXX` with N from 6 to 9) gets it (`+55 AA 9NXXX-XXXX`); every
    /// other number, landlines and other countries included, is its own key.
    pub fn identity(&self) -> PhoneNumber {
        let digits = self.digits();
        let bytes = digits.as_bytes();
        let brazilian_mobile_without_nine = digits.len() == 12
            && digits.starts_with("55")
            && bytes[2] != b'0'
            && bytes[3] != b'0'
            && matches!(bytes[4], b'6'..=b'9');
        if brazilian_mobile_without_nine {
            PhoneNumber(format!("+{}9{}", &digits[..4], &digits[4..]))
        } else {
            self.clone()
        }
    }

    /// The same person's other spelling, when there is one: a Brazilian mobile with and without its
    /// ninth digit. Searches match either.
    pub fn other_spelling(&self) -> Option<PhoneNumber> {
        let key = self.identity();
        let digits = key.digits();
        let with_nine = digits.len() == 13
            && digits.starts_with("55")
            && digits.as_bytes()[4] == b'9'
            && matches!(digits.as_bytes()[5], b'6'..=b'9');
        let without = with_nine
            .then(|| PhoneNumber(format!("+{}{}", &digits[..4], &digits[5..])))
            .filter(|without| without.identity() == key)?; // area codes have no 0: "(10)" is none
        Some(if &without == self { key } else { without })
    }

    /// True when both numbers are the same person.
    pub fn same_person(&self, other: &PhoneNumber) -> bool {
        self.identity() == other.identity()
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
                Problem::Format(said!("identity-phone-format-enter-a-phone-number-with")),
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
    fn a_brazilian_mobile_without_its_ninth_digit_is_the_same_person_as_with_it() {
        let old = PhoneNumber::from_wa_id("553187654321").unwrap();
        let typed = PhoneNumber::parse("(31) 98765-4321").unwrap();
        assert_eq!(old.identity().e164(), "+5531987654321");
        assert_eq!(typed.identity().e164(), "+5531987654321");
        assert!(old.same_person(&typed));
        assert_eq!(old.e164(), "+553187654321", "the spelling WhatsApp delivered is kept");
        assert_eq!(old.other_spelling().unwrap().e164(), "+5531987654321");
        assert_eq!(typed.other_spelling().unwrap().e164(), "+553187654321");
        for mobile_start in ["6", "7", "8", "9"] {
            let old = PhoneNumber::from_wa_id(&format!("5511{mobile_start}1234567")).unwrap();
            assert_eq!(old.identity().e164(), format!("+55119{mobile_start}1234567"));
        }
    }

    #[test]
    fn landlines_and_other_countries_are_their_own_identity() {
        for number in ["+551134567890", "+552140041234", "+553155551234", "+14155550100", "+447911123456"] {
            let phone = PhoneNumber::parse(number).unwrap();
            assert_eq!(phone.identity(), phone, "{number}");
            assert_eq!(phone.other_spelling(), None, "{number}");
        }
        // Found by fuzzing: "(10)" is no area code, so +55 10 98765-4321 has no other spelling.
        assert_eq!(PhoneNumber::parse("+55 (10) 98765-4321").unwrap().other_spelling(), None);
        // Twelve digits elsewhere are not a Brazilian mobile, whatever their fifth digit.
        let foreign = PhoneNumber::from_wa_id("491711234567").unwrap();
        assert_eq!(foreign.identity(), foreign);
        assert!(
            !PhoneNumber::parse("+551134567890")
                .unwrap()
                .same_person(&PhoneNumber::parse("+5511934567890").unwrap())
        );
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

    /// A Brazilian mobile: an area code (two digits, neither 0), then 9 and eight digits.
    fn mobile() -> impl Strategy<Value = (String, String, String)> {
        (1u32..=9, 1u32..=9, 0u32..10_000, 0u32..10_000)
            .prop_map(|(a1, a2, a, b)| (format!("{a1}{a2}"), format!("9{a:04}"), format!("{b:04}")))
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
            prop_assert_eq!(PhoneNumber::from_wa_id(parsed.digits()).unwrap(), parsed.clone());
            // Typed with the ninth digit or delivered without it, it is one person.
            let old = PhoneNumber::from_wa_id(&format!("55{area}{}{last}", &first[1..])).unwrap();
            if matches!(first.as_bytes()[1], b'6'..=b'9') {
                prop_assert_eq!(old.identity(), parsed.identity());
            } else {
                prop_assert_eq!(old.identity(), old.clone(), "a landline keeps its eight digits");
            }
        }

        #[test]
        fn the_identity_of_an_identity_is_itself(text in "\\+?[0-9]{8,15}") {
            if let Ok(phone) = PhoneNumber::parse(&text) {
                prop_assert_eq!(phone.identity().identity(), phone.identity());
                if let Some(other) = phone.other_spelling() {
                    prop_assert!(other.same_person(&phone));
                    prop_assert_ne!(other, phone);
                }
            }
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
