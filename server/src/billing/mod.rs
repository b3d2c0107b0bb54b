//! Billing: what the plans are and cost, checkout and the subscription's life.

pub mod cancellation;
pub mod checkout;
pub mod expiry;
pub mod payments;
pub mod plans;
pub mod stripe;
pub mod stripe_events;
pub mod subscriptions;
