import { useMutation } from "@connectrpc/connect-query";

import { DashboardService } from "@/gen/socio/v1/dashboard_pb";

/** Pro: asks for a consultation call with a person (`POST /api/dashboard/consultation-call`). */
export function useConsultationCall() {
  return useMutation(DashboardService.method.requestConsultationCall);
}
