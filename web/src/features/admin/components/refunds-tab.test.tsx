import type { ConnectRouter } from "@connectrpc/connect";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { AdminService } from "@/gen/socio/v1/admin_pb";
import { AuthService } from "@/gen/socio/v1/auth_pb";
import { PixRefundStatus } from "@/gen/socio/v1/billing_pb";
import { Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { storeTokens } from "@/lib/session";
import { renderApp } from "@/testing/render-app";

const day = { seconds: BigInt(Date.UTC(2026, 10, 20) / 1000), nanos: 0 };

describe("the admin's Pix refunds", () => {
  it("shows the key to pay and marks a refund paid only after the admin confirms", async () => {
    const paid: string[] = [];
    const api = (router: ConnectRouter) => {
      router.service(AuthService, {
        getMe: () => ({ user: { id: "admin", name: "Ada", phoneNumber: "+5531999990000", language: "pt-BR", role: Role.ADMIN, subscriptionStatus: SubscriptionStatus.PRO } }),
      });
      router.service(AdminService, {
        listFacts: () => ({ facts: [] }),
        getAdminStats: () => ({ stats: {} }),
        listUsers: () => ({ users: [] }),
        listRefunds: () => ({
          refunds: [
            { id: "r1", status: PixRefundStatus.TO_PAY, amount: 899, pixKey: "52998224725", pixKeyLabel: "CPF 529.982.247-25", userName: "Ana Lima", phoneNumber: "+5511987654321", requestedAt: day },
            { id: "r2", status: PixRefundStatus.AWAITING_KEY, amount: 100, userName: "Bia Souza", phoneNumber: "+5521987654321", requestedAt: day },
          ],
        }),
        markRefundPaid: (request) => {
          paid.push(`${request.id}:${request.pixKey}`);
          return { refund: { id: request.id, status: PixRefundStatus.PAID } };
        },
      });
    };
    storeTokens("t", "r");
    renderApp("/admin", { api });
    await userEvent.click(await screen.findByRole("tab", { name: "Reembolsos" }));
    const ana = (await screen.findByRole("rowheader", { name: /Ana Lima/ })).closest("tr")!;
    expect(within(ana).getByText("52998224725")).toBeInTheDocument();
    expect(within(ana).getByText(/R\$\s899,00/)).toBeInTheDocument();
    const bia = screen.getByRole("rowheader", { name: /Bia Souza/ }).closest("tr")!;
    expect(within(bia).queryByRole("button")).toBeNull();
    await userEvent.click(within(ana).getByRole("button", { name: "Marcar como pago" }));
    const dialog = screen.getByRole("alertdialog", { name: "Confirmar o pagamento?" });
    expect(within(dialog).getByText(/52998224725 \(Ana Lima\)/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Sim, já paguei" }));
    expect(await screen.findByText("Reembolso marcado como pago; a pessoa foi avisada.")).toBeInTheDocument();
    expect(paid).toEqual(["r1:52998224725"]);
  });
});
