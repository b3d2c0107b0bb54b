//! The plan on WhatsApp: when someone asks for their plan (`plan_request`), a `plan_document` job
//! generates the complete plan (or reuses the latest version when nothing changed), renders its
//! PDF and sends it as a WhatsApp document — in cloud mode uploaded to Meta and sent as a
//! `document` message, in dev mode kept in the outbox for the simulator to download. It is stored
//! in the conversation like any reply of ours and handed to WhatsApp once (`Delivery::hand_over`),
//! after the reply that asked for it is written and every message of ours before it has gone.
//! Outside WhatsApp's 24-hour window it is not attempted: only templates reach the person then.

use std::sync::Arc;

use futures::future::BoxFuture;

use super::{engine::Engine, plan_request::PlanDocumentJob};
use crate::{
    conversation::{delivery::Delivery, inbox::ReplyJob, messages::Messages},
    db::{
        Db,
        jobs::{self, Job, JobError, JobPayload, RunsJob},
    },
    identity::users::Users,
    locale::Language,
    whatsapp::sender::{Document, Outgoing, WhatsAppSender},
};

pub struct PlanDocumentHandler {
    db: Db,
    engine: Engine,
    renderer: Arc<crate::rendering::Renderer>,
    messages: Messages,
    delivery: Delivery,
}

impl PlanDocumentHandler {
    pub fn new(
        db: Db,
        engine: Engine,
        renderer: Arc<crate::rendering::Renderer>,
        sender: Arc<dyn WhatsAppSender>,
    ) -> Self {
        Self {
            messages: Messages::new(db.clone()),
            delivery: Delivery::new(db.clone(), sender),
            db,
            engine,
            renderer,
        }
    }

    async fn deliver(&self, job: &Job, payload: PlanDocumentJob) -> Result<(), JobError> {
        let Some(user) = Users::new(self.db.clone()).find(&payload.user_id).await? else {
            return Ok(()); // erased meanwhile
        };
        if !self.delivery.window_open(&user.id).await? {
            tracing::info!(user = %user.id, "the plan was not sent: outside WhatsApp's 24-hour window");
            return Ok(());
        }
        let language = payload.language.as_deref().and_then(Language::parse).unwrap_or(user.language);
        let id = format!("plan-{}", job.id);
        // The reply that asked for it (and says it is coming) is written, then sent, first.
        if jobs::running_for(&self.db, ReplyJob::KIND, &user.id).await?
            || self.messages.outbound_pending(&user.id, &id).await?
        {
            return Err(JobError::Retryable("waiting for the reply before the plan".into()));
        }
        // A retry finds the same version (nothing changed) and renders it again.
        let (_, document) =
            self.engine.document(&user, language).await.map_err(|e| JobError::Retryable(e.to_string()))?;
        let file_name =
            format!("{}-v{}.pdf", say!(language, "consultant-plan-delivery-business-plan"), document.version);
        let renderer = self.renderer.clone();
        let model = document.model.clone();
        let pdf = tokio::task::spawn_blocking(move || renderer.render(&model))
            .await
            .map_err(|e| JobError::Retryable(format!("rendering the plan: {e}")))?
            .map_err(|e| JobError::Permanent(format!("rendering the plan: {e}")))?;
        let caption = say!(
            language,
            "consultant-plan-delivery-your-complete-business-plan-version",
            version = document.version
        );
        self.messages.keep_document(&id, &user.id, &caption, self.db.now_ms()).await?;
        let message = self.messages.get(&id).await?.ok_or_else(|| JobError::Permanent("stored".into()))?;
        let file = Document { file_name, mime_type: "application/pdf".into(), bytes: pdf.into() };
        let to = user.whatsapp_address().unwrap_or_default().to_owned();
        let outgoing = Outgoing::Document { to, file, caption };
        self.delivery.hand_over(&message, &outgoing, job, None).await
    }
}

impl RunsJob<PlanDocumentJob> for PlanDocumentHandler {
    fn run<'a>(&'a self, job: &'a Job, payload: PlanDocumentJob) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(self.deliver(job, payload))
    }
}
