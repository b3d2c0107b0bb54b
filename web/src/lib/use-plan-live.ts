// Keeps a page live while the plan changes elsewhere (the consultant on WhatsApp, another tab):
// the WatchBusinessPlan stream over gRPC-Web; every change refreshes the plan and dashboard queries. Reconnects with
// backoff after the stream breaks: 2 s, 4 s, … up to 30 s, back to the start only once the server has
// answered (its response headers), so a server that refuses at once is not asked every 2 s; and
// "connected" is said only then.

import { createClient } from "@connectrpc/connect";
import { useTransport } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { BusinessPlanService } from "@/gen/socio/v1/business_plan_pb";
import { invalidatePlan } from "@/lib/query-keys";

/** How long to wait before the `attempt`-th try to reconnect (1-based): 2 s, 4 s, … up to 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** attempt);
}

/** True while the live stream is connected. */
export function usePlanLiveUpdates(enabled = true): boolean {
  const transport = useTransport();
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    const client = createClient(BusinessPlanService, transport);
    const abort = new AbortController();
    let attempt = 0;
    let cursor = "";
    async function run() {
      while (!abort.signal.aborted) {
        try {
          const answered = () => {
            setConnected(true);
            attempt = 0;
          };
          const stream = client.watchBusinessPlan({ since: cursor }, { signal: abort.signal, timeoutMs: 0, onHeader: answered });
          for await (const event of stream) {
            if (event.change?.cursor) cursor = event.change.cursor;
            void invalidatePlan(queryClient);
          }
        } catch {
          // broken, closed or aborted: try again below unless we are leaving
        }
        setConnected(false);
        if (abort.signal.aborted) return;
        attempt += 1;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
      }
    }
    void run();
    return () => abort.abort();
  }, [enabled, transport, queryClient]);

  return connected;
}
