import { Code, ConnectError, type ConnectRouter, type ServiceImpl } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { AuthService } from "@/gen/socio/v1/auth_pb";
import { BillingInterval, BillingService, PixRefundStatus, SubscriptionState } from "@/gen/socio/v1/billing_pb";
import { Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { ResultsService } from "@/gen/socio/v1/results_pb";
import { storeTokens } from "@/lib/session";
import { renderApp } from "@/testing/render-app";

const user = { id: "u1", name: "Ana Lima", phoneNumber: "+5511987654321", language: "pt-BR", role: Role.USER, subscriptionStatus: SubscriptionStatus.PRO };
const day = { seconds: BigInt(Date.UTC(2026, 11, 27) / 1000), nanos: 0 };

function api(billing: Partial<ServiceImpl<typeof BillingService>>) {
  return (router: ConnectRouter) => {
    router.service(AuthService, { getMe: () => ({ user }) });
    router.service(DashboardService, {
      getDashboard: () => ({ user, businessPlan: { steps: [] }, stats: {}, whatsappUrl: "https://wa.me/5511900000000" }),
    });
    router.service(ResultsService, {
      getReminders: () => ({ reminders: { monthlyCheckin: false, taxReminders: false, stopped: false } }),
      listResults: () => ({ results: [] }),
    });
    router.service(BillingService, billing);
  };
}

describe("the subscription on the dashboard", () => {
  it("cancels within the guarantee only after the person confirms, saying the payment comes back", async () => {
    storeTokens("t", "r");
    let cancels = 0;
    renderApp("/dashboard", {
      api: api({
        getSubscriptionStatus: () => ({
          subscription: { interval: BillingInterval.YEARLY, state: SubscriptionState.ACTIVE, refundable: true, currentPeriodEnd: day },
        }),
        cancelSubscription: () => {
          cancels += 1;
          return { refunded: true };
        },
      }),
    });
    const card = await screen.findByRole("region", { name: "Sua assinatura" });
    expect(within(card).getByText("Sócio Pro anual")).toBeInTheDocument();
    expect(within(card).getByText(/garantia de 7 dias/)).toBeInTheDocument();
    await userEvent.click(within(card).getByRole("button", { name: "Cancelar assinatura" }));
    const dialog = screen.getByRole("alertdialog", { name: "Cancelar a assinatura?" });
    expect(within(dialog).getByText(/devolvemos o pagamento/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Manter o Pro" }));
    expect(cancels).toBe(0);
    await userEvent.click(within(card).getByRole("button", { name: "Cancelar assinatura" }));
    await userEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Sim, cancelar" }));
    expect(await screen.findByText("Assinatura cancelada e pagamento reembolsado (garantia de 7 dias).")).toBeInTheDocument();
    expect(cancels).toBe(1);
  });

  it("asks a boleto buyer for a Pix key, shows a refused key beside the field, and keeps a good one", async () => {
    storeTokens("t", "r");
    const keys: string[] = [];
    renderApp("/dashboard", {
      api: api({
        getSubscriptionStatus: () => ({
          pixRefund: { id: "r1", status: PixRefundStatus.AWAITING_KEY, amount: 899, businessDays: 5, paidWith: "boleto" },
        }),
        setRefundPixKey: (request) => {
          keys.push(request.pixKey);
          if (request.pixKey === "123") throw new ConnectError("pixKey: uma chave Pix: CPF, CNPJ, e-mail, celular com DDD ou chave aleatória", Code.InvalidArgument);
          return { refund: { id: "r1", status: PixRefundStatus.TO_PAY, amount: 899, businessDays: 5, pixKey: "52998224725", pixKeyLabel: "CPF 529.982.247-25" } };
        },
      }),
    });
    const card = await screen.findByRole("region", { name: "Sua assinatura" });
    expect(within(card).getByText(/devolvemos os R\$\s899,00 por Pix/)).toBeInTheDocument();
    const field = within(card).getByLabelText("Sua chave Pix");
    await userEvent.type(field, "123");
    await userEvent.click(within(card).getByRole("button", { name: "Enviar chave" }));
    expect(await within(card).findByText(/uma chave Pix: CPF/)).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, "529.982.247-25");
    await userEvent.click(within(card).getByRole("button", { name: "Enviar chave" }));
    expect(await screen.findByText("Chave Pix recebida: reembolso em até 5 dias úteis.")).toBeInTheDocument();
    await waitFor(() => expect(keys).toEqual(["123", "529.982.247-25"]));
  });
});
