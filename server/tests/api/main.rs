//! Black-box tests through the public protocols, each on SQLite and — when `TEST_DATABASE_URL` is
//! set — on PostgreSQL.

mod admin;
mod auth;
mod billing;
mod calls;
mod choices;
mod connections;
mod consultant;
mod crash;
mod days;
mod fake_graph;
mod fake_llm;
mod fault_proxy;
mod handoff;
mod helpers;
mod hostile;
mod hostile_again;
mod jobs;
mod landing;
mod llm;
mod memory;
mod message_login;
mod numbers;
mod plan;
mod plan_document;
mod protocols;
mod reminders;
mod resilience;
mod results;
mod scale_out;
mod sessions;
mod stripe;
mod taxes;
mod tools;
mod usernames;
mod whatsapp;
