// The consultant's system prompts: list, create, update, activate (exactly one active) and delete.

import { useMutation, useQuery } from "@connectrpc/connect-query";

import { SystemPromptService } from "@/gen/socio/v1/system_prompt_pb";

import { useReloadAfter } from "./reload-after";

export function useSystemPrompts() {
  return useQuery(SystemPromptService.method.listSystemPrompts, {});
}


export function useCreatePrompt() {
  return useMutation(SystemPromptService.method.createSystemPrompt, useReloadAfter());
}

export function useUpdatePrompt() {
  return useMutation(SystemPromptService.method.updateSystemPrompt, useReloadAfter());
}

export function useActivatePrompt() {
  return useMutation(SystemPromptService.method.activateSystemPrompt, useReloadAfter());
}

export function useDeletePrompt() {
  return useMutation(SystemPromptService.method.deleteSystemPrompt, useReloadAfter());
}
