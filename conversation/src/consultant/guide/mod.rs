//! The offline guide: a deterministic consultant that interviews the user through the six steps of
//! Sebrae's plan with a few focused questions each, saves every answer into the plan (so the
//! dashboard moves while they chat), recaps each finished step with a practical tip, and knows a
//! few commands: menu, progresso, plano, ajuda, pular, English/Português. It is the embedded
//! default, and what answers whenever the model cannot.

mod commands;
mod suggestions;
mod words;

use serde_json::{Value as Json, json};
use sqlx::Row;

use super::{
    answer_checks, asides, parse,
    plan_request::{self, PlanRequests},
    questions::{QUESTIONS, Question},
    replies::Links,
    results_interview, scope,
};
use crate::{
    db::{
        Db,
        personal::{Erase, HandOver, Personal},
    },
    error::AppError,
    identity::users::{User, Users},
    locale::Language,
    plan::{
        Plans,
        sections::Step,
        store::{Patch, Plan, Source, StepUpdate},
        tracking::Results,
    },
    whatsapp::choices::Choice,
};
use commands::{Command, command};
use words::*;

#[derive(Clone)]
pub struct Guide {
    db: Db,
    plans: Plans,
    links: Links,
}

fn is_empty(value: Option<&Json>) -> bool {
    match value {
        None | Some(Json::Null) => true,
        Some(Json::String(s)) => s.is_empty() || s == "unspecified",
        Some(Json::Array(items)) => items.is_empty(),
        Some(_) => false,
    }
}

/// Whether an answer's patch leaves the asked field out (it answered another one).
fn patch_misses(patch: &Json, field: &str) -> bool {
    patch.as_object().is_some_and(|p| !p.contains_key(field))
}

impl Guide {
    pub fn new(db: Db, plans: Plans, links: Links) -> Self {
        Self { db, plans, links }
    }

    async fn pending(&self, user_id: &str) -> Result<Option<&'static Question>, AppError> {
        let row = sqlx::query("select step, field from guide_state where user_id = $1")
            .bind(user_id)
            .fetch_optional(self.db.pool())
            .await?;
        Ok(row.and_then(|r| {
            let step = Step::parse(&r.try_get::<String, _>("step").ok()?)?;
            Question::find(step, &r.try_get::<String, _>("field").ok()?)
        }))
    }

    async fn ask(&self, user_id: &str, question: Option<&Question>) -> Result<(), AppError> {
        let (step, field) = question.map(|q| (q.step.key(), q.field)).unwrap_or_default();
        sqlx::query(
            "insert into guide_state (user_id, step, field, updated_at) values ($1, $2, $3, $4) \
             on conflict (user_id) do update set step = excluded.step, field = excluded.field, updated_at = excluded.updated_at",
        )
        .bind(user_id)
        .bind(step)
        .bind(field)
        .bind(self.db.now_ms())
        .execute(&mut *self.db.writer().await?)
        .await?;
        Ok(())
    }

    /// Whether the plan's end was already said: the guide's state is kept with no question to ask
    /// only when it said so (`ask(None)` goes with [`finished`]).
    async fn finish_said(&self, user_id: &str) -> Result<bool, AppError> {
        let step: Option<String> = sqlx::query_scalar("select step from guide_state where user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *self.db.read().await?)
            .await?;
        Ok(step.is_some_and(|s| s.is_empty()))
    }

    /// Changes a saved answer the person corrected ("não, o custo fixo é 18 mil").
    async fn correct(
        &self,
        user: &User,
        question: &'static Question,
        value: &str,
        lang: Language,
    ) -> Result<String, AppError> {
        let Some(patch) = question.read(value).filter(|p| p.get("_perDay").is_none()) else {
            return Ok(say!(lang, "consultant-guide-i-couldn-t-read-the"));
        };
        let update = StepUpdate {
            step: question.saves_in,
            patch: Some(Patch::Merge(patch)),
            completed: None,
            field: "data".into(),
        };
        match self.plans.update(&user.id, Some(&user.id), Source::WhatsApp, &[update]).await {
            Ok((plan, _)) => {
                Ok(say!(lang, "consultant-guide-corrected", plan = recap(&plan, question.step, lang)))
            }
            Err(err @ AppError::InvalidInput(_)) => Ok(err.message(lang)),
            Err(err) => Err(err),
        }
    }

    /// What the interview waits on besides its question (`answer_checks`): `{}` when nothing.
    async fn draft(&self, user_id: &str) -> Result<Json, AppError> {
        let draft: Option<Option<String>> =
            sqlx::query_scalar("select draft from guide_state where user_id = $1")
                .bind(user_id)
                .fetch_optional(self.db.pool())
                .await?;
        Ok(draft.flatten().and_then(|d| serde_json::from_str(&d).ok()).unwrap_or_else(|| json!({})))
    }

    async fn set_draft(&self, user_id: &str, draft: Option<Json>) -> Result<(), AppError> {
        sqlx::query("update guide_state set draft = $2 where user_id = $1")
            .bind(user_id)
            .bind(draft.map(|d| d.to_string()))
            .execute(&mut *self.db.writer().await?)
            .await?;
        Ok(())
    }

    /// The next question: the first unanswered one of the first incomplete step, after `after`.
    fn next_question(plan: &Plan, after: Option<&Question>) -> Option<&'static Question> {
        let start = after
            .and_then(|a| QUESTIONS.iter().position(|q| q.step == a.step && q.field == a.field))
            .map_or(0, |i| i + 1);
        QUESTIONS[start..]
            .iter()
            .chain(QUESTIONS[..start].iter())
            .find(|q| {
                let data = &plan.section(q.step).data;
                !plan.section(q.step).completed
                    && is_empty(plan.section(q.saves_in).data.get(q.field))
                    && q.applies(data)
            })
            .or_else(|| {
                Step::ALL
                    .iter()
                    .find(|s| !plan.section(**s).completed)
                    .and_then(|s| QUESTIONS.iter().find(|q| q.step == *s))
            })
    }

    /// Answers the user's text (Pro users and admins; the caller decides who gets the guide).
    pub async fn reply(&self, user: &User, text: &str) -> Result<String, AppError> {
        let mut lang = user.language;
        let plan = self.plans.get_or_create(&user.id).await?;
        let pending = self.pending(&user.id).await?;
        let mut out: Vec<String> = Vec::new();

        if let Some(reply) = self.month_results(user, text).await? {
            return Ok(reply);
        }
        if command(text).is_none() && scope::off_topic(text) {
            // A business consultant, not a general assistant: one sentence, then back to the plan.
            out.push(scope::decline(lang).to_owned());
            out.push(self.continue_with(&user.id, &plan, pending, lang).await?);
            return Ok(out.join("\n\n"));
        }
        match command(text) {
            Some(Command::Language(new)) => {
                Users::new(self.db.clone()).set_language(&user.id, new).await?;
                lang = new;
                out.push(say!(lang, "consultant-guide-done-i-ll-speak-english"));
                out.push(self.continue_with(&user.id, &plan, pending, lang).await?);
            }
            Some(Command::Menu) => out.push(menu(lang)),
            Some(Command::Help) => out.push(help(lang)),
            Some(Command::Progress) => out.push(progress(&plan, lang)),
            Some(Command::Links) => out.push(say!(
                lang,
                "consultant-guide-your-plan-your-dashboard",
                links = self.links.builder(),
                links2 = self.links.dashboard()
            )),
            Some(Command::SendPlan) => out.push(self.send_plan(&user.id, lang).await?),
            Some(Command::Skip) => {
                let next = Self::next_question(&plan, pending);
                self.ask(&user.id, next).await?;
                out.push(match next {
                    Some(q) => {
                        format!("{} {}", say!(lang, "consultant-guide-fine-let-s-move-on"), q.text(lang))
                    }
                    None => finished(&self.links, lang),
                });
            }
            None => out.extend(self.converse(user, text, &plan, pending, lang).await?),
        }
        Ok(out.join("\n\n"))
    }

    /// Plain words in the interview: a doubt (a suggestion, and the question again), a correction of
    /// an earlier answer, a question of theirs (both then back to where it was), or the answer to
    /// the question it waits on.
    async fn converse(
        &self,
        user: &User,
        text: &str,
        plan: &Plan,
        pending: Option<&'static Question>,
        lang: Language,
    ) -> Result<Vec<String>, AppError> {
        let mut out = Vec::new();
        let doubted = pending.filter(|q| !suggestions::doubt_is_an_answer(q) && suggestions::is_doubt(text));
        if let Some(question) = doubted {
            // A doubt is never an answer: a suggestion, and the same question again.
            self.ask(&user.id, Some(question)).await?;
            out.push(suggestions::suggest(question, lang));
        } else if let Some((question, value)) = asides::correction(text) {
            out.push(self.correct(user, question, &value, lang).await?);
            let plan = self.plans.get_or_create(&user.id).await?;
            out.push(self.continue_with(&user.id, &plan, pending, lang).await?);
        } else if let Some(said) = asides::is_question(text)
            .then(|| {
                asides::answer(
                    text,
                    plan,
                    &crate::clock::CivilDate::in_sao_paulo(self.db.now_ms()).iso(),
                    lang,
                )
            })
            .flatten()
        {
            // A question is answered, and the interview goes on where it was.
            out.push(said);
            out.push(self.continue_with(&user.id, plan, pending, lang).await?);
        } else if asides::asks(text) {
            // A question the guide cannot place is a question, never saved as an answer.
            out.push(asides::unplaced(lang));
            out.push(self.continue_with(&user.id, plan, pending, lang).await?);
        } else {
            match pending {
                Some(question) => out.push(self.answer(user, question, text, lang).await?),
                None => out.push(self.continue_with(&user.id, plan, None, lang).await?),
            }
        }
        Ok(out)
    }

    /// "mande o plano": the document is queued (the workers send it), with the builder's link.
    async fn send_plan(&self, user_id: &str, lang: Language) -> Result<String, AppError> {
        PlanRequests::new(self.db.clone()).request(user_id, lang).await?;
        Ok(format!(
            "{}\n{}",
            plan_request::on_its_way(lang),
            say!(lang, "consultant-guide-to-edit-it", links = self.links.builder())
        ))
    }

    /// The month's results interview (`results_interview`), when the text starts it, answers a
    /// check-in, or answers the interview's question; "pular" leaves it.
    async fn month_results(&self, user: &User, text: &str) -> Result<Option<String>, AppError> {
        let results = Results::new(self.plans.clone());
        if let Some((field, draft)) = results_interview::pending(&self.db, &user.id).await? {
            return Ok(Some(match command(text) {
                Some(Command::Skip) => {
                    results_interview::leave(&self.db, &user.id).await?;
                    let lang = user.language;
                    format!(
                        "{}\n\n{}",
                        say!(lang, "consultant-guide-all-right-another-time"),
                        self.resume(user).await?
                    )
                }
                Some(_) => return Ok(None),
                None => results_interview::answer(&self.db, &results, user, &field, draft, text).await?,
            }));
        }
        if results_interview::starts(text) {
            return Ok(Some(results_interview::start(&self.db, &results, user, None).await?));
        }
        if command(text).is_none() && results_interview::answers_a_checkin(&self.db, &user.id).await? {
            return Ok(Some(results_interview::start(&self.db, &results, user, Some(text)).await?));
        }
        Ok(None)
    }

    /// Where the user left off: the pending question again, or the next one.
    /// The answers to tap for the question the interview waits on, in the person's language now
    /// (an answer may just have switched it); none for an open question.
    pub async fn pending_choices(&self, user_id: &str) -> Result<Vec<Choice>, AppError> {
        let Some(question) = self.pending(user_id).await? else { return Ok(Vec::new()) };
        let lang = Users::new(self.db.clone()).find(user_id).await?.map(|u| u.language).unwrap_or_default();
        Ok(question.choices(lang))
    }

    pub async fn resume(&self, user: &User) -> Result<String, AppError> {
        let plan = self.plans.get_or_create(&user.id).await?;
        let pending = self.pending(&user.id).await?;
        self.continue_with(&user.id, &plan, pending, user.language).await
    }

    async fn continue_with(
        &self,
        user_id: &str,
        plan: &Plan,
        pending: Option<&'static Question>,
        lang: Language,
    ) -> Result<String, AppError> {
        let next = pending.or_else(|| Self::next_question(plan, None));
        if next.is_none() && self.finish_said(user_id).await? {
            // A finished plan is celebrated once; after that, what the consultant can do now.
            return Ok(say!(lang, "guide-words-your-plan-is-complete-what-now"));
        }
        self.ask(user_id, next).await?;
        Ok(match next {
            Some(q) => format!(
                "{} *{}*. {}",
                say!(lang, "consultant-guide-let-s-build-your-business"),
                step_name(q.step, lang),
                q.text(lang)
            ),
            None => finished(&self.links, lang),
        })
    }

    async fn answer(
        &self,
        user: &User,
        question: &'static Question,
        text: &str,
        lang: Language,
    ) -> Result<String, AppError> {
        let waiting = self.draft(&user.id).await?;
        let patch = match (waiting.get("perDay").and_then(Json::as_f64), waiting.get("confirm")) {
            // The days worked a week, after sales were given per day.
            (Some(per_day), _) => match answer_checks::month_from_days(per_day, text) {
                Some(patch) => Some(patch),
                None => return Ok(answer_checks::ask_days(per_day, lang)),
            },
            // "sim" saves the figure read back; anything else is a new answer.
            (None, Some(confirmed)) if parse::yes_no(text) == Some(true) => {
                let confirmed = confirmed.clone();
                self.set_draft(&user.id, None).await?;
                return self.save(user, question, confirmed, lang).await;
            }
            _ => question.read(text),
        };
        if waiting.as_object().is_some_and(|w| !w.is_empty()) {
            self.set_draft(&user.id, None).await?; // what waited is answered
        }
        if let Some(per_day) = patch.as_ref().and_then(|p| p.get("_perDay")).and_then(Json::as_f64) {
            self.set_draft(&user.id, Some(json!({ "perDay": per_day }))).await?;
            return Ok(answer_checks::ask_days(per_day, lang));
        }
        if let Some(patch) = &patch {
            let plan = self.plans.get_or_create(&user.id).await?;
            if let Some(read_back) = answer_checks::surprising(question, patch, &plan, lang) {
                self.set_draft(&user.id, Some(json!({ "confirm": patch }))).await?;
                return Ok(read_back);
            }
        }
        let Some(patch) = patch else {
            return Ok(format!(
                "{} {}",
                say!(lang, "consultant-guide-i-couldn-t-read-that"),
                question.text(lang)
            ));
        };
        self.save(user, question, patch, lang).await
    }

    /// Saves an answer and moves on: the step's next question, or the step's recap and the next. A
    /// CNAE read from words is said back with its name, to be confirmed (or corrected).
    async fn save(
        &self,
        user: &User,
        question: &'static Question,
        patch: Json,
        lang: Language,
    ) -> Result<String, AppError> {
        let cnae = (question.answer == crate::consultant::questions::Answer::Cnae)
            .then(|| patch["cnae"].as_str().map(str::to_owned))
            .flatten();
        let said = self.save_and_move_on(user, question, patch, lang).await?;
        Ok(match cnae.as_deref().and_then(crate::plan::money::taxes::cnae_entry) {
            Some((entry, _)) => {
                let code = crate::plan::money::taxes::shown_cnae(cnae.as_deref().unwrap_or_default());
                format!(
                    "{}\n{said}",
                    say!(lang, "consultant-guide-i-read-cnae-if-that", code, name = entry.name)
                )
            }
            None => said,
        })
    }

    async fn save_and_move_on(
        &self,
        user: &User,
        question: &'static Question,
        patch: Json,
        lang: Language,
    ) -> Result<String, AppError> {
        let asked_again = patch_misses(&patch, question.field);
        let update = StepUpdate {
            step: question.saves_in,
            patch: Some(Patch::Merge(patch)),
            completed: None,
            field: "data".into(),
        };
        let plan = match self.plans.update(&user.id, Some(&user.id), Source::WhatsApp, &[update]).await {
            Ok((plan, _)) => plan,
            Err(err @ AppError::InvalidInput(_)) => {
                return Ok(format!("{} {}", err.message(lang), question.text(lang)));
            }
            Err(err) => return Err(err),
        };
        if asked_again {
            // The answer filled another field (a size given for the legal form): asked again.
            self.ask(&user.id, Some(question)).await?;
            return Ok(format!("{} {}", say!(lang, "consultant-guide-got-it"), question.text(lang)));
        }
        let more_in_step = QUESTIONS
            .iter()
            .skip_while(|q| !(q.step == question.step && q.field == question.field))
            .skip(1)
            .find(|q| {
                let data = &plan.section(q.step).data;
                q.step == question.step
                    && is_empty(plan.section(q.saves_in).data.get(q.field))
                    && q.applies(data)
            });
        if let Some(next) = more_in_step {
            self.ask(&user.id, Some(next)).await?;
            return Ok(format!("{} {}", say!(lang, "consultant-guide-got-it"), next.text(lang)));
        }
        // The step is done: complete it, recap, tip, and on to the next.
        let done =
            StepUpdate { step: question.step, patch: None, completed: Some(true), field: "data".into() };
        let (plan, _) = self.plans.update(&user.id, Some(&user.id), Source::WhatsApp, &[done]).await?;
        let mut parts = vec![
            format!(
                "{} *{}* {} ({}% {})",
                say!(lang, "consultant-guide-step"),
                step_name(question.step, lang),
                say!(lang, "consultant-guide-complete"),
                plan.progress(),
                say!(lang, "consultant-guide-of-the-plan")
            ),
            recap(&plan, question.step, lang),
            tip(&plan, question.step, lang),
        ];
        let next = Self::next_question(&plan, Some(question));
        self.ask(&user.id, next).await?;
        parts.push(match next {
            Some(q) => format!(
                "{} *{}*. {}",
                say!(lang, "consultant-guide-next-step"),
                step_name(q.step, lang),
                q.text(lang)
            ),
            None => finished(&self.links, lang),
        });
        Ok(parts.into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join("\n\n"))
    }
}

/// The guide's rows of a person: where the interview stood, erased with them (an absorbed
/// account's goes with it).
pub const PERSONAL: &[Personal] = &[Personal::of("guide_state", "user_id", Erase::Delete, HandOver::Stay)];
