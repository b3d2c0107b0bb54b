//! What people type: phone numbers at login and amounts, percentages, costs per sale, rates per
//! day or week, days worked and counts in the guided consultant. Any text gives a valid value or a
//! refusal, never a panic; a phone that parses is E.164 and parses to itself again, and its
//! identity (a Brazilian mobile with its ninth digit) is the same person and stable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use socio::{consultant::parse, identity::phone::PhoneNumber};

fuzz_target!(|text: &str| {
    if let Ok(phone) = PhoneNumber::parse(text) {
        let e164 = phone.e164();
        assert!(e164.starts_with('+') && e164[1..].bytes().all(|b| b.is_ascii_digit()), "{e164}");
        assert_eq!(PhoneNumber::parse(e164).expect("E.164 parses").e164(), e164);
        let identity = phone.identity();
        assert_eq!(identity.identity(), identity, "{e164}");
        assert!(phone.same_person(&identity));
        if let Some(other) = phone.other_spelling() {
            assert!(other.same_person(&phone) && other != phone, "{e164}");
        }
    }
    let _ = PhoneNumber::from_wa_id(text);
    if let Some(amount) = parse::amount(text) {
        assert!(amount.is_finite(), "{text:?} gave {amount}");
    }
    if let Some(percent) = parse::percent(text) {
        assert!(percent.is_finite(), "{text:?} gave {percent}");
    }
    let (reais, percent) = parse::cost_per_sale(text);
    assert!(reais.is_none_or(f64::is_finite) && percent.is_none_or(|p| (0.0..=100.0).contains(&p)), "{text:?}");
    if let Some((value, _)) = parse::rate(text) {
        assert!(value.is_finite(), "{text:?}");
    }
    if let Some(days) = parse::days_a_week(text) {
        assert!((1.0..=7.0).contains(&days), "{text:?} gave {days} days a week");
    }
    let _ = parse::count(text);
    let _ = parse::list(text);
    let _ = parse::yes_no(text);
});
