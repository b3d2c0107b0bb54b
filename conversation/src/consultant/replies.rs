//! The words of our replies, in the user's language: the welcome on first contact, the free-plan
//! answer, the checkout link for the interval a visitor chose on the site, and a friendly note for what we cannot read yet (voice notes, files), so nobody is met
//! with silence.

use crate::{
    billing::{on_whatsapp, subscriptions::Interval},
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

    /// The same page with Pro and `interval` chosen, as the visitor chose them on the site.
    pub fn checkout_for(&self, user: &User, interval: Interval) -> String {
        let page = self.checkout(user);
        let joiner = if page.contains('?') { '&' } else { '?' };
        format!("{page}{joiner}plan=pro&interval={}", interval.key())
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
        Some(name) => say!(lang, "consultant-replies-hi", name),
        None => say!(lang, "consultant-replies-hi-2"),
    };
    // The site's ready message, from someone not Pro yet: the checkout for the interval it names.
    let chosen = on_whatsapp::requested_interval(&readable_text(messages)).filter(|_| !entitled(user));
    let main = match (consultant, chosen) {
        (_, Some(interval)) => {
            let link = links.checkout_for(user, interval);
            if first_contact {
                format!("{}\n\n{}", introduction(&greeting, lang), subscribe(lang, interval, &link))
            } else {
                format!("{greeting} {}", subscribe(lang, interval, &link))
            }
        }
        (Some(answer), None) if entitled(user) => {
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
        Some(name) => say!(lang, "consultant-replies-of-course", name),
        None => say!(lang, "consultant-replies-of-course-2"),
    };
    say!(lang, "consultant-replies-i-ve-called-a-person", greeting)
}

/// Who we are and what we do, the first time someone writes.
fn introduction(greeting: &str, lang: Language) -> String {
    say!(lang, "consultant-replies-i-m-s-cio-your", greeting)
}

/// The answer to the site's ready message: the checkout link for the interval it names.
fn subscribe(lang: Language, interval: Interval, link: &str) -> String {
    let price = crate::plan::money::format_brl(interval.amount_cents() as f64 / 100.0, lang);
    say!(
        lang,
        "consultant-replies-subscribe-link",
        yearly = matches!(interval, Interval::Yearly),
        price,
        link
    )
}

fn welcome(greeting: &str, lang: Language, checkout: &str) -> String {
    let monthly = crate::plan::money::format_brl(Interval::Monthly.amount_cents() as f64 / 100.0, lang);
    let yearly = crate::plan::money::format_brl(Interval::Yearly.amount_cents() as f64 / 100.0, lang);
    let offer = say!(lang, "consultant-replies-to-get-started-choose-your", checkout, monthly, yearly);
    format!("{}\n\n{offer}", introduction(greeting, lang))
}

fn free_plan(greeting: &str, lang: Language, checkout: &str) -> String {
    say!(lang, "consultant-replies-the-free-plan-gives-you", greeting, checkout)
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
            MessageKind::Audio => say!(lang, "consultant-replies-i-got-your-voice-note"),
            MessageKind::Image | MessageKind::Video | MessageKind::Document | MessageKind::Sticker => {
                say!(lang, "consultant-replies-i-got-your-file-and")
            }
            MessageKind::Location => say!(lang, "consultant-replies-thanks-for-the-location-i"),
            MessageKind::Contacts | MessageKind::Other(_) => {
                say!(lang, "consultant-replies-i-got-your-message-but")
            }
        };
        if !notes.contains(&note) {
            notes.push(note);
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

    fn text(content: &str) -> Message {
        Message { content: content.into(), ..message(MessageKind::Text) }
    }

    #[test]
    fn a_visitor_who_chose_yearly_on_the_site_gets_the_yearly_checkout_in_the_first_reply() {
        let links = Links::new("https://socio.app", test_keys(), Clock::system());
        let ready = on_whatsapp::subscribe_text(Interval::Yearly, Language::PtBr);
        let reply = compose(&user(Tier::Free, Language::PtBr), true, &[text(&ready)], &links, None);
        assert!(reply.starts_with("Olá, Ana! 👋 Eu sou o Sócio"), "{reply}");
        assert!(reply.contains("assinar o Pro anual (R$\u{a0}899,00 por um ano"), "{reply}");
        assert!(reply.contains("https://socio.app/checkout/5511987654321?link="), "signed for her: {reply}");
        assert!(reply.contains("&plan=pro&interval=yearly"), "{reply}");
    }

    #[test]
    fn someone_without_a_visible_number_keeps_the_interval_after_the_opaque_link() {
        let links = Links::new("https://socio.app", test_keys(), Clock::system());
        let bia = User { phone: None, ..user(Tier::Free, Language::En) };
        let ready = on_whatsapp::subscribe_text(Interval::Monthly, Language::En);
        let reply = compose(&bia, false, &[text(&ready)], &links, None);
        assert!(reply.contains("subscribe to Pro, monthly (R$100.00 a month"), "{reply}");
        assert!(reply.contains("&plan=pro&interval=monthly"), "{reply}");
    }

    #[test]
    fn a_pro_user_who_sends_the_ready_message_gets_the_consultant_not_a_checkout() {
        let links = Links::new("https://socio.app", test_keys(), Clock::system());
        let ready = on_whatsapp::subscribe_text(Interval::Yearly, Language::PtBr);
        let reply = compose(
            &user(Tier::Pro, Language::PtBr),
            false,
            &[text(&ready)],
            &links,
            Some("Você já é Pro!".into()),
        );
        assert_eq!(reply, "Você já é Pro!");
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
