// A human consultant steps in: the queue of people waiting for a person, taking a conversation
// over, answering as a person and giving it back, and the live view of one conversation (the
// WatchConversation stream over gRPC-Web, reconnecting with backoff).

import { createClient } from "@connectrpc/connect";
import { useMutation, useQuery, useTransport } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { AuthService } from "@/gen/socio/v1/auth_pb";
import { HandoffService, type WatchConversationResponse } from "@/gen/socio/v1/handoff_pb";
import { invalidateHandoffs } from "@/lib/query-keys";

/** The admin at the keyboard (whose taken conversations are theirs to answer). */
export function useCurrentAdmin() {
  return useQuery(AuthService.method.getMe, {}, { staleTime: 60_000 });
}

/** The queue, refreshed every 5 s (and at once after this admin's own changes). */
export function useHandoffs() {
  return useQuery(HandoffService.method.listHandoffs, {}, { refetchInterval: 5_000 });
}

function useReloadQueue() {
  const queryClient = useQueryClient();
  return { onSuccess: () => invalidateHandoffs(queryClient) };
}

export function useTakeOver() {
  return useMutation(HandoffService.method.takeOverConversation, useReloadQueue());
}

export function useGiveBack() {
  return useMutation(HandoffService.method.giveBackConversation, useReloadQueue());
}

export function useSendAsConsultant() {
  return useMutation(HandoffService.method.sendConsultantMessage, useReloadQueue());
}

/** The person's conversation and handoff as they are now, kept live; null until the first view. */
export function useLiveConversation(id: string): { view: WatchConversationResponse | null; connected: boolean } {
  const transport = useTransport();
  const [view, setView] = useState<{ id: string; view: WatchConversationResponse } | null>(null);
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    const client = createClient(HandoffService, transport);
    const abort = new AbortController();
    let attempt = 0;
    async function run() {
      while (!abort.signal.aborted) {
        try {
          const stream = client.watchConversation({ id }, { signal: abort.signal, timeoutMs: 0 });
          for await (const next of stream) {
            attempt = 0;
            setConnected(true);
            setView({ id, view: next });
          }
        } catch {
          // broken, closed or aborted: try again below unless we are leaving
        }
        setConnected(false);
        if (abort.signal.aborted) return;
        attempt += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** attempt)));
      }
    }
    void run();
    return () => abort.abort();
  }, [id, transport]);

  return { view: view?.id === id ? view.view : null, connected };
}
