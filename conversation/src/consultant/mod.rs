//! The consultant: what we answer, and the worker that answers. A new free user gets the welcome,
//! free users the free-plan answer with the checkout link, Pro users and admins the consultant
//! (the offline guide by default).

pub mod answer_checks;
pub mod asides;
pub mod engine;
pub mod figures;
pub mod finance_tool;
pub mod guide;
pub mod llm;
pub mod memory;
pub mod parse;
pub mod plan_delivery;
pub mod plan_request;
pub mod pricing_words;
pub mod questions;
pub mod reform_tool;
pub mod replies;
pub mod results_interview;
pub mod scope;
pub mod web_chat;
pub mod worker;
