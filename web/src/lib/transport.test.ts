import { createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";

import { BillingService } from "@/gen/socio/v1/billing_pb";

import { ACCESS_TOKEN_KEY } from "./session";
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
