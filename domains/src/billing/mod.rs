//! Billing: what the plans are and cost, checkout and the subscription's life.

use crate::db::personal::{Erase, HandOver, Personal};

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

/// Billing's rows of a person. An erasure keeps the payment records (checkouts, subscriptions:
/// kept for the controller's legal obligations, LGPD art. 16, I) without the person — their id
/// and who opened a checkout (`person:<id>` or a client address); a refund by Pix is money we owe
/// and stays as it is, key included, until paid (migration 0029). A number change hands them all
/// to the receiving account. Walked by
/// [`subscriptions::Subscriptions::erase_in`] and the number change.
pub const PERSONAL: &[Personal] = &[
    Personal::of("subscriptions", "user_id", Erase::Forget(&["user_id"]), HandOver::Move),
    Personal::of("checkout_sessions", "user_id", Erase::Forget(&["user_id", "opened_by"]), HandOver::Move),
    Personal::of("manual_refunds", "user_id", Erase::Keep, HandOver::Move),
    // The admin who paid a refund: the refund stays, without their id.
    Personal::of("manual_refunds", "paid_by", Erase::Forget(&["paid_by"]), HandOver::Stay),
];
