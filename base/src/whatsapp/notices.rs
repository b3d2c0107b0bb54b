//! The port through which domains below the conversation (billing) tell a person something on
//! WhatsApp: a `notice` job, enqueued in the domain's own transaction. The conversation's handler
//! keeps the notice in the person's conversation and sends it like any reply (the approved notice
//! template outside the 24-hour window).

use crate::db::jobs::{JobPayload, NewJob};

/// The job the conversation handles: a notice for a person, written at `at` (Unix ms; when it
/// runs, if absent).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoticeJob {
    pub user_id: String,
    pub text: String,
    #[serde(default)]
    pub at: Option<i64>,
}

impl JobPayload for NoticeJob {
    const KIND: &'static str = "notice";
}

/// A notice for a user, written at `at` (Unix ms).
pub fn notice_job(user_id: &str, text: &str, at: i64) -> NewJob {
    NoticeJob { user_id: user_id.to_owned(), text: text.to_owned(), at: Some(at) }.job()
}
