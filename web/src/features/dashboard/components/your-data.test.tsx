import type { ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";

import { AccountService } from "@/gen/socio/v1/account_pb";
import { AuthService } from "@/gen/socio/v1/auth_pb";
import { Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { ResultsService } from "@/gen/socio/v1/results_pb";
import { getAccessToken, storeTokens } from "@/lib/session";
import { renderApp } from "@/testing/render-app";

const user = { id: "u1", name: "Ana Lima", phoneNumber: "+5511987654321", language: "pt-BR", role: Role.USER, subscriptionStatus: SubscriptionStatus.FREE };

function api(seen: { exports: number; deletes: boolean[] }, subscriptionEnded = false) {
  return (router: ConnectRouter) => {
    router.service(AuthService, { getMe: () => ({ user }) });
    router.service(DashboardService, {
      getDashboard: () => ({ user, businessPlan: { steps: [] }, stats: {}, whatsappUrl: "https://wa.me/5511900000000" }),
    });
    router.service(ResultsService, {
      getReminders: () => ({ reminders: { monthlyCheckin: false, taxReminders: false, stopped: false } }),
      listResults: () => ({ results: [] }),
    });
    router.service(AccountService, {
      exportMyData: () => {
        seen.exports += 1;
        return { downloadUrl: "http://localhost:8080/api/admin/exports/u1?expires=1&signature=ab" };
      },
      deleteMyAccount: (request) => {
        seen.deletes.push(request.confirm);
        return { subscriptionEnded };
      },
    });
  };
}

describe("your data on the dashboard", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("downloads a complete copy through a signed link", async () => {
    storeTokens("t", "r");
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const seen = { exports: 0, deletes: [] };
    renderApp("/dashboard", { api: api(seen) });
    const card = await screen.findByRole("region", { name: "Seus dados" });
    expect(within(card).getByRole("link", { name: "Seus direitos pela LGPD" })).toHaveAttribute("href", "/lgpd");
    await userEvent.click(within(card).getByRole("button", { name: "Baixar meus dados" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("http://localhost:8080/api/admin/exports/u1?expires=1&signature=ab"));
    expect(seen.exports).toBe(1);
  });

  it("deletes the account only after the person confirms, then signs out", async () => {
    storeTokens("t", "r");
    const seen = { exports: 0, deletes: [] as boolean[] };
    renderApp("/dashboard", { api: api(seen) });
    const card = await screen.findByRole("region", { name: "Seus dados" });
    await userEvent.click(within(card).getByRole("button", { name: "Excluir minha conta" }));
    const dialog = screen.getByRole("alertdialog", { name: "Excluir a sua conta?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    expect(seen.deletes).toEqual([]);

    await userEvent.click(within(card).getByRole("button", { name: "Excluir minha conta" }));
    await userEvent.click(within(screen.getByRole("alertdialog", { name: "Excluir a sua conta?" })).getByRole("button", { name: "Sim, excluir tudo" }));
    await waitFor(() => expect(seen.deletes).toEqual([true]));
    await waitFor(() => expect(getAccessToken()).toBeNull());
  });

  it("says the account is gone, and that a running Pro subscription ended with it", async () => {
    storeTokens("t", "r");
    const seen = { exports: 0, deletes: [] as boolean[] };
    renderApp("/dashboard", { api: api(seen, true) });
    const card = await screen.findByRole("region", { name: "Seus dados" });
    await userEvent.click(within(card).getByRole("button", { name: "Excluir minha conta" }));
    const dialog = screen.getByRole("alertdialog", { name: "Excluir a sua conta?" });
    expect(within(dialog).getByText(/Cancele a assinatura antes, pela garantia/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Sim, excluir tudo" }));
    expect(await screen.findByText("Sua conta e seus dados foram excluídos. Sua assinatura Pro foi cancelada junto: nada mais será cobrado.")).toBeInTheDocument();
  });
});
