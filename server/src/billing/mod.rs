//! Billing: what the plans are and cost, checkout and the subscription's life.

pub mod plans;
