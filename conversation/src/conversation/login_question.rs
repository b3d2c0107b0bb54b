//! The WhatsApp side of logging in by sending a message (`identity::message_login`): when the text
//! a browser showed arrives, the person is asked here whether it was them — naming the browser,
//! its system and the time — with three two-digit numbers to tap. Only a tap on the number their
//! browser shows, on that question while it is the latest message we sent them, confirms the
//! login; another number, or a tap on a question we have moved on from, cancels it; typed words
//! never confirm (a typed "não" cancels; a typed "sim" is told to tap the number). This is number
//! matching: someone who tricks a person into sending the text still needs them to read a number
//! off the attacker's own screen. An admin is never logged in this way. Nothing of this goes to
//! the consultant: the inbox hands these messages here, in its transaction, and they are answered
//! at once, free or Pro alike.

use crate::{
    clock,
    db::Tx,
    error::AppError,
    identity::{
        device::Device,
        message_login::{self, Arrival, Pending, Replies},
        users::{Role, User},
    },
    locale::Language,
    whatsapp::{choices::Choice, payload::InboundMessage},
};

use super::{delivery, messages};

/// A tapped number's id: `login:<code>:<number>`.
const TAP: &str = "login:";

/// Answers `message` when it belongs to a login by message (the code's text, a tapped number, or
/// words answering the question while it is the latest). True when it did: the inbox schedules no
/// reply for it.
pub(in crate::conversation) async fn take(
    tx: &mut Tx,
    user: &User,
    message: &InboundMessage,
    stored_id: &str,
    at: i64,
) -> Result<bool, AppError> {
    if !message.kind.is_readable() {
        return Ok(false);
    }
    if let Some(choice) = message.choice_id.as_deref() {
        // Another question's button is that question's, never this one's.
        let Some((code, number)) = tapped(choice) else { return Ok(false) };
        let reply = answer_tap(tx, user, code, number, at).await?;
        delivery::answer_at_once(tx, &user.id, stored_id, &reply, &[], at).await?;
        return Ok(true);
    }
    if let Some(code) = message_login::code_in(&message.text) {
        return arrived(tx, user, &code, stored_id, at).await.map(|()| true);
    }
    let Some(yes) = yes_or_no(&message.text) else { return Ok(false) };
    // Words answer the question only while it is the last thing we said; else they are the
    // consultant's.
    let Some(pending) = Replies.pending_for_in(tx, &user.id, None, at).await? else { return Ok(false) };
    if !is_latest_question(tx, user, &pending).await? {
        return Ok(false);
    }
    if yes {
        // A typed yes confirms nothing: the question comes again, to be answered by a tap.
        let lang = user.language;
        let again =
            delivery::answer_at_once(tx, &user.id, stored_id, &tap_the_number(lang), &numbers(&pending), at)
                .await?;
        Replies.asked_with_in(tx, &pending.code, &again).await?;
    } else {
        let answered = Replies.answer_in(tx, &pending.code, &user.id, false, at).await?;
        delivery::answer_at_once(
            tx,
            &user.id,
            stored_id,
            &answered_text(user.language, answered, false),
            &[],
            at,
        )
        .await?;
    }
    Ok(true)
}

/// The three numbers to tap for a login: the browser's and two others.
fn numbers(pending: &Pending) -> Vec<Choice> {
    message_login::choices_for(&pending.code, pending.match_code)
        .iter()
        .map(|n| Choice::new(format!("{TAP}{}:{n}", pending.code), n.to_string()))
        .collect()
}

/// The text of a login arrived: asks the person (three numbers), or tells an admin to use a code,
/// or says the code is no longer valid.
async fn arrived(tx: &mut Tx, user: &User, code: &str, stored_id: &str, at: i64) -> Result<(), AppError> {
    let lang = user.language;
    if user.role == Role::Admin {
        let reply = match Replies.code_only_in(tx, code, &user.id, at).await? {
            Some((started_at, device)) => admin_question(lang, started_at, &device),
            None => unknown_code(lang),
        };
        delivery::answer_at_once(tx, &user.id, stored_id, &reply, &[], at).await?;
        return Ok(());
    }
    match Replies.sent_by_in(tx, code, &user.id, at).await? {
        Arrival::Asked { code, started_at, match_code, device } => {
            let choices = numbers(&Pending { code: code.clone(), question_id: None, match_code });
            let reply = question(lang, started_at, &device);
            let question_id = delivery::answer_at_once(tx, &user.id, stored_id, &reply, &choices, at).await?;
            Replies.asked_with_in(tx, &code, &question_id).await?;
        }
        Arrival::Unknown => {
            delivery::answer_at_once(tx, &user.id, stored_id, &unknown_code(lang), &[], at).await?;
        }
    }
    Ok(())
}

/// A tap on one of a login question's numbers: the browser's number on the latest question
/// confirms; any other number, or a tap on an older question, cancels the login.
async fn answer_tap(tx: &mut Tx, user: &User, code: &str, number: i32, at: i64) -> Result<String, AppError> {
    let lang = user.language;
    let Some(pending) = Replies.pending_for_in(tx, &user.id, Some(code), at).await? else {
        // Someone else's login, answered before, or expired: nothing changes.
        return Ok(answered_text(lang, false, false));
    };
    let latest = is_latest_question(tx, user, &pending).await?;
    let confirmed = latest && number == pending.match_code;
    let answered = Replies.answer_in(tx, &pending.code, &user.id, confirmed, at).await?;
    Ok(match (answered, confirmed, latest) {
        (true, false, false) => moved_on(lang),
        (true, false, true) => wrong_number(lang),
        _ => answered_text(lang, answered, confirmed),
    })
}

/// Whether the question about `pending` is the latest message we sent the person.
async fn is_latest_question(tx: &mut Tx, user: &User, pending: &Pending) -> Result<bool, AppError> {
    let Some(question_id) = &pending.question_id else { return Ok(false) };
    Ok(messages::last_outbound(tx, &user.id).await?.is_some_and(|m| &m.id == question_id))
}

/// `login:K7P4QX:47` → (`K7P4QX`, 47).
fn tapped(choice_id: &str) -> Option<(&str, i32)> {
    let (code, number) = choice_id.strip_prefix(TAP)?.split_once(':')?;
    Some((code, number.parse().ok()?))
}

/// "Sim" / "não", as a person answers a yes-or-no question in either language.
fn yes_or_no(text: &str) -> Option<bool> {
    let words: String = text
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace() || *c == ',')
        .collect();
    match words.trim() {
        "sim" | "s" | "sim, sou eu" | "sim sou eu" | "sou eu" | "fui eu" | "yes" | "y" | "yes, its me"
        | "yes its me" | "it was me" => Some(true),
        "não" | "nao" | "n" | "não fui eu" | "nao fui eu" | "no" | "it wasnt me" => Some(false),
        _ => None,
    }
}

/// "14:32", in Brasília time.
fn brasilia_time(at: i64) -> String {
    let local = at + clock::offset_ms(at);
    let minutes = local.div_euclid(60_000).rem_euclid(24 * 60);
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// "Um navegador Chrome no Windows pediu para entrar às 14:32 — foi você? Toque no número…"
fn question(lang: Language, started_at: i64, device: &Device) -> String {
    let time = brasilia_time(started_at);
    let who = device.describe(lang);
    say!(lang, "conversation-login-question-asked-to-log-in-to", who = capitalised(&who), time)
}

/// An admin sent the text: their account logs in with a code only.
fn admin_question(lang: Language, started_at: i64, device: &Device) -> String {
    let time = brasilia_time(started_at);
    let who = device.describe(lang);
    say!(lang, "conversation-login-question-asked-to-log-in-to-2", who = capitalised(&who), time)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn tap_the_number(lang: Language) -> String {
    say!(lang, "conversation-login-question-to-confirm-tap-here-the")
}

fn wrong_number(lang: Language) -> String {
    say!(lang, "conversation-login-question-that-isn-t-the-browser")
}

fn moved_on(lang: Language) -> String {
    say!(lang, "conversation-login-question-that-login-request-was-left")
}

fn unknown_code(lang: Language) -> String {
    say!(lang, "conversation-login-question-that-login-code-is-no")
}

fn answered_text(lang: Language, answered: bool, confirmed: bool) -> String {
    match (answered, confirmed) {
        (true, true) => say!(lang, "conversation-login-question-done-the-browser-is-logging"),
        (true, false) => say!(lang, "conversation-login-question-all-good-nobody-got-into"),
        (false, _) => say!(lang, "conversation-login-question-that-login-request-was-already"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_yes_or_no_is_read_in_either_language() {
        for yes in ["Sim", "sim!", "Sim, sou eu", "yes", "Yes, it's me"] {
            assert_eq!(yes_or_no(yes), Some(true), "{yes}");
        }
        for no in ["não", "Nao", "Não fui eu", "no", "It wasn't me"] {
            assert_eq!(yes_or_no(no), Some(false), "{no}");
        }
        assert_eq!(yes_or_no("sim, quero abrir uma padaria"), None);
    }

    #[test]
    fn a_tap_names_its_login_and_number_and_nothing_else_is_a_tap() {
        assert_eq!(tapped("login:K7P4QX:47"), Some(("K7P4QX", 47)));
        assert_eq!(tapped("login:yes:K7P4QX"), None, "the old yes button confirms nothing");
        assert_eq!(tapped("reminders.yes"), None);
        assert_eq!(tapped("login:K7P4QX:sim"), None);
    }

    #[test]
    fn the_question_names_the_browser_its_system_and_the_time_in_brasilia() {
        // 2026-11-25 17:32 UTC is 14:32 in São Paulo.
        let at = 1_795_627_920_000;
        let device = Device { browser: Some("Chrome"), system: Some("Windows") };
        let asked = question(Language::PtBr, at, &device);
        assert!(asked.starts_with("🔐 Um navegador Chrome no Windows pediu"), "{asked}");
        assert!(asked.contains("às 14:32") && asked.contains("mesmo número"), "{asked}");
        let asked = question(Language::En, at, &Device::default());
        assert!(asked.starts_with("🔐 A browser asked") && asked.contains("at 14:32"), "{asked}");
        assert!(admin_question(Language::PtBr, at, &device).contains("só com o código"));
    }
}
