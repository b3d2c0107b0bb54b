//! The port through which domains below the conversation (billing) tell a person something on
//! WhatsApp: a `notice` job, enqueued in the domain's own transaction. The conversation's handler
//! keeps the notice in the person's conversation and sends it like any reply (the approved notice
//! template outside the 24-hour window).

use serde_json::json;

use crate::db::jobs::NewJob;

/// The job kind the conversation handles.
pub const NOTICE_JOB: &str = "notice";

/// A notice for a user, written at `at` (Unix ms).
pub fn notice_job(user_id: &str, text: &str, at: i64) -> NewJob {
    NewJob::new(NOTICE_JOB, json!({ "userId": user_id, "text": text, "at": at }))
}
