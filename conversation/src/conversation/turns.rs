//! A turn of the conversation as a service, for the reply worker: the person's unanswered messages
//! claimed for a reply job (with who they are, whether we ever answered them, and whether a person
//! holds the conversation), and our answer stored in one transaction — the messages marked
//! answered, the answer cut into WhatsApp-sized parts each with its send job, the summary scheduled
//! when due, the live views told, and whatever must follow the answer (the plan's PDF, the check-in
//! offer) enqueued with it. A crash before that commit leaves the messages claimed by the job,
//! which its retry picks up again; after it, the retry finds nothing left to answer.

use super::{delivery, messages, proactive, split, summaries, updates};
use crate::{
    db::{
        Db,
        jobs::{self, NewJob},
    },
    error::AppError,
    identity::users::{User, Users},
    plan::{Plans, events::PlanEvents, tracking::reminders::Reminders},
    whatsapp::choices::Choice,
};

/// What a reply job found when it claimed the person's messages.
pub struct Claim {
    /// None when the person is gone (erased meanwhile).
    pub user: Option<User>,
    /// The messages it took, oldest first: none when an earlier job of the burst answered them.
    pub messages: Vec<messages::Message>,
    /// Whether we have never answered them (the welcome goes first).
    pub first_contact: bool,
    /// Whether a person holds the conversation: then the messages are theirs, marked answered.
    pub taken: bool,
}

/// Our answer to a claim.
pub struct Answer<'a> {
    pub user: &'a User,
    pub text: &'a str,
    /// The taps offered, with the last part (the one that asks).
    pub choices: &'a [Choice],
    /// When the person's latest claimed message was written: the first part's send measures the
    /// reply time from it.
    pub answers_at: i64,
    /// A job that follows the answer, in its transaction (the plan's PDF when asked for).
    pub then: Option<NewJob>,
    /// Whether to offer the monthly check-ins once the finance step is done.
    pub offer_checkins: bool,
}

#[derive(Clone)]
pub struct Turns {
    db: Db,
    users: Users,
    /// The plan is read (finance done?) and never changed here: no watchers to tell.
    plans: Plans,
    reminders: Reminders,
}

impl Turns {
    pub fn new(db: Db) -> Self {
        Self {
            users: Users::new(db.clone()),
            plans: Plans::new(db.clone(), PlanEvents::default()),
            reminders: Reminders::new(db.clone()),
            db,
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.db.now_ms()
    }

    /// Claims the person's unanswered messages for `job_id`, in one transaction; while a person
    /// holds the conversation they are marked answered at once (the admin's to answer). Who they
    /// are is read first, outside the writer's turn; the claim itself says whether a person holds
    /// the conversation and whether we ever answered them.
    pub async fn claim(&self, user_id: &str, job_id: &str) -> Result<Claim, AppError> {
        let Some(user) = self.users.find(user_id).await? else {
            return Ok(Claim { user: None, messages: Vec::new(), first_contact: false, taken: false });
        };
        let mut tx = self.db.begin().await?;
        let now = self.db.now_ms();
        let messages::Claimed { messages, taken, first_contact } =
            messages::claim_unanswered(&mut tx, user_id, job_id, now).await?;
        if taken {
            messages::mark_answered(&mut tx, user_id, job_id, now).await?;
        }
        tx.commit().await?;
        Ok(Claim { user: Some(user), messages, first_contact, taken })
    }

    /// The person as they are now (the consultant may have switched their language).
    pub async fn person(&self, user_id: &str) -> Result<Option<User>, AppError> {
        self.users.find(user_id).await
    }

    /// Stores the answer to what `job_id` claimed, with its sends and what follows it, in one
    /// transaction. False, and nothing stored, when the messages are no longer the job's (a person
    /// took the conversation over meanwhile, or a retry answered).
    pub async fn answer(&self, job_id: &str, answer: Answer<'_>) -> Result<bool, AppError> {
        let user = answer.user;
        // What the answer's turn at the writer needs to know is read before it, on a reader: a
        // SQLite turn holds the one writer for every statement in it (the summary's and the
        // offer's jobs are each kept to one by their keys, whatever changed meanwhile).
        let mut conn = self.db.pool().acquire().await?;
        let summary = summaries::due_update(&mut conn, &user.id).await?;
        let offer = answer.offer_checkins
            && proactive::finance_is_done(&self.plans, &mut conn, &user.id, self.db.now_ms()).await?;
        drop(conn);
        let mut tx = self.db.begin().await?;
        if messages::mark_answered(&mut tx, &user.id, job_id, self.db.now_ms()).await? == 0 {
            return Ok(false);
        }
        updates::changed(&mut tx, &user.id).await?;
        if let Some(summary) = summary {
            jobs::enqueue(&mut tx, summary).await?;
        }
        // A long answer goes as several messages, in order (the person's sends run one at a time).
        let now = self.db.now_ms();
        let parts = split::into_messages(answer.text, split::MAX_CHARS);
        for (n, part) in parts.iter().enumerate() {
            let offered = if n + 1 == parts.len() { answer.choices } else { &[] };
            let id = messages::insert_outbound(&mut tx, &user.id, part, offered, now + n as i64).await?;
            // The first part answers the person's latest message: its send measures the reply time.
            let answers_at = (n == 0).then_some(answer.answers_at);
            let send = delivery::answering_job(&id, &user.id, answers_at).run_at(now + n as i64);
            jobs::enqueue(&mut tx, send).await?;
        }
        if let Some(then) = answer.then {
            jobs::enqueue(&mut tx, then).await?;
        }
        if offer {
            proactive::offer_checkins_once(&self.reminders, &mut tx, user, now + parts.len() as i64).await?;
        }
        tx.commit().await?; // wakes the workers for the sends (and what follows)
        Ok(true)
    }
}
