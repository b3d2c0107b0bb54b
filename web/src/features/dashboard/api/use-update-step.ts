import { useMutation } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";

import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { invalidatePlan } from "@/lib/query-keys";

/** Marks a step complete or not (`PUT /api/dashboard/business-plan`), then reloads. */
export function useUpdateStep() {
  const queryClient = useQueryClient();
  return useMutation(DashboardService.method.updateDashboardStep, {
    onSuccess: () => invalidatePlan(queryClient),
  });
}
