import { useQueryClient } from "@tanstack/react-query";

import { invalidateAdmin } from "@/lib/query-keys";

/** Mutation options that reload what the panel shows (users, figures, prompts) once the change is made. */
export function useReloadAfter() {
  const queryClient = useQueryClient();
  return { onSuccess: () => invalidateAdmin(queryClient) };
}
