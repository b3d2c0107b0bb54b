//! Asking for the plan on WhatsApp: "me manda o plano" (and its English), the guide's *plano*
//! command or the model's `send_plan_document` tool enqueue a `plan_document` job
//! (`plan_delivery` composes and sends it) and answer that it is on its way.

use crate::{
    db::{
        Db,
        jobs::{self, JobPayload, NewJob},
    },
    error::AppError,
    locale::Language,
};

/// The job that composes the person's plan and sends it on WhatsApp.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanDocumentJob {
    pub user_id: String,
    /// The language tag the plan is written in; the person's own when absent or unknown.
    #[serde(default)]
    pub language: Option<String>,
}

impl JobPayload for PlanDocumentJob {
    const KIND: &'static str = "plan_document";
}

/// The job that sends the plan to the person, in `language`, half a second after `now`: a
/// person's plans go one at a time, after the reply that says it is coming.
pub fn job(user_id: &str, language: Language, now: i64) -> NewJob {
    PlanDocumentJob { user_id: user_id.to_owned(), language: Some(language.tag().to_owned()) }
        .job()
        .subject(user_id)
        .run_at(now + 500)
}

/// Asking for the plan's PDF as a service: the consultant's tool, the guide's "mande o plano".
#[derive(Clone)]
pub struct PlanRequests {
    db: Db,
}

impl PlanRequests {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Asks for the plan to be sent to the person, in `language` ([`job`]), committed: it wakes the
    /// workers for the plan.
    pub async fn request(&self, user_id: &str, language: Language) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        let now = tx.now_ms();
        jobs::enqueue(&mut tx, job(user_id, language, now)).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Whether what someone wrote asks us to send them the plan.
pub fn asks_for_the_plan(text: &str) -> bool {
    let text = crate::identity::search::fold(text);
    const PHRASES: &[&str] = &[
        "manda o plano",
        "mande o plano",
        "manda meu plano",
        "mande meu plano",
        "me envia o plano",
        "envia o plano",
        "envie o plano",
        "enviar o plano",
        "manda o pdf",
        "mande o pdf",
        "plano em pdf",
        "send me the plan",
        "send me my plan",
        "send the plan",
        "send my plan",
        "plan as a pdf",
        "plan in pdf",
    ];
    PHRASES.iter().any(|phrase| text.contains(phrase))
}

/// What we say while the plan is on its way.
pub fn on_its_way(language: Language) -> String {
    say!(language, "consultant-plan-request-i-ll-put-your-complete")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asking_for_the_plan_is_heard_in_both_languages() {
        for text in [
            "Me manda o plano?",
            "pode mandar o plano em PDF",
            "Envie o plano por aqui",
            "Send me my plan please",
        ] {
            assert!(asks_for_the_plan(text), "{text}");
        }
        for text in ["Quero fazer um plano de marketing", "Qual é o plano Pro?", "What is the plan price?"] {
            assert!(!asks_for_the_plan(text), "{text}");
        }
    }
}
