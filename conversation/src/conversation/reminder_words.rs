//! "PARAR", "STOP" or "cancelar lembretes" stop every message Sócio would send on its own, at once,
//! confirmed in one line; "VOLTAR" resumes them. The answer to the consultant's offer of the
//! check-ins ("sim" right after it, or a tap on its buttons) is consent, or a no. Handled in the
//! inbox's transaction, before any reply: the words are never taken as an answer to the consultant.

use crate::{
    db::Tx,
    error::AppError,
    identity::{search::fold, users::User},
    plan::tracking::reminders::{OFFER_NO, OFFER_YES, Reminders, Said},
    whatsapp::payload::InboundMessage,
};

use super::{delivery, messages};

/// The person's words, when they are a stop or resume command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    Stop,
    Resume,
}

fn command(text: &str) -> Option<Command> {
    let words = fold(text.trim().trim_matches(|c: char| !c.is_alphanumeric()));
    match words.as_str() {
        "parar" | "pare" | "stop" | "cancelar lembretes" | "cancelar os lembretes" | "parar lembretes" => {
            Some(Command::Stop)
        }
        "voltar" | "resume" | "start" => Some(Command::Resume),
        _ => None,
    }
}

/// "sim" / "não" as an answer to a yes-or-no offer, however punctuated ("Sim, quero!").
fn yes_or_no(text: &str) -> Option<bool> {
    let folded = fold(text);
    let words =
        folded.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
    match words.as_str() {
        "sim" | "sim quero" | "quero" | "pode" | "pode ser" | "claro" | "yes" | "sure" | "ok" => Some(true),
        "nao" | "agora nao" | "nao quero" | "nao obrigado" | "nao obrigada" | "no" | "not now" => Some(false),
        _ => None,
    }
}

/// Answers the offer of the check-ins: a tap on its buttons at any time while it is open, or
/// "sim" / "não" written while it is the last thing we said. True when `message` answered it.
async fn answer_offer(
    reminders: &Reminders,
    tx: &mut Tx,
    user: &User,
    message: &InboundMessage,
    stored_id: &str,
    at: i64,
) -> Result<bool, AppError> {
    let tapped = match message.choice_id.as_deref() {
        Some(OFFER_YES) => Some(true),
        Some(OFFER_NO) => Some(false),
        _ => None,
    };
    let written = yes_or_no(&message.text);
    if tapped.is_none() && written.is_none() {
        return Ok(false); // no answer to any offer: nothing to look up
    }
    let Some(offer_id) = reminders.open_offer_in(tx, &user.id).await? else { return Ok(false) };
    let yes = match (tapped, written) {
        (Some(yes), _) => yes,
        (None, Some(yes))
            if messages::last_outbound(tx, &user.id).await?.is_some_and(|m| m.id == offer_id) =>
        {
            yes
        }
        _ => return Ok(false),
    };
    reminders.answer_offer_in(tx, &user.id, yes, at).await?;
    tracing::info!(user = %user.id, yes, "a person answered the offer of the check-ins");
    let lang = user.language;
    let reply = if yes {
        say!(lang, "conversation-reminder-words-done-on-the-first-business")
    } else {
        say!(lang, "conversation-reminder-words-all-right-i-won-t")
    };
    // The offer came right after a question of the plan's interview: asked again, so it is not lost.
    let interrupted = messages::outbound_before(tx, &user.id, &offer_id).await?;
    let reply = match interrupted.as_ref().and_then(|m| interrupted_question(&m.content)) {
        Some(question) => {
            format!("{reply}\n\n{} {question}", say!(lang, "conversation-reminder-words-back-to-your-plan"))
        }
        None => reply.to_owned(),
    };
    delivery::answer_at_once(tx, &user.id, stored_id, &reply, &[], at).await?;
    Ok(true)
}

/// The question a message ended with (its last paragraph, when it asks one).
fn interrupted_question(message: &str) -> Option<&str> {
    let last = message.trim_end().rsplit("\n\n").next()?.trim();
    let question = ["Próxima etapa:", "Next step:"]
        .iter()
        .find_map(|lead| last.strip_prefix(lead))
        .unwrap_or(last)
        .trim();
    question.contains('?').then_some(question)
}

/// Answers a stop or resume command; true when `message` was one (no reply job for it). "VOLTAR"
/// with nothing stopped is left to the consultant.
pub(in crate::conversation) async fn take(
    reminders: &Reminders,
    tx: &mut Tx,
    user: &User,
    message: &InboundMessage,
    stored_id: &str,
    at: i64,
) -> Result<bool, AppError> {
    if !message.kind.is_readable() {
        return Ok(false);
    }
    if answer_offer(reminders, tx, user, message, stored_id, at).await? {
        return Ok(true);
    }
    let lang = user.language;
    let reply = match command(&message.text) {
        Some(Command::Stop) => {
            reminders.stop_in(tx, &user.id, at, Said::Typed).await?;
            tracing::info!(user = %user.id, "a person stopped every proactive message");
            say!(lang, "conversation-reminder-words-done-i-won-t-send")
        }
        Some(Command::Resume) if reminders.resume_in(tx, &user.id, at, Said::Typed).await? => {
            say!(lang, "conversation-reminder-words-done-the-reminders-you-chose")
        }
        Some(Command::Resume) | None => return Ok(false),
    };
    delivery::answer_at_once(tx, &user.id, stored_id, &reply, &[], at).await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_and_resume_words_in_either_language() {
        for stop in ["PARAR", "parar.", "Stop", "Cancelar lembretes", "pare!"] {
            assert_eq!(command(stop), Some(Command::Stop), "{stop}");
        }
        for resume in ["VOLTAR", "voltar", "resume"] {
            assert_eq!(command(resume), Some(Command::Resume), "{resume}");
        }
        assert_eq!(command("não quero parar de vender"), None);
        assert_eq!(yes_or_no("Sim!"), Some(true));
        assert_eq!(yes_or_no("Agora não"), Some(false));
        assert_eq!(yes_or_no("Sim, quero!"), Some(true));
        assert_eq!(yes_or_no("Não, obrigada."), Some(false));
        assert_eq!(yes_or_no("sim, mas quanto custa?"), None);
    }

    #[test]
    fn the_question_an_offer_cut_is_the_last_paragraph_that_asks() {
        let reply = "✅ Etapa *Finanças* concluída!\n\nResumo...\n\nPróxima etapa: *Marketing*. Por quais canais vai vender e divulgar? (ex.: Instagram)";
        assert_eq!(
            interrupted_question(reply),
            Some("*Marketing*. Por quais canais vai vender e divulgar? (ex.: Instagram)")
        );
        assert_eq!(interrupted_question("Anotado! ✅"), None);
    }
}
