// Which cached queries a change makes stale, by service: a mutation invalidates what it changes,
// not everything the app has loaded.
import { createConnectQueryKey } from "@connectrpc/connect-query";
import type { DescService } from "@bufbuild/protobuf";
import type { QueryClient } from "@tanstack/react-query";

import { AdminService } from "@/gen/socio/v1/admin_pb";
import { AuthService } from "@/gen/socio/v1/auth_pb";
import { BillingService } from "@/gen/socio/v1/billing_pb";
import { BusinessPlanService } from "@/gen/socio/v1/business_plan_pb";
import { ConsultantService } from "@/gen/socio/v1/consultant_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { HandoffService } from "@/gen/socio/v1/handoff_pb";
import { SystemPromptService } from "@/gen/socio/v1/system_prompt_pb";

async function invalidate(queryClient: QueryClient, services: DescService[]): Promise<void> {
  await Promise.all(
    services.map((schema) => queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema, cardinality: undefined }) })),
  );
}

/** The plan changed (builder, dashboard toggle, live event): the plan and the dashboard that shows it. */
export function invalidatePlan(queryClient: QueryClient): Promise<void> {
  return invalidate(queryClient, [BusinessPlanService, DashboardService]);
}

/** A chat exchange: the conversation, the dashboard's messages and figures, and the plan the consultant may have filled. */
export function invalidateConversation(queryClient: QueryClient): Promise<void> {
  return invalidate(queryClient, [ConsultantService, DashboardService, BusinessPlanService]);
}

/** An admin's change: what the panel shows (users, figures, prompts, the handoff queue). */
export function invalidateAdmin(queryClient: QueryClient): Promise<void> {
  return invalidate(queryClient, [AdminService, SystemPromptService, HandoffService]);
}

/** A conversation taken, given back or answered by a person: the queue and the users' figures. */
export function invalidateHandoffs(queryClient: QueryClient): Promise<void> {
  return invalidate(queryClient, [HandoffService, AdminService]);
}

/** A subscription cancelled or a refund's key given: the subscription, the person (their tier) and the dashboard. */
export function invalidateSubscription(queryClient: QueryClient): Promise<void> {
  return invalidate(queryClient, [BillingService, AuthService, DashboardService]);
}
