//! "PARAR", "STOP" or "cancelar lembretes" stop every message Sócio would send on its own, at once,
//! confirmed in one line; "VOLTAR" resumes them. Handled in the inbox's transaction, before any
//! reply: the words are never taken as an answer to the consultant.

use crate::{
    db::Tx,
    identity::{search::fold, users::User},
    plan::reminders,
    whatsapp::payload::InboundMessage,
};

use super::delivery;

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

/// Answers a stop or resume command; true when `message` was one (no reply job for it). "VOLTAR"
/// with nothing stopped is left to the consultant.
pub async fn take(
    tx: &mut Tx,
    user: &User,
    message: &InboundMessage,
    stored_id: &str,
    at: i64,
) -> Result<bool, sqlx::Error> {
    if !message.kind.is_readable() {
        return Ok(false);
    }
    let lang = user.language;
    let reply = match command(&message.text) {
        Some(Command::Stop) => {
            reminders::stop(tx, &user.id, at).await?;
            tracing::info!(user = %user.id, "a person stopped every proactive message");
            lang.choose(
                "Pronto: não envio mais nenhuma mensagem por conta própria. Para voltar a receber os lembretes, escreva VOLTAR.",
                "Done: I won't send you any message on my own anymore. To get the reminders again, write VOLTAR.",
            )
        }
        Some(Command::Resume) if reminders::resume(tx, &user.id, at).await? => lang.choose(
            "Combinado: os lembretes que você escolheu voltaram. Para parar de novo, escreva PARAR.",
            "Done: the reminders you chose are back. To stop them again, write PARAR.",
        ),
        Some(Command::Resume) | None => return Ok(false),
    };
    delivery::answer_at_once(tx, &user.id, stored_id, reply, &[], at).await?;
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
    }
}
