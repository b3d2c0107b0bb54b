import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { AuthService } from "@/gen/socio/v1/auth_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { storeTokens } from "@/lib/session";
import { renderApp } from "@/testing/render-app";

const user = (role: Role) => ({ id: "u1", name: "Ana", phoneNumber: "+5511987654321", language: "pt-BR", role, subscriptionStatus: SubscriptionStatus.PRO });

/** A server that knows one valid access token, and refreshes one refresh token. */
function sessionApi(valid: string, role: Role, refreshable: string | null) {
  const calls = { getMe: [] as (string | null)[], refresh: 0 };
  const api = (router: ConnectRouter) =>
    router.service(AuthService, {
      getMe: (_request, context) => {
        const authorization = context.requestHeader.get("authorization");
        calls.getMe.push(authorization);
        if (authorization !== `Bearer ${valid}`) throw new ConnectError("Faça login para continuar.", Code.Unauthenticated);
        return { user: user(role) };
      },
      refresh: (request) => {
        calls.refresh += 1;
        if (request.refreshToken !== refreshable) throw new ConnectError("Faça login para continuar.", Code.Unauthenticated);
        return { token: valid, refreshToken: "refresh-2" };
      },
    }) && router.service(DashboardService, { getDashboard: () => ({ user: user(role), stats: {}, businessPlan: { steps: [] } }) });
  return { api, calls };
}

describe("guards and the session", () => {
  it("sends a visitor without a token from /dashboard to /login", async () => {
    const { router } = renderApp("/dashboard");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });

  it("refreshes an expired access token once and replays the call", async () => {
    storeTokens("expired", "refresh-1");
    const { api, calls } = sessionApi("fresh", Role.USER, "refresh-1");
    renderApp("/dashboard", { api });
    expect(await screen.findByRole("heading", { name: "Olá, Ana!" })).toBeInTheDocument();
    expect(calls.refresh).toBe(1);
    expect(calls.getMe).toEqual(["Bearer expired", "Bearer fresh"]);
    expect(window.localStorage.getItem("authToken")).toBe("fresh");
    expect(window.localStorage.getItem("refreshToken")).toBe("refresh-2");
  });

  it("clears the tokens and goes to /login when the refresh fails", async () => {
    storeTokens("expired", "revoked");
    const { api, calls } = sessionApi("fresh", Role.USER, "refresh-1");
    const { router } = renderApp("/dashboard", { api });
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(calls.refresh).toBe(1);
    expect(window.localStorage.getItem("authToken")).toBeNull();
    expect(window.localStorage.getItem("refreshToken")).toBeNull();
  });

  it("asks an anonymous visitor of /admin to log in", async () => {
    const { router } = renderApp("/admin");
    expect(await screen.findByText("Faça login para acessar esta área.")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });

  it("turns a regular user away from /admin to the dashboard", async () => {
    storeTokens("valid", "refresh-1");
    const { api } = sessionApi("valid", Role.USER, "refresh-1");
    const { router } = renderApp("/admin", { api });
    expect(await screen.findByText("Acesso negado. Apenas administradores podem acessar esta área.")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("lets an admin into /admin", async () => {
    storeTokens("valid", "refresh-1");
    const { api } = sessionApi("valid", Role.ADMIN, "refresh-1");
    renderApp("/admin", { api });
    expect(await screen.findByRole("heading", { name: "Painel Administrativo" })).toBeInTheDocument();
  });
});
