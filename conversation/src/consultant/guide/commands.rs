//! The guide's commands: the few words that do something instead of answering the interview —
//! menu, ajuda, progresso, links, plano, pular, English/Português.

use crate::locale::Language;

pub(super) enum Command {
    Menu,
    Help,
    Progress,
    Links,
    /// The complete plan as a PDF on WhatsApp.
    SendPlan,
    Skip,
    Language(Language),
}

pub(super) fn command(text: &str) -> Option<Command> {
    let lower = text.trim().to_lowercase();
    let lower = lower.trim_matches(|c: char| !c.is_alphanumeric());
    Some(match lower {
        "menu" => Command::Menu,
        "ajuda" | "help" | "?" => Command::Help,
        "progresso" | "progress" | "status" => Command::Progress,
        "plano" | "plan" | "pdf" | "plano em pdf" => Command::SendPlan,
        "painel" | "dashboard" | "link" | "links" | "site" => Command::Links,
        "pular" | "skip" | "próxima" | "proxima" | "next" => Command::Skip,
        "english" | "inglês" | "ingles" | "in english" | "speak english" => Command::Language(Language::En),
        "português" | "portugues" | "portuguese" | "em português" => Command::Language(Language::PtBr),
        _ => return None,
    })
}
