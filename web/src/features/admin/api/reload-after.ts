import { useQueryClient } from "@tanstack/react-query";

/** Mutation options that reload everything the panel shows once the change is made. */
export function useReloadAfter() {
  const queryClient = useQueryClient();
  return { onSuccess: () => queryClient.invalidateQueries() };
}
