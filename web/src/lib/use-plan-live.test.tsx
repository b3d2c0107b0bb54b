import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { TransportProvider } from "@connectrpc/connect-query";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { retryDelayMs, usePlanLiveUpdates } from "./use-plan-live";

/** A transport whose plan stream the server refuses at once, or accepts and keeps open. */
function server(answer: "refuses" | "accepts") {
  const tries: number[] = [];
  const transport = {
    unary: () => Promise.reject(new Error("not used")),
    stream: (method: unknown, signal?: AbortSignal) => {
      tries.push(Date.now());
      if (answer === "refuses") return Promise.reject(new ConnectError("too many streams", Code.ResourceExhausted));
      // Open until the page leaves: no change is ever sent.
      const open = {
        [Symbol.asyncIterator]: () => ({
          next: () => new Promise<IteratorResult<never>>((resolve) => signal?.addEventListener("abort", () => resolve({ done: true, value: undefined }))),
        }),
      };
      return Promise.resolve({ stream: true, method, header: new Headers(), trailer: new Headers(), message: open });
    },
  } as unknown as Transport;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <TransportProvider transport={transport}>
      <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
    </TransportProvider>
  );
  return { tries, wrapper };
}

describe("the plan's live updates", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("back off 2 s, 4 s, 8 s while the server refuses at once, and never say connected", async () => {
    const { tries, wrapper } = server("refuses");
    const { result, unmount } = renderHook(() => usePlanLiveUpdates(), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toBe(false);
    expect(tries).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(retryDelayMs(1)));
    expect(tries).toHaveLength(2);
    // Not again after 2 s: the delay grew, as nothing ever answered.
    await act(() => vi.advanceTimersByTimeAsync(retryDelayMs(1)));
    expect(tries).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(retryDelayMs(2) - retryDelayMs(1)));
    expect(tries).toHaveLength(3);
    expect(result.current).toBe(false);
    unmount();
  });

  it("say connected once the server has answered", async () => {
    const { tries, wrapper } = server("accepts");
    const { result, unmount } = renderHook(() => usePlanLiveUpdates(), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toBe(true);
    expect(tries).toHaveLength(1);
    unmount();
  });
});
