import { createConnectQueryKey } from "@connectrpc/connect-query";
import { create, type DescMethodUnary, type DescMessage } from "@bufbuild/protobuf";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";

import { AdminService } from "@/gen/socio/v1/admin_pb";
import { BusinessPlanService } from "@/gen/socio/v1/business_plan_pb";
import { ConsultantService } from "@/gen/socio/v1/consultant_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { HandoffService } from "@/gen/socio/v1/handoff_pb";
import { SystemPromptService } from "@/gen/socio/v1/system_prompt_pb";

import { invalidateAdmin, invalidateConversation, invalidateHandoffs, invalidatePlan } from "./query-keys";

function cached(client: QueryClient, schema: DescMethodUnary<DescMessage, DescMessage>) {
  const queryKey = createConnectQueryKey({ schema, input: {}, cardinality: "finite" });
  client.setQueryData(queryKey, create(schema.output));
  return () => client.getQueryState(queryKey)?.isInvalidated ?? false;
}

function loaded() {
  const client = new QueryClient();
  return {
    client,
    plan: cached(client, BusinessPlanService.method.getBusinessPlan),
    dashboard: cached(client, DashboardService.method.getDashboard),
    chat: cached(client, ConsultantService.method.listChatMessages),
    users: cached(client, AdminService.method.listUsers),
    prompts: cached(client, SystemPromptService.method.listSystemPrompts),
    queue: cached(client, HandoffService.method.listHandoffs),
  };
}

describe("what a change makes stale", () => {
  it("a plan change reloads the plan and the dashboard, nothing else", async () => {
    const q = loaded();
    await invalidatePlan(q.client);
    expect([q.plan(), q.dashboard(), q.chat(), q.users(), q.prompts()]).toEqual([true, true, false, false, false]);
  });

  it("a chat exchange reloads the conversation, the dashboard and the plan", async () => {
    const q = loaded();
    await invalidateConversation(q.client);
    expect([q.plan(), q.dashboard(), q.chat(), q.users(), q.prompts()]).toEqual([true, true, true, false, false]);
  });

  it("an admin's change reloads the panel only", async () => {
    const q = loaded();
    await invalidateAdmin(q.client);
    expect([q.plan(), q.dashboard(), q.chat(), q.users(), q.prompts(), q.queue()]).toEqual([false, false, false, true, true, true]);
  });

  it("taking, giving back or answering a conversation reloads the queue and the users, not the prompts", async () => {
    const q = loaded();
    await invalidateHandoffs(q.client);
    expect([q.plan(), q.dashboard(), q.chat(), q.users(), q.prompts(), q.queue()]).toEqual([false, false, false, true, false, true]);
  });
});
