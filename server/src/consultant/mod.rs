//! The consultant: what we answer, and the worker that answers. Until the AI consultant lands,
//! everyone gets the first-contact welcome, free users the free-plan answer with the checkout link,
//! and Pro users a pointer to their plan.

pub mod replies;
pub mod worker;
