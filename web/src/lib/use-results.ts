import { useQuery } from "@connectrpc/connect-query";

import { ResultsService } from "@/gen/socio/v1/results_pb";

/**
 * The person's recorded months with the plan beside them, and a MEI's ceiling projection
 * (`GET /api/results`): the dashboard's card and the builder's finance section read it.
 */
export function useResults() {
  return useQuery(ResultsService.method.listResults, {});
}
