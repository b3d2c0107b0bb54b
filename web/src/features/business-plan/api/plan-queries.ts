// The builder's calls: read the plan, save a step as the user types (`POST
// /api/webhook/business-plan/update` with source "builder"), generate and delete.
import { useMutation, useQuery } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";

import type { MessageInitShape } from "@bufbuild/protobuf";

import { BusinessPlanService, type PriceRequestSchema } from "@/gen/socio/v1/business_plan_pb";
import { invalidatePlan } from "@/lib/query-keys";

export function useBusinessPlan() {
  return useQuery(BusinessPlanService.method.getBusinessPlan, {});
}

export function useSaveStep() {
  const queryClient = useQueryClient();
  return useMutation(BusinessPlanService.method.syncUpdate, {
    onSuccess: () => invalidatePlan(queryClient),
  });
}

export function useGeneratePlan() {
  const queryClient = useQueryClient();
  return useMutation(BusinessPlanService.method.generateBusinessPlan, {
    onSuccess: () => invalidatePlan(queryClient),
  });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation(BusinessPlanService.method.deleteBusinessPlan, {
    onSuccess: () => invalidatePlan(queryClient),
  });
}

/** A price for the typed costs and margin (`POST /api/business-plan/price`), asked once they read as numbers. */
export function usePrice(request: MessageInitShape<typeof PriceRequestSchema> | null) {
  return useQuery(BusinessPlanService.method.price, request ?? undefined, { enabled: request !== null, retry: false });
}
