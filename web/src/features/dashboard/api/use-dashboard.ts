import { useQuery } from "@connectrpc/connect-query";

import { DashboardService } from "@/gen/socio/v1/dashboard_pb";

/** Everything the dashboard shows (`GET /api/dashboard`). */
export function useDashboard() {
  return useQuery(DashboardService.method.getDashboard, {});
}
