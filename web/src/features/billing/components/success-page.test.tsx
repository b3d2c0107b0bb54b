import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { BillingInterval, BillingService, PlanType } from "@/gen/socio/v1/billing_pb";
import { renderApp } from "@/testing/render-app";

const SESSION = "6d82d962-88b6-46ef-bc43-56bd9d35bec3";

/** A checkout that reads `states` in turn, one per call (the last one stays). */
function api(states: string[], receiptUrl = "") {
  let calls = 0;
  return (router: ConnectRouter) =>
    router.service(BillingService, {
      getCheckoutResult: (request) => {
        if (request.sessionId !== SESSION) throw new ConnectError("not found", Code.NotFound);
        const state = states[Math.min(calls++, states.length - 1)];
        return {
          sessionId: SESSION,
          planType: PlanType.PRO,
          interval: BillingInterval.MONTHLY,
          amount: 100,
          currency: "BRL",
          state,
          paidAt: state === "paid" ? timestampFromMs(Date.UTC(2026, 10, 26, 15, 30)) : undefined,
          receiptUrl: state === "paid" ? receiptUrl : "",
          whatsappUrl: "https://wa.me/5511999999999",
          provider: "stripe",
        };
      },
    });
}

describe("the page after paying", () => {
  it("welcomes to Pro with what was paid and Stripe's receipt, without a login", async () => {
    renderApp(`/success?session=${SESSION}&phoneNumber=%2B5511987654321`, { api: api(["paid"], "https://invoice.stripe.com/i/acct/in_1") });
    expect(await screen.findByRole("heading", { name: "Bem-vindo ao Sócio Pro! 🎉" })).toBeInTheDocument();
    expect(screen.getByText("Pagamento confirmado")).toBeInTheDocument();
    expect(screen.getByText("Sócio Pro mensal")).toBeInTheDocument();
    expect(screen.getByText("R$ 100,00")).toBeInTheDocument();
    expect(screen.getByText(/^26\/11\/2026, \d\d:30$/)).toBeInTheDocument(); // in the reader's time zone
    expect(screen.getByRole("link", { name: "Ver recibo" })).toHaveAttribute("href", "https://invoice.stripe.com/i/acct/in_1");
    expect(screen.getByRole("link", { name: "Começar conversa no WhatsApp" }).getAttribute("href")).toMatch(/^https:\/\/wa\.me\/5511999999999\?text=/);
    expect(screen.getByRole("link", { name: "Entrar no painel" })).toHaveAttribute("href", "/login?phoneNumber=%2B5511987654321");
  });

  it("offers a printable confirmation when the provider gave no receipt", async () => {
    renderApp(`/success?session=${SESSION}`, { api: api(["paid"]) });
    expect(await screen.findByRole("button", { name: "Imprimir comprovante" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Ver recibo" })).not.toBeInTheDocument();
  });

  it("waits for the provider's confirmation and then shows it, saying a boleto takes days", async () => {
    renderApp(`/success?session=${SESSION}`, { api: api(["open", "paid"]) });
    expect(await screen.findByRole("heading", { name: "Confirmando seu pagamento…" })).toBeInTheDocument();
    expect(screen.getByText(/boleto\? O banco confirma em até 3 dias úteis/)).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Bem-vindo ao Sócio Pro! 🎉" }, { timeout: 4000 })).toBeInTheDocument();
  });

  it("says nothing was charged when the checkout was abandoned, and offers to try again", async () => {
    renderApp(`/success?session=${SESSION}&phoneNumber=%2B5511987654321`, { api: api(["canceled"]) });
    expect(await screen.findByRole("heading", { name: "O pagamento não foi concluído" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Tentar de novo" })).toHaveAttribute("href", "/checkout/5511987654321");
  });

  it("reads in English too", async () => {
    renderApp(`/success?session=${SESSION}`, { api: api(["paid"]), language: "en" });
    expect(await screen.findByRole("heading", { name: "Welcome to Sócio Pro! 🎉" })).toBeInTheDocument();
    expect(screen.getByText("R$100.00")).toBeInTheDocument();
    expect(screen.getByText("Sócio Pro monthly")).toBeInTheDocument();
  });
});
