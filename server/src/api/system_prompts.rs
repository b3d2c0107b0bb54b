//! `SystemPromptService`: the consultant's system prompts — list, read, create, update (the version
//! goes up by one), activate (exactly one active, switched atomically), delete (never the active
//! one). Admins only (`edge::ADMIN`); every change is audited.

use tonic::{Request, Response};

use super::{Rpc, edge, request_language, timestamp, with_message};
use crate::{
    audit,
    db::Db,
    error::AppError,
    prompts::{self, Draft, Prompt},
    proto::socio::v1::{self as pb, system_prompt_service_server::SystemPromptService},
};

#[derive(Clone)]
pub struct SystemPromptApi {
    db: Db,
}

impl SystemPromptApi {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    async fn audit<T>(&self, request: &Request<T>, action: &str, target: &str) -> Result<(), AppError> {
        let actor = edge::caller(request)?;
        let mut conn = self.db.pool().acquire().await?;
        Ok(audit::record(&mut conn, &actor.user.id, action, target, "").await?)
    }
}

fn prompt_proto(p: Prompt) -> pb::SystemPrompt {
    pb::SystemPrompt {
        id: p.id,
        name: p.name,
        title: p.title,
        description: p.description,
        content: p.content,
        is_active: p.is_active,
        version: p.version,
        created_at: Some(timestamp(p.created_at)),
        updated_at: Some(timestamp(p.updated_at)),
    }
}

#[tonic::async_trait]
impl SystemPromptService for SystemPromptApi {
    async fn list_system_prompts(
        &self,
        _request: Request<pb::ListSystemPromptsRequest>,
    ) -> Rpc<pb::ListSystemPromptsResponse> {
        let found = prompts::list(&self.db).await.map_err(AppError::from)?;
        Ok(Response::new(pb::ListSystemPromptsResponse {
            prompts: found.into_iter().map(prompt_proto).collect(),
        }))
    }

    async fn get_system_prompt(
        &self,
        request: Request<pb::GetSystemPromptRequest>,
    ) -> Rpc<pb::GetSystemPromptResponse> {
        let prompt = prompts::get(&self.db, &request.get_ref().id).await?;
        Ok(Response::new(pb::GetSystemPromptResponse { prompt: Some(prompt_proto(prompt)) }))
    }

    async fn create_system_prompt(
        &self,
        request: Request<pb::CreateSystemPromptRequest>,
    ) -> Rpc<pb::CreateSystemPromptResponse> {
        let lang = request_language(&request);
        let b = request.get_ref();
        let draft = Draft::parse(&b.name, &b.title, b.description.as_deref(), &b.content, b.is_active)?;
        let prompt = prompts::create(&self.db, &draft).await?;
        self.audit(&request, "create_system_prompt", &prompt.id).await?;
        let message =
            lang.choose("Prompt do sistema criado com sucesso", "System prompt created successfully");
        Ok(with_message(pb::CreateSystemPromptResponse { prompt: Some(prompt_proto(prompt)) }, message))
    }

    async fn update_system_prompt(
        &self,
        request: Request<pb::UpdateSystemPromptRequest>,
    ) -> Rpc<pb::UpdateSystemPromptResponse> {
        let lang = request_language(&request);
        let b = request.get_ref();
        let draft = Draft::parse(&b.name, &b.title, b.description.as_deref(), &b.content, b.is_active)?;
        let prompt = prompts::update(&self.db, &b.id, &draft).await?;
        self.audit(&request, "update_system_prompt", &prompt.id).await?;
        let message =
            lang.choose("Prompt do sistema atualizado com sucesso", "System prompt updated successfully");
        Ok(with_message(pb::UpdateSystemPromptResponse { prompt: Some(prompt_proto(prompt)) }, message))
    }

    async fn activate_system_prompt(
        &self,
        request: Request<pb::ActivateSystemPromptRequest>,
    ) -> Rpc<pb::ActivateSystemPromptResponse> {
        let lang = request_language(&request);
        let prompt = prompts::activate(&self.db, &request.get_ref().id).await?;
        self.audit(&request, "activate_system_prompt", &prompt.id).await?;
        let message =
            lang.choose("Prompt do sistema ativado com sucesso", "System prompt activated successfully");
        Ok(with_message(pb::ActivateSystemPromptResponse { prompt: Some(prompt_proto(prompt)) }, message))
    }

    async fn delete_system_prompt(
        &self,
        request: Request<pb::DeleteSystemPromptRequest>,
    ) -> Rpc<pb::DeleteSystemPromptResponse> {
        let lang = request_language(&request);
        let id = request.get_ref().id.clone();
        prompts::delete(&self.db, &id).await?;
        self.audit(&request, "delete_system_prompt", &id).await?;
        let message =
            lang.choose("Prompt do sistema excluído com sucesso", "System prompt deleted successfully");
        Ok(with_message(pb::DeleteSystemPromptResponse {}, message))
    }
}
