//! The scheduler of the proactive messages people asked for: ticking every minute in the server and
//! looking at the people once in each hour, since what is due changes by the hour (and once, as of
//! any instant, with `socio reminders run --now <RFC 3339>`), it asks `plan::tracking::calendar` what
//! is due for each person who consented and has not said "PARAR", and sends each reminder once per
//! person, kind and period — the `reminders_sent` key is claimed (`insert … on conflict do
//! nothing`) in the transaction that stores the message and its send job, so several servers and
//! repeated runs send it once. Inside the 24-hour window a reminder goes as plain text, outside it
//! as its approved template (`delivery`), billed and counted like every message. A person's next
//! message after their latest check-in marks it answered (the admin's analytics).

use std::time::Duration;

use super::{delivery, messages};
use crate::{
    db::{Db, Tx, jobs},
    error::AppError,
    identity::users::{User, Users},
    plan::{
        Plans,
        events::PlanEvents,
        sections::Step,
        store::Detail,
        tracking::{
            Results,
            calendar::{self, Due, Profile},
            reminders::{self, Preferences, Reminders},
        },
    },
    whatsapp::{
        choices::Choice,
        templates::{Filled, Template},
    },
};

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// People who consented and have not stopped.
    pub considered: usize,
    /// Reminders sent now (claimed and queued).
    pub sent: usize,
}

/// The scheduler as a service: a run at an instant (the server's ticks, `socio reminders run`),
/// or the schedule that ticks until the server stops.
#[derive(Clone)]
pub struct Proactive {
    db: Db,
    doors: Doors,
    /// The person's months, read through their domain's service (a plan without watchers: reading
    /// publishes nothing).
    results: Results,
}

/// The doors of the domains a run asks: who the person is, their plan, their choices.
#[derive(Clone)]
struct Doors {
    users: Users,
    plans: Plans,
    reminders: Reminders,
}

impl Proactive {
    pub fn new(db: Db) -> Self {
        let plans = Plans::new(db.clone(), PlanEvents::default());
        let doors = Doors {
            users: Users::new(db.clone()),
            plans: plans.clone(),
            reminders: Reminders::new(db.clone()),
        };
        Self { db, doors, results: Results::new(plans) }
    }

    /// Sends what is due at `now` (Unix ms) to everyone who asked for it.
    pub async fn run(&self, now: i64) -> Result<Run, AppError> {
        run(&self.db, &self.doors, &self.results, now).await
    }

    /// Ticks every `every` until `stop`, and sends what is due once in each hour.
    pub async fn schedule(self, every: Duration, stop: tokio::sync::watch::Receiver<bool>) {
        schedule(self, every, stop).await;
    }
}

async fn run(db: &Db, doors: &Doors, results: &Results, now: i64) -> Result<Run, AppError> {
    let mut outcome = Run::default();
    if calendar::quiet(now) {
        return Ok(outcome);
    }
    for (user_id, prefs) in doors.reminders.active().await? {
        outcome.considered += 1;
        match run_for(db, doors, results, &user_id, &prefs, now).await {
            Ok(sent) => outcome.sent += sent,
            // One person's trouble never keeps the others' reminders.
            Err(error) => tracing::error!(user = %user_id, %error, "reminders for one person failed"),
        }
    }
    if outcome.sent > 0 {
        tracing::info!(sent = outcome.sent, considered = outcome.considered, "reminders sent");
    }
    Ok(outcome)
}

async fn run_for(
    db: &Db,
    doors: &Doors,
    results: &Results,
    user_id: &str,
    prefs: &Preferences,
    now: i64,
) -> Result<usize, AppError> {
    let Some(user) = doors.users.find(user_id).await? else { return Ok(0) };
    if user.whatsapp_address().is_none() {
        return Ok(0);
    }
    let mut conn = db.pool().acquire().await?;
    let plan = doors.plans.find_in(&mut conn, user_id, Detail::Sections, now).await?;
    drop(conn);
    let months = results.months(user_id).await?;
    let profile = Profile::of(plan.as_ref(), &months, crate::clock::CivilDate::in_sao_paulo(now));
    let name = user
        .first_name()
        .map(str::to_owned)
        .unwrap_or_else(|| say!(user.language, "conversation-proactive-there"));
    let mut sent = 0;
    for due in calendar::due(now, prefs, &profile, &months, user.language) {
        let filled = Filled { template: due.kind.template(), params: vec![name.clone(), due.detail.clone()] };
        let text = filled.template.text(&filled.params, user.language);
        let mut tx = db.begin().await?;
        if send_once(&doors.reminders, &mut tx, user_id, &due, &filled, &text, now).await? {
            tx.commit().await?;
            sent += 1;
        }
    }
    Ok(sent)
}

/// Claims the reminder's key and, when this run is the first to, stores the message and its send
/// job in the same transaction — only while the person still agrees to it and has not said
/// "PARAR": asked again here, holding their choices until the commit, since the list the run
/// started from may be stale. False when it was sent before, or is no longer wanted.
async fn send_once(
    reminders: &Reminders,
    tx: &mut Tx,
    user_id: &str,
    due: &Due,
    filled: &Filled,
    text: &str,
    now: i64,
) -> Result<bool, AppError> {
    // The conversation shows it when it was written (an operator may run an earlier instant).
    let written = tx.now_ms();
    let checkin = filled.template == Template::Checkin;
    if !reminders.still_wanted_in(tx, user_id, checkin, written).await? {
        return Ok(false);
    }
    let id = uuid::Uuid::new_v4().to_string();
    let claimed = sqlx::query(
        "insert into reminders_sent (user_id, kind, period, message_id, sent_at) values ($1, $2, $3, $4, $5) \
         on conflict (user_id, kind, period) do nothing",
    )
    .bind(user_id)
    .bind(due.kind.key())
    .bind(&due.period)
    .bind(&id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    if claimed.rows_affected() != 1 {
        return Ok(false);
    }
    messages::insert_proactive(tx, &id, user_id, text, filled, written).await?;
    jobs::enqueue(tx, delivery::send_job(&id, user_id)).await?;
    Ok(true)
}

/// Whether the person's plan has its finance step done: from then on the consultant offers the
/// check-ins (read before the reply's turn at the writer; the offer's claim keeps it to one).
pub(in crate::conversation) async fn finance_is_done(
    plans: &Plans,
    conn: &mut sqlx::AnyConnection,
    user_id: &str,
    at: i64,
) -> Result<bool, AppError> {
    let plan = plans.find_in(conn, user_id, Detail::Sections, at).await?;
    Ok(plan.is_some_and(|plan| plan.section(Step::Finance).completed))
}

/// Once the plan's finance step is done ([`finance_is_done`]), the consultant offers the check-ins
/// once, with answers to tap, after its reply (`reminder_words` takes the answer). Nothing is sent
/// without that "sim" (or the dashboard's switches).
pub(in crate::conversation) async fn offer_checkins_once(
    reminders: &Reminders,
    tx: &mut Tx,
    user: &User,
    at: i64,
) -> Result<(), AppError> {
    let id = uuid::Uuid::new_v4().to_string();
    if !reminders.claim_offer_in(tx, &user.id, &id, at).await? {
        return Ok(());
    }
    let lang = user.language;
    let text = say!(lang, "conversation-proactive-your-plan-has-its-numbers");
    let choices = [
        Choice::new(reminders::OFFER_YES, say!(lang, "conversation-proactive-yes-please")),
        Choice::new(reminders::OFFER_NO, say!(lang, "conversation-proactive-not-now")),
    ];
    messages::insert_outbound_as(tx, &id, &user.id, &text, &choices, at).await?;
    jobs::enqueue(tx, delivery::send_job(&id, &user.id).run_at(at)).await?;
    Ok(())
}

/// A person wrote at `at`: their latest check-in, if still unanswered, is answered.
pub(in crate::conversation) async fn mark_answered(
    conn: &mut sqlx::AnyConnection,
    user_id: &str,
    at: i64,
) -> Result<(), AppError> {
    sqlx::query(
        "update reminders_sent set answered_at = $2 where user_id = $1 and kind = 'checkin' \
         and answered_at is null and sent_at <= $2 and period = \
         (select max(r.period) from reminders_sent r where r.user_id = $1 and r.kind = 'checkin')",
    )
    .bind(user_id)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// The scheduler: ticks `every` (a minute) until `stop` turns true, and runs a pass in the first
/// tick of each hour. Several servers may run it at once.
async fn schedule(proactive: Proactive, every: Duration, mut stop: tokio::sync::watch::Receiver<bool>) {
    let db = &proactive.db;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut last_pass = None;
    let mut facts_checked_on = None;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stop.changed() => return,
        }
        if *stop.borrow() {
            return;
        }
        let now = db.now_ms();
        // Once a day: facts past their period with nothing newer are used, said stale, and logged.
        let today = crate::clock::CivilDate::in_sao_paulo(now).iso();
        if facts_checked_on.as_ref() != Some(&today) {
            let expired = crate::facts::expired_on(&today);
            if !expired.is_empty() {
                tracing::warn!(
                    ?expired,
                    "business facts past their period with no newer value: publish them (SOCIO_FACTS_FILE or base/data/business-facts.json)"
                );
            }
            facts_checked_on = Some(today);
        }
        // What is due changes by the hour (a person's hour, the quiet hours), so the people are
        // looked at once in each hour, not at every tick; a failed pass is tried at the next tick.
        let hour = now.div_euclid(HOUR_MS);
        if last_pass == Some(hour) {
            continue;
        }
        match run(db, &proactive.doors, &proactive.results, now).await {
            Ok(_) => last_pass = Some(hour),
            Err(error) => tracing::error!(%error, "the reminder scheduler's run failed"),
        }
    }
}

/// An hour. São Paulo's offset from UTC is whole hours, so UTC's hours are São Paulo's.
const HOUR_MS: i64 = 3_600_000;
