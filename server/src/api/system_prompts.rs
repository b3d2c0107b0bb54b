//! `SystemPromptService`: the consultant's system prompts — list, read, create, update (the version
//! goes up by one), activate (exactly one active, switched atomically), delete (never the active
//! one). Admins only (the service's `(socio.v1.service_access) = ACCESS_ADMIN`); every change is committed with its audit record
//! (`prompts::Prompts`).

use super::{
    call::{Answer, Call, Reply, rpc_service},
    timestamp,
};
use crate::{
    prompts::{Draft, Prompt, Prompts},
    proto::socio::v1::{self as pb, system_prompt_service_server::SystemPromptService},
};

#[derive(Clone)]
pub struct SystemPromptApi {
    prompts: Prompts,
}

impl SystemPromptApi {
    pub fn new(prompts: Prompts) -> Self {
        Self { prompts }
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

impl SystemPromptApi {
    async fn list_system_prompts(&self, _call: Call<ListSystemPrompts>) -> Answer<ListSystemPrompts> {
        let found = self.prompts.list().await?;
        Ok(Reply::from(pb::ListSystemPromptsResponse {
            prompts: found.into_iter().map(prompt_proto).collect(),
        }))
    }

    async fn get_system_prompt(&self, call: Call<GetSystemPrompt>) -> Answer<GetSystemPrompt> {
        let prompt = self.prompts.get(&call.body().id).await?;
        Ok(Reply::from(pb::GetSystemPromptResponse { prompt: Some(prompt_proto(prompt)) }))
    }

    async fn create_system_prompt(&self, call: Call<CreateSystemPrompt>) -> Answer<CreateSystemPrompt> {
        let b = call.body();
        let draft = Draft::parse(&b.name, &b.title, b.description.as_deref(), &b.content, b.is_active)?;
        let prompt = self.prompts.create(&call.caller()?.user.id, &draft).await?;
        let notice = say!(crate::locale::current(), "api-system-prompts-system-prompt-created-successfully");
        Ok(Reply::with_message(pb::CreateSystemPromptResponse { prompt: Some(prompt_proto(prompt)) }, notice))
    }

    async fn update_system_prompt(&self, call: Call<UpdateSystemPrompt>) -> Answer<UpdateSystemPrompt> {
        let b = call.body();
        let draft = Draft::parse(&b.name, &b.title, b.description.as_deref(), &b.content, b.is_active)?;
        let prompt = self.prompts.update(&call.caller()?.user.id, &b.id, &draft).await?;
        let notice = say!(crate::locale::current(), "api-system-prompts-system-prompt-updated-successfully");
        Ok(Reply::with_message(pb::UpdateSystemPromptResponse { prompt: Some(prompt_proto(prompt)) }, notice))
    }

    async fn activate_system_prompt(&self, call: Call<ActivateSystemPrompt>) -> Answer<ActivateSystemPrompt> {
        let prompt = self.prompts.activate(&call.caller()?.user.id, &call.body().id).await?;
        let notice =
            say!(crate::locale::current(), "api-system-prompts-system-prompt-activated-successfully");
        Ok(Reply::with_message(
            pb::ActivateSystemPromptResponse { prompt: Some(prompt_proto(prompt)) },
            notice,
        ))
    }

    async fn delete_system_prompt(&self, call: Call<DeleteSystemPrompt>) -> Answer<DeleteSystemPrompt> {
        self.prompts.delete(&call.caller()?.user.id, &call.body().id).await?;
        let notice = say!(crate::locale::current(), "api-system-prompts-system-prompt-deleted-successfully");
        Ok(Reply::with_message(pb::DeleteSystemPromptResponse {}, notice))
    }
}

rpc_service!(SystemPromptService for SystemPromptApi {
    list_system_prompts,
    get_system_prompt,
    create_system_prompt,
    update_system_prompt,
    activate_system_prompt,
    delete_system_prompt,
});
