import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";

import { BillingService } from "@/gen/socio/v1/billing_pb";
import { BusinessPlanService } from "@/gen/socio/v1/business_plan_pb";

import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, getAccessToken } from "./session";
import { apiInterceptors } from "./transport";

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
