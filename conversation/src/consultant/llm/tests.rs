//! The model client's pacing and its reading of rate-limit headers.

use super::*;

#[test]
fn a_429_s_pause_is_its_retry_after_or_doubles_from_one_second() {
    let clock = Clock::adjustable();
    let throttle = Throttle::new(clock.clone());
    assert_eq!(throttle.slow_down(None), Duration::from_secs(1));
    assert_eq!(throttle.slow_down(None), Duration::from_secs(2));
    assert_eq!(throttle.slow_down(Some(Duration::from_millis(300))), Duration::from_millis(300));
    // The longest pause holds: until 2 s after the second 429 (the clock keeps running, so the
    // checks stand well clear of the instant).
    let until = throttle.resting_until().expect("the longest pause still holds");
    clock.set(until - 1_000);
    assert_eq!(throttle.resting_until(), Some(until), "2 s (the longest) are not over");
    clock.set(until + 1);
    assert_eq!(throttle.resting_until(), None, "over once the clock passes them");
    throttle.answered();
    assert_eq!(throttle.slow_down(None), Duration::from_secs(1), "an answer starts over");
    for _ in 0..10 {
        throttle.slow_down(None);
    }
    assert_eq!(throttle.slow_down(None), MAX_SLOW_DOWN);
}

#[test]
fn retry_after_is_read_in_seconds_or_milliseconds() {
    let mut headers = reqwest::header::HeaderMap::new();
    assert_eq!(retry_after(&headers), None);
    headers.insert("retry-after", "1.5".parse().unwrap());
    assert_eq!(retry_after(&headers), Some(Duration::from_millis(1500)));
    headers.insert("retry-after-ms", "250".parse().unwrap());
    assert_eq!(retry_after(&headers), Some(Duration::from_millis(250)));
    headers.clear();
    headers.insert("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap());
    assert_eq!(retry_after(&headers), None, "a date is not understood: the doubling pause applies");
}

#[test]
fn the_breaker_opens_after_five_failures_and_closes_after_the_cooldown_and_a_success() {
    let clock = Clock::adjustable();
    let breaker = Breaker::with_cooldown(Duration::from_secs(60), clock.clone());
    for _ in 0..4 {
        breaker.failure();
    }
    assert!(breaker.allows(), "four failures keep it closed");
    breaker.failure();
    assert!(breaker.is_open());
    clock.advance(50_000);
    assert!(breaker.is_open(), "a minute's cooldown is not over after 50 s");
    clock.advance(10_000);
    assert!(breaker.allows(), "half-open after the cooldown");
    breaker.success();
    breaker.failure();
    assert!(breaker.allows(), "a success closed it: one failure is not enough to open again");
}
