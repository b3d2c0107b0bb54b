//! The WhatsApp side of logging in by sending a message (`identity::message_login`): when the text
//! a browser showed arrives, the person is asked here whether it was them — with reply buttons,
//! saying that a browser asked to log in and when — and their tap (or a typed "sim"/"não") answers.
//! Nothing of this goes to the consultant: the inbox hands these messages here, in its transaction,
//! and they are answered at once, free or Pro alike.

use crate::{
    clock,
    db::Tx,
    identity::{
        message_login::{self, Arrival},
        users::User,
    },
    locale::Language,
    whatsapp::{choices::Choice, payload::InboundMessage},
};

use super::delivery;

const YES: &str = "login:yes:";
const NO: &str = "login:no:";

/// Answers `message` when it belongs to a login by message (the code's text, or the answer to
/// "was it you?"). True when it did: the inbox schedules no reply for it.
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
    let tapped = message.choice_id.as_deref().and_then(|id| {
        id.strip_prefix(YES)
            .map(|code| (code, true))
            .or_else(|| id.strip_prefix(NO).map(|code| (code, false)))
    });
    let (reply, choices) = if let Some((code, confirmed)) = tapped {
        let answered = message_login::answer(tx, code, &user.id, confirmed, at).await?;
        (answered_text(lang, answered, confirmed), Vec::new())
    } else if let Some(code) = message_login::code_in(&message.text) {
        match message_login::sent_by(tx, &code, &user.id, at).await? {
            Arrival::Asked { code, started_at } => {
                let choices = vec![
                    Choice::new(format!("{YES}{code}"), lang.choose("Sim, sou eu", "Yes, it's me")),
                    Choice::new(format!("{NO}{code}"), lang.choose("Não fui eu", "It wasn't me")),
                ];
                (question(lang, started_at), choices)
            }
            Arrival::Unknown => (unknown_code(lang), Vec::new()),
        }
    } else if let Some(confirmed) = yes_or_no(&message.text)
        && let Some(code) = message_login::pending_for(tx, &user.id, at).await?
    {
        let answered = message_login::answer(tx, &code, &user.id, confirmed, at).await?;
        (answered_text(lang, answered, confirmed), Vec::new())
    } else {
        return Ok(false);
    };
    delivery::answer_at_once(tx, &user.id, stored_id, &reply, &choices, at).await?;
    Ok(true)
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

/// "A browser asked to log in at 14:32 — was it you?"
fn question(lang: Language, started_at: i64) -> String {
    let local = started_at + clock::offset_ms(started_at);
    let minutes = local.div_euclid(60_000).rem_euclid(24 * 60);
    let time = format!("{:02}:{:02}", minutes / 60, minutes % 60);
    lang.choose(
        format!(
            "🔐 Um navegador pediu para entrar na sua conta do Sócio às {time} (horário de Brasília).\n\n\
             Foi você? Se não foi, toque em \"Não fui eu\": ninguém entra sem a sua confirmação."
        ),
        format!(
            "🔐 A browser asked to log in to your Sócio account at {time} (Brasília time).\n\n\
             Was it you? If not, tap \"It wasn't me\": nobody gets in without your confirmation."
        ),
    )
}

fn unknown_code(lang: Language) -> String {
    lang.choose(
        "Esse código de acesso não vale mais (cada um dura 10 minutos e serve uma vez), então ninguém entrou. \
         Para entrar, abra o site do Sócio e toque de novo em \"Entrar pelo WhatsApp\". 😊"
            .to_owned(),
        "That login code is no longer valid (each lasts 10 minutes and works once), so nobody was logged in. \
         To log in, open the Sócio website and tap \"Log in with WhatsApp\" again. 😊"
            .to_owned(),
    )
}

fn answered_text(lang: Language, answered: bool, confirmed: bool) -> String {
    match (answered, confirmed) {
        (true, true) => lang.choose(
            "✅ Pronto! O navegador já está entrando na sua conta. Pode voltar para o site.".to_owned(),
            "✅ Done! The browser is logging in to your account. You can go back to the website.".to_owned(),
        ),
        (true, false) => lang.choose(
            "Tudo certo: ninguém entrou na sua conta. Se você não pediu esse acesso, pode ignorar esta mensagem."
                .to_owned(),
            "All good: nobody got into your account. If you didn't ask for this, you can ignore this message."
                .to_owned(),
        ),
        (false, _) => lang.choose(
            "Esse pedido de acesso já foi respondido ou expirou (cada um dura 10 minutos), então nada mudou. \
             Para entrar, toque de novo em \"Entrar pelo WhatsApp\" no site."
                .to_owned(),
            "That login request was already answered or has expired (each lasts 10 minutes), so nothing changed. \
             To log in, tap \"Log in with WhatsApp\" on the website again."
                .to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_yes_or_no_answers_in_either_language() {
        for yes in ["Sim", "sim!", "Sim, sou eu", "yes", "Yes, it's me"] {
            assert_eq!(yes_or_no(yes), Some(true), "{yes}");
        }
        for no in ["não", "Nao", "Não fui eu", "no", "It wasn't me"] {
            assert_eq!(yes_or_no(no), Some(false), "{no}");
        }
        assert_eq!(yes_or_no("sim, quero abrir uma padaria"), None);
    }

    #[test]
    fn the_question_says_when_in_brasilia_time() {
        // 2026-11-25 17:32 UTC is 14:32 in São Paulo.
        let at = 1_795_627_920_000;
        assert!(question(Language::PtBr, at).contains("às 14:32"), "{}", question(Language::PtBr, at));
    }
}
