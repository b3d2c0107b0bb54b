//! The words of our replies, in the user's language: the welcome on first contact, the free-plan
//! answer, and a friendly note for what we cannot read yet (voice notes, files), so nobody is met
//! with silence.

use crate::{
    clock::Clock,
    conversation::messages::Message,
    identity::{
        links::LinkKeys,
        users::{Role, Tier, User},
    },
    locale::Language,
    whatsapp::payload::MessageKind,
};

/// Addresses the replies link to.
#[derive(Clone, Debug)]
pub struct Links {
    public_url: String,
    keys: LinkKeys,
    /// For the opaque links' week of validity.
    clock: Clock,
}

impl Links {
    pub fn new(public_url: &str, keys: LinkKeys, clock: Clock) -> Self {
        Self { public_url: public_url.trim_end_matches('/').to_owned(), keys, clock }
    }

    /// The checkout page for this user: it carries the number they proved they own, or — for
    /// someone WhatsApp shows without a number — an opaque link valid for a week.
    pub fn checkout(&self, user: &User) -> String {
        self.keys.checkout_url(&self.public_url, user, self.clock.now_ms())
    }

    pub fn dashboard(&self) -> String {
        format!("{}/dashboard", self.public_url)
    }

    pub fn builder(&self) -> String {
        format!("{}/business-plan", self.public_url)
    }
}

/// Whether the user gets the consultant: Pro users and admins.
pub fn entitled(user: &User) -> bool {
    user.tier == Tier::Pro || user.role == Role::Admin
}

/// The text a user's messages need answered: what they wrote, tapped or captioned.
pub fn readable_text(messages: &[Message]) -> String {
    messages
        .iter()
        .filter(|m| m.kind.is_readable() || !m.content.is_empty())
        .map(|m| m.content.trim())
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The one message that answers `messages` (oldest first). `consultant` is the consultant's
/// answer for users entitled to it.
pub fn compose(
    user: &User,
    first_contact: bool,
    messages: &[Message],
    links: &Links,
    consultant: Option<String>,
) -> String {
    let lang = user.language;
    let mut parts: Vec<String> = unreadable_notes(messages, lang);
    let greeting = match user.first_name() {
        Some(name) => lang.choose(format!("Olá, {name}!"), format!("Hi {name}!")),
        None => lang.choose("Olá!".to_owned(), "Hi!".to_owned()),
    };
    let main = match consultant {
        Some(answer) if entitled(user) => {
            if first_contact {
                format!("{greeting} 👋\n\n{answer}")
            } else {
                answer
            }
        }
        _ if first_contact => welcome(&greeting, lang, &links.checkout(user)),
        _ => free_plan(&greeting, lang, &links.checkout(user)),
    };
    parts.push(main);
    parts.join("\n\n")
}

/// The answer to someone who asked for a person: one will answer here.
pub fn a_person_will_answer(user: &User) -> String {
    let lang = user.language;
    let greeting = match user.first_name() {
        Some(name) => lang.choose(format!("Claro, {name}!"), format!("Of course, {name}!")),
        None => lang.choose("Claro!".to_owned(), "Of course!".to_owned()),
    };
    lang.choose(
        format!(
            "{greeting} Já chamei uma pessoa da nossa equipe: ela vai te responder aqui mesmo, nesta conversa, \
             assim que possível. Enquanto isso, se quiser, pode continuar me contando sobre o seu negócio."
        ),
        format!(
            "{greeting} I've called a person from our team: they will answer you right here, in this chat, \
             as soon as they can. Meanwhile, feel free to keep telling me about your business."
        ),
    )
}

fn welcome(greeting: &str, lang: Language, checkout: &str) -> String {
    lang.choose(
        format!(
            "{greeting} 👋 Eu sou o Sócio, seu consultor de negócios com IA.\n\n\
             Vou montar com você um plano de negócios completo — ideia, mercado, finanças, marketing, \
             pessoas e questões legais — e te orientar em marketing, finanças, gestão e impostos, \
             aqui mesmo no WhatsApp, 24 horas por dia.\n\n\
             Sou uma IA e falo só de negócios; se precisar, uma pessoa da nossa equipe pode entrar na conversa — é só pedir.\n\n\
             Para começar, escolha o seu plano: {checkout}\n\n\
             O Pro custa R$ 100 por mês (ou R$ 899 por um ano) e tem garantia de 7 dias."
        ),
        format!(
            "{greeting} 👋 I'm Sócio, your AI business consultant.\n\n\
             Together we'll build a complete business plan — idea, market, finance, marketing, people \
             and legal — and I'll guide you on marketing, finance, management and tax, right here on \
             WhatsApp, 24/7.\n\n\
             I'm an AI and I only talk business; if you need to, a person from our team can join the chat — just ask.\n\n\
             To get started, choose your plan: {checkout}\n\n\
             Pro costs R$ 100 a month (or R$ 899 for a year), in Brazilian reais, with a 7-day money-back guarantee."
        ),
    )
}

fn free_plan(greeting: &str, lang: Language, checkout: &str) -> String {
    lang.choose(
        format!(
            "{greeting} No plano Gratuito você tem o modelo básico de plano de negócios e o painel no site, \
             mas o consultor de IA aqui no WhatsApp é exclusivo do plano Pro.\n\n\
             Assine o Pro para conversar comigo quando quiser: {checkout}"
        ),
        format!(
            "{greeting} The Free plan gives you the basic business plan template and the dashboard on the \
             website, but the AI consultant here on WhatsApp is part of the Pro plan.\n\n\
             Get Pro to talk to me any time: {checkout}"
        ),
    )
}

/// One note per kind of thing we could not read, in the order they came.
fn unreadable_notes(messages: &[Message], lang: Language) -> Vec<String> {
    let mut notes: Vec<String> = Vec::new();
    for message in messages {
        let note = match &message.kind {
            MessageKind::Text
            | MessageKind::Button
            | MessageKind::Interactive
            | MessageKind::Reaction
            | MessageKind::System => continue,
            MessageKind::Audio if !message.content.is_empty() => continue, // transcribed
            MessageKind::Audio => lang.choose(
                "🎧 Recebi seu áudio, mas por enquanto ainda não consigo ouvir mensagens de voz. Pode me escrever?",
                "🎧 I got your voice note, but I can't listen to voice messages yet. Could you write to me?",
            ),
            MessageKind::Image | MessageKind::Video | MessageKind::Document | MessageKind::Sticker => lang.choose(
                "📎 Recebi seu arquivo e guardei aqui, mas por enquanto só consigo ler texto. Se puder, me conte por escrito.",
                "📎 I got your file and kept it, but for now I can only read text. If you can, tell me in writing.",
            ),
            MessageKind::Location => lang.choose(
                "📍 Obrigado pela localização, anotei aqui.",
                "📍 Thanks for the location, I've noted it.",
            ),
            MessageKind::Contacts | MessageKind::Other(_) => lang.choose(
                "Recebi sua mensagem, mas ainda não consigo ler esse tipo de conteúdo. Pode me escrever em texto?",
                "I got your message, but I can't read that kind of content yet. Could you send it as text?",
            ),
        };
        if !notes.iter().any(|n| n == note) {
            notes.push(note.to_owned());
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{config::Secret, identity::phone::PhoneNumber};

    fn test_keys() -> LinkKeys {
        LinkKeys::new(&Secret::new("a test secret that is long enough to use"))
    }

    fn user(tier: Tier, language: Language) -> User {
        User {
            id: "u1".into(),
            phone: Some(PhoneNumber::parse("+5511987654321").unwrap()),
            bsuid: None,
            username: None,
            name: "Ana Lima".into(),
            language,
            tier,
            role: Role::User,
            created_at: 0,
            last_active_at: None,
        }
    }

    #[test]
    fn someone_without_a_visible_number_gets_an_opaque_checkout_link() {
        let links = Links::new("https://socio.app", test_keys(), Clock::system());
        let bia =
            User { phone: None, username: Some("@bia.doces".into()), ..user(Tier::Free, Language::PtBr) };
        let link = links.checkout(&bia);
        let token = link.strip_prefix("https://socio.app/checkout?link=").expect(&link);
        assert_eq!(test_keys().verify(token, Clock::system().now_ms()).as_deref(), Some("u1"));
        assert!(!link.contains("bia"));
    }

    fn message(kind: MessageKind) -> Message {
        Message {
            id: "m".into(),
            user_id: "u1".into(),
            author: crate::conversation::messages::Author::User,
            kind,
            content: String::new(),
            status: "processing".into(),
            error: None,
            wa_message_id: None,
            created_at: 0,
            sent_by_name: None,
            choices: Vec::new(),
            template: None,
        }
    }

    #[test]
    fn a_new_user_is_welcomed_by_name_with_their_checkout_link() {
        let links = Links::new("https://socio.app/", test_keys(), Clock::system());
        let text =
            compose(&user(Tier::Free, Language::PtBr), true, &[message(MessageKind::Text)], &links, None);
        assert!(text.starts_with("Olá, Ana! 👋 Eu sou o Sócio"), "{text}");
        assert!(text.contains("https://socio.app/checkout/5511987654321"));
    }

    #[test]
    fn a_free_user_hears_the_consultant_is_pro_only_in_their_language() {
        let links = Links::new("http://localhost:8080", test_keys(), Clock::system());
        let text =
            compose(&user(Tier::Free, Language::En), false, &[message(MessageKind::Text)], &links, None);
        assert!(text.contains("part of the Pro plan"), "{text}");
        assert!(text.contains("http://localhost:8080/checkout/5511987654321"));
    }

    #[test]
    fn voice_notes_and_files_get_a_friendly_note_once_each() {
        let links = Links::new("http://x", test_keys(), Clock::system());
        let messages =
            [message(MessageKind::Audio), message(MessageKind::Image), message(MessageKind::Audio)];
        let text = compose(&user(Tier::Free, Language::PtBr), false, &messages, &links, None);
        assert_eq!(text.matches("Recebi seu áudio").count(), 1);
        assert_eq!(text.matches("Recebi seu arquivo").count(), 1);
    }
}
