// The builder's calls: read the plan, save a step as the user types (`POST
// /api/webhook/business-plan/update` with source "builder"), generate and delete.
import { useMutation, useQuery } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";

import { BusinessPlanService } from "@/gen/socio/v1/business_plan_pb";
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
