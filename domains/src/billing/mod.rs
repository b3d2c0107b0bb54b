//! Billing: what the plans are and cost, checkout and the subscription's life.

pub mod cancellation;
pub mod checkout;
pub mod expiry;
pub mod manual_refunds;
pub mod on_whatsapp;
pub mod payments;
pub mod pix_key;
pub mod plans;
pub mod renewals;
pub mod stripe;
pub mod stripe_events;
pub mod subscriptions;
