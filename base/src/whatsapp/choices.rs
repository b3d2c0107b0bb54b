//! Closed questions as taps: a question with a few answers goes as WhatsApp interactive reply
//! buttons (up to 3) or a list message (up to 10 rows), per Meta's "Interactive reply buttons
//! messages" and "Interactive list messages" references
//! (developers.facebook.com/docs/whatsapp/cloud-api/messages/interactive-reply-buttons-messages,
//! …/interactive-list-messages): buttons carry a body of at most 1,024 characters and titles of at
//! most 20, a list a body of at most 4,096, one button label of at most 20 and rows titled in at
//! most 24. What cannot be sent that way (too many answers, too long a body) goes as plain text,
//! whose words already name the answers. A tap comes back as an `interactive` message whose
//! `button_reply`/`list_reply` title is read like typed text (`payload`).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// One answer the person can tap: its id comes back with the tap, its title is what they see and
/// what is read as their answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    pub id: String,
    pub title: String,
}

impl Choice {
    pub fn new(id: impl Into<String>, title: impl Into<String>) -> Self {
        Self { id: id.into(), title: title.into() }
    }
}

pub const MAX_BUTTONS: usize = 3;
pub const MAX_ROWS: usize = 10;
const BUTTON_TITLE_CHARS: usize = 20;
const ROW_TITLE_CHARS: usize = 24;
const BUTTON_BODY_CHARS: usize = 1024;
const LIST_BODY_CHARS: usize = 4096;
const ID_CHARS: usize = 200;

fn fits(text: &str, max: usize) -> bool {
    !text.trim().is_empty() && text.chars().count() <= max
}

/// The Cloud API's `interactive` object for `body` with these choices, or None when they cannot
/// be sent that way. `list_label` names the list's button ("Escolher").
pub fn interactive(body: &str, choices: &[Choice], list_label: &str) -> Option<Value> {
    let ids_ok = choices.iter().all(|c| fits(&c.id, ID_CHARS));
    let mut ids: Vec<&str> = choices.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    if choices.len() < 2 || !ids_ok || ids.len() != choices.len() {
        return None;
    }
    if choices.len() <= MAX_BUTTONS
        && fits(body, BUTTON_BODY_CHARS)
        && choices.iter().all(|c| fits(&c.title, BUTTON_TITLE_CHARS))
    {
        let buttons: Vec<Value> = choices
            .iter()
            .map(|c| json!({"type": "reply", "reply": {"id": c.id, "title": c.title}}))
            .collect();
        return Some(json!({"type": "button", "body": {"text": body}, "action": {"buttons": buttons}}));
    }
    if choices.len() <= MAX_ROWS
        && fits(body, LIST_BODY_CHARS)
        && fits(list_label, BUTTON_TITLE_CHARS)
        && choices.iter().all(|c| fits(&c.title, ROW_TITLE_CHARS))
    {
        let rows: Vec<Value> = choices.iter().map(|c| json!({"id": c.id, "title": c.title})).collect();
        return Some(json!({
            "type": "list",
            "body": {"text": body},
            "action": {"button": list_label, "sections": [{"title": list_label, "rows": rows}]}
        }));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices(n: usize) -> Vec<Choice> {
        (0..n).map(|i| Choice::new(format!("c{i}"), format!("Opção {i}"))).collect()
    }

    #[test]
    fn up_to_three_short_answers_are_buttons_up_to_ten_a_list() {
        let buttons = interactive("Já tem CNPJ?", &choices(3), "Escolher").unwrap();
        assert_eq!(buttons["type"], "button");
        assert_eq!(
            buttons["action"]["buttons"][2],
            json!({"type": "reply", "reply": {"id": "c2", "title": "Opção 2"}})
        );
        let list = interactive("Em que fase você está?", &choices(4), "Escolher").unwrap();
        assert_eq!(list["type"], "list");
        assert_eq!(list["action"]["sections"][0]["rows"].as_array().unwrap().len(), 4);
        assert!(interactive("Qual?", &choices(11), "Escolher").is_none(), "more than ten");
        assert!(interactive("Qual?", &choices(1), "Escolher").is_none(), "one is not a choice");
    }

    #[test]
    fn what_breaks_meta_s_limits_falls_back_to_text() {
        let long_title = vec![Choice::new("a", "Um título de 22 letras"), Choice::new("b", "Outro")];
        assert_eq!(
            interactive("Qual?", &long_title, "Escolher").unwrap()["type"],
            "list",
            "a row may be longer"
        );
        let too_long_row = vec![Choice::new("a", "x".repeat(25)), Choice::new("b", "y")];
        assert!(interactive("Qual?", &too_long_row, "Escolher").is_none());
        let long_body = "b".repeat(1025);
        assert_eq!(
            interactive(&long_body, &choices(2), "Escolher").unwrap()["type"],
            "list",
            "a list's body may be longer"
        );
        assert!(interactive(&"b".repeat(4097), &choices(2), "Escolher").is_none());
        let twins = vec![Choice::new("a", "Sim"), Choice::new("a", "Não")];
        assert!(interactive("Qual?", &twins, "Escolher").is_none(), "ids must differ");
    }
}
