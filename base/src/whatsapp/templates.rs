//! The approved utility templates of proactive messages (the monthly check-in and the fiscal
//! reminders), registered at Meta under the names `WHATSAPP_TEMPLATE_CHECKIN` and
//! `WHATSAPP_TEMPLATE_REMINDER` with the words below (docs/business-plan.md, "Staying on track"). Outside the
//! 24-hour window only a template reaches a person; inside it the same words go as plain text.

use crate::locale::Language;

/// The two approved utility templates (docs/business-plan.md, "Staying on track").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Template {
    /// `{{1}}` the person's first name, `{{2}}` last month's name.
    Checkin,
    /// `{{1}}` the person's first name, `{{2}}` what is due and when.
    Reminder,
}

impl Template {
    /// The words the person reads, with the variables filled: the same text goes as plain text
    /// inside the 24-hour window and is what the conversation keeps.
    pub fn text(self, params: &[String], lang: Language) -> String {
        let param = |i: usize| params.get(i).map(String::as_str).unwrap_or_default();
        match self {
            Template::Checkin => {
                say!(lang, "whatsapp-templates-hi-how-did-go-for", param = param(0), param2 = param(1))
            }
            Template::Reminder => {
                say!(lang, "whatsapp-templates-hi-a-reminder-from-s", param = param(0), param2 = param(1))
            }
        }
    }
}

/// A template with its variables: what a proactive message goes as outside the window (kept with
/// the message as JSON).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Filled {
    pub template: Template,
    pub params: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_read_with_their_variables_filled() {
        let text = Template::Checkin.text(&["Ana".into(), "outubro".into()], Language::PtBr);
        assert!(text.starts_with("Oi, Ana! Como foi outubro") && text.ends_with("responda PARAR."), "{text}");
        let en = Template::Reminder.text(&["Ana".into(), "the DAS is due.".into()], Language::En);
        assert!(en.contains("A reminder from Sócio: the DAS is due.") && en.ends_with("reply STOP."), "{en}");
    }
}
