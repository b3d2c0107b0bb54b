//! `SystemPromptService`: the consultant's system prompts. Every RPC of the contract is served; until its domain lands, each answers
//! UNIMPLEMENTED (REST 501) honestly rather than pretending.

use crate::proto::socio::v1::system_prompt_service_server::SystemPromptService;

#[derive(Clone, Debug, Default)]
pub struct SystemPromptApi;

impl SystemPromptService for SystemPromptApi {}
