import { createConnectQueryKey, useMutation, useQuery } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";

import { ResultsService } from "@/gen/socio/v1/results_pb";

export { useResults } from "@/lib/use-results";

/** Records a month (`PUT /api/results/{month}`), then reads the list again. */
export function useRecordMonthResults() {
  const client = useQueryClient();
  return useMutation(ResultsService.method.recordMonthResults, {
    onSuccess: () =>
      client.invalidateQueries({ queryKey: createConnectQueryKey({ schema: ResultsService.method.listResults, cardinality: undefined }) }),
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
