import { createConnectQueryKey, useMutation, useQuery } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";

import { ResultsService } from "@/gen/socio/v1/results_pb";
import { invalidatePlan } from "@/lib/query-keys";

export { useResults } from "@/lib/use-results";

/** Records a month (`PUT /api/results/{month}`), then reads again the list and the plan: the
 * months recorded are the Simples' revenue of the last 12 months, so the plan's tax changes too. */
export function useRecordMonthResults() {
  const client = useQueryClient();
  return useMutation(ResultsService.method.recordMonthResults, {
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: createConnectQueryKey({ schema: ResultsService.method.listResults, cardinality: undefined }) }),
        invalidatePlan(client),
      ]),
  });
}

/** What the person agreed to receive without writing first (`GET /api/reminders`). */
export function useReminders() {
  return useQuery(ResultsService.method.getReminders, {});
}

/** Saves the reminder switches (`PUT /api/reminders`): turning one on is consent. */
export function useUpdateReminders() {
  const client = useQueryClient();
  return useMutation(ResultsService.method.updateReminders, {
    onSuccess: () =>
      client.invalidateQueries({ queryKey: createConnectQueryKey({ schema: ResultsService.method.getReminders, cardinality: undefined }) }),
  });
}
