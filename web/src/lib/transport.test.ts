import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, it, vi } from "vitest";

import { AuthService } from "@/gen/socio/v1/auth_pb";
import { BillingService } from "@/gen/socio/v1/billing_pb";
import { BusinessPlanService } from "@/gen/socio/v1/business_plan_pb";

import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, getAccessToken } from "./session";
import { REFRESH_LOCK, apiInterceptors, refreshWith } from "./transport";

function recordingTransport(language: string) {
  const seen: { authorization: string | null; language: string | null; timeout: number | undefined }[] = [];
  const transport = createRouterTransport(
    ({ service }) => {
      service(BillingService, {
        listPlans: (_request, context) => {
          seen.push({
            authorization: context.requestHeader.get("authorization"),
            language: context.requestHeader.get("accept-language"),
            timeout: context.timeoutMs(),
          });
          return { plans: [] };
        },
      });
    },
    {
      transport: {
        interceptors: apiInterceptors({ getLanguage: () => language, onSessionExpired: () => {} }, async () => null),
        defaultTimeoutMs: 30_000,
      },
    },
  );
  return { client: createClient(BillingService, transport), seen };
}

describe("API transport", () => {
  it("sends Accept-Language with the current language and no token when logged out", async () => {
    const { client, seen } = recordingTransport("en");
    await client.listPlans({});
    expect(seen[0]).toMatchObject({ authorization: null, language: "en" });
  });

  it("sends the stored access token as a bearer token", async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, "abc.def.ghi");
    const { client, seen } = recordingTransport("pt-BR");
    await client.listPlans({});
    expect(seen[0]?.authorization).toBe("Bearer abc.def.ghi");
  });

  it("gives every call a 30 second deadline", async () => {
    const { client, seen } = recordingTransport("pt-BR");
    await client.listPlans({});
    expect(seen[0]?.timeout).toBeGreaterThan(29_000);
    expect(seen[0]?.timeout).toBeLessThanOrEqual(30_000);
  });
});

function endedStream(refreshed: string | null) {
  let expired = 0;
  const transport = createRouterTransport(
    ({ service }) => {
      service(BusinessPlanService, {
        // eslint-disable-next-line require-yield
        async *watchBusinessPlan() {
          throw new ConnectError("Faça login para continuar.", Code.Unauthenticated);
        },
      });
    },
    {
      transport: {
        interceptors: apiInterceptors({ getLanguage: () => "pt-BR", onSessionExpired: () => (expired += 1) }, async () => {
          if (refreshed) window.localStorage.setItem(ACCESS_TOKEN_KEY, refreshed);
          return refreshed;
        }),
      },
    },
  );
  const watch = async () => {
    for await (const change of createClient(BusinessPlanService, transport).watchBusinessPlan({ since: "" })) {
      expect(change).toBeUndefined(); // no changes arrive
    }
  };
  return { watch, expired: () => expired };
}

describe("a live stream the server ended", () => {
  it("after a logout elsewhere leaves the logging out to the app, not the stream", async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, "old.access.token");
    window.localStorage.setItem(REFRESH_TOKEN_KEY, "revoked-refresh-token");
    const { watch, expired } = endedStream(null);
    await expect(watch()).rejects.toThrow(ConnectError);
    expect(expired()).toBe(0);
  });

  it("when its token ran out renews the session, so the stream can reconnect", async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, "old.access.token");
    window.localStorage.setItem(REFRESH_TOKEN_KEY, "refresh-token");
    const { watch, expired } = endedStream("new.access.token");
    await expect(watch()).rejects.toThrow(ConnectError);
    expect(expired()).toBe(0);
    expect(getAccessToken()).toBe("new.access.token");
  });
});

/** Web Locks as a browser grants them: one holder of a name at a time, the others in turn. */
function webLocks() {
  const tails = new Map<string, Promise<unknown>>();
  const requested: string[] = [];
  const locks = {
    request(name: string, callback: (lock: Lock | null) => Promise<unknown>): Promise<unknown> {
      requested.push(name);
      const granted = (tails.get(name) ?? Promise.resolve()).then(() => callback({ name, mode: "exclusive" }));
      tails.set(
        name,
        granted.catch(() => undefined),
      );
      return granted;
    },
  };
  return { locks: locks as unknown as LockManager, requested };
}

/** Another tab taking the lock and keeping it until released; resolves once it holds it. */
async function holdLock(locks: LockManager) {
  let release: () => void = () => {};
  let held: () => void = () => {};
  const holding = new Promise<void>((resolve) => (held = resolve));
  const done = locks.request(REFRESH_LOCK, () => {
    held();
    return new Promise<void>((resolve) => (release = resolve));
  });
  await holding;
  return { release, done };
}

/**
 * The server's Refresh: each refresh token works once and is then rotated (a used one is refused,
 * as a replayed one would be). It answers after a pause, so two tabs can overlap.
 */
function rotatingServer(valid: string) {
  const presented: string[] = [];
  let current = valid;
  let turn = 1;
  const transport = createRouterTransport(({ service }) => {
    service(AuthService, {
      refresh: async (request) => {
        presented.push(request.refreshToken);
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (request.refreshToken !== current) throw new ConnectError("Sessão expirada.", Code.Unauthenticated);
        turn += 1;
        current = `refresh-${turn}`;
        return { token: `access-${turn}`, refreshToken: current };
      },
    });
  });
  return { transport, presented };
}

describe("renewing the session shared by the tabs", () => {
  it("two tabs renewing at once through the lock ask the server once and both get the new access token", async () => {
    const { locks, requested } = webLocks();
    vi.stubGlobal("navigator", { locks });
    window.localStorage.setItem(ACCESS_TOKEN_KEY, "access-1");
    window.localStorage.setItem(REFRESH_TOKEN_KEY, "refresh-1");
    const server = rotatingServer("refresh-1");
    // Each tab has its own client; they share the storage and the browser's locks.
    const [first, second] = await Promise.all([refreshWith(server.transport)(), refreshWith(server.transport)()]);
    expect(server.presented).toEqual(["refresh-1"]);
    expect(first).toBe("access-2");
    expect(second).toBe("access-2");
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBe("refresh-2");
    expect(requested).toEqual([REFRESH_LOCK, REFRESH_LOCK]);
  });

  it("a tab whose refresh token another tab rotated while it waited uses the stored access token without asking", async () => {
    const { locks } = webLocks();
    vi.stubGlobal("navigator", { locks });
    window.localStorage.setItem(ACCESS_TOKEN_KEY, "access-1");
    window.localStorage.setItem(REFRESH_TOKEN_KEY, "refresh-1");
    const server = rotatingServer("refresh-1");
    // Another tab holds the lock and renews meanwhile.
    const { release, done: otherTab } = await holdLock(locks);
    const renewal = refreshWith(server.transport)();
    window.localStorage.setItem(ACCESS_TOKEN_KEY, "access-from-the-other-tab");
    window.localStorage.setItem(REFRESH_TOKEN_KEY, "refresh-from-the-other-tab");
    release();
    await otherTab;
    expect(await renewal).toBe("access-from-the-other-tab");
    expect(server.presented).toEqual([]);
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBe("refresh-from-the-other-tab");
  });

  it("a tab that waited while another tab ended the session renews nothing", async () => {
    const { locks } = webLocks();
    vi.stubGlobal("navigator", { locks });
    window.localStorage.setItem(ACCESS_TOKEN_KEY, "access-1");
    window.localStorage.setItem(REFRESH_TOKEN_KEY, "refresh-1");
    const server = rotatingServer("refresh-1");
    const { release, done: otherTab } = await holdLock(locks);
    const renewal = refreshWith(server.transport)();
    window.localStorage.clear();
    release();
    await otherTab;
    expect(await renewal).toBeNull();
    expect(server.presented).toEqual([]);
  });

  it("a tab whose refresh token is still the stored one renews it under the lock", async () => {
    const { locks, requested } = webLocks();
    vi.stubGlobal("navigator", { locks });
    window.localStorage.setItem(ACCESS_TOKEN_KEY, "access-1");
    window.localStorage.setItem(REFRESH_TOKEN_KEY, "refresh-1");
    const server = rotatingServer("refresh-1");
    expect(await refreshWith(server.transport)()).toBe("access-2");
    expect(server.presented).toEqual(["refresh-1"]);
    expect(requested).toEqual([REFRESH_LOCK]);
    expect(getAccessToken()).toBe("access-2");
  });

  it("without Web Locks a tab renews at once, as before", async () => {
    vi.stubGlobal("navigator", {});
    window.localStorage.setItem(ACCESS_TOKEN_KEY, "access-1");
    window.localStorage.setItem(REFRESH_TOKEN_KEY, "refresh-1");
    const server = rotatingServer("refresh-1");
    expect(await refreshWith(server.transport)()).toBe("access-2");
    expect(server.presented).toEqual(["refresh-1"]);
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBe("refresh-2");
  });
});
