import type { ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";

import { BillingInterval, BillingService, PlanType } from "@/gen/socio/v1/billing_pb";
import { stubRest } from "@/testing/fake-rest";
import { renderApp } from "@/testing/render-app";

import { navigation } from "./checkout-page";

interface Call {
  planType: PlanType;
  phoneNumber: string;
  interval: BillingInterval;
  landingVariant?: string;
  link?: string;
}

function api(calls: Call[]) {
  return (router: ConnectRouter) =>
    router.service(BillingService, {
      listPlans: () => ({
        plans: [
          { id: PlanType.FREE, name: "Gratuito", price: 0, period: "para sempre", features: ["Suporte por e-mail"], limitations: ["Sem consultor de IA no WhatsApp"], buttonText: "Começar grátis" },
          { id: PlanType.PRO, name: "Pro", price: 100, period: "/mês", features: ["Consultor"], buttonText: "Assinar o Pro", popular: true, yearlyPrice: 899, yearlySavings: 301 },
        ],
      }),
      createCheckout: (request) => {
        calls.push({
          planType: request.planType,
          phoneNumber: request.phoneNumber,
          interval: request.interval,
          ...(request.landingVariant ? { landingVariant: request.landingVariant } : {}),
          ...(request.link ? { link: request.link } : {}),
        });
        return request.planType === PlanType.PRO
          ? { checkoutUrl: "http://localhost:8080/checkout/sandbox/s1" }
          : { redirectUrl: "http://localhost:8080/success?phoneNumber=%2B5511987654321" };
      },
    });
}

afterEach(() => vi.restoreAllMocks());

describe("checkout", () => {
  it("takes the link the consultant sent someone without a visible number, with no login", async () => {
    const go = vi.spyOn(navigation, "go").mockImplementation(() => {});
    const calls: Call[] = [];
    renderApp("/checkout?link=opaque-token", { api: api(calls) });
    await userEvent.click(await screen.findByRole("button", { name: "Assinar o Pro" }));
    await waitFor(() => expect(go).toHaveBeenCalledWith("http://localhost:8080/checkout/sandbox/s1"));
    expect(calls).toEqual([{ planType: PlanType.PRO, phoneNumber: "", interval: BillingInterval.MONTHLY, link: "opaque-token" }]);
  });

  it("preselects Pro, shows the number and the free plan's struck-through limitations", async () => {
    renderApp("/checkout/5511987654321", { api: api([]) });
    expect(await screen.findByText("Para o WhatsApp (11) 98765-4321")).toBeInTheDocument();
    expect(await screen.findByRole("article", { name: /Pro/ })).toHaveAttribute("aria-current", "true");
    expect(screen.getByText("Sem consultor de IA no WhatsApp")).toHaveClass("line-through");
  });

  it("starts a yearly Pro checkout and goes to the provider's page", async () => {
    const go = vi.spyOn(navigation, "go").mockImplementation(() => {});
    const calls: Call[] = [];
    renderApp("/checkout/5511987654321", { api: api(calls) });
    await userEvent.click(await screen.findByRole("button", { name: /Anual/ }));
    expect(screen.getByText("/ano").closest("p")).toHaveTextContent(/R\$\s899\s\/ano/);
    await userEvent.click(screen.getByRole("button", { name: "Assinar o Pro" }));
    await waitFor(() => expect(go).toHaveBeenCalledWith("http://localhost:8080/checkout/sandbox/s1"));
    expect(calls).toEqual([{ planType: PlanType.PRO, phoneNumber: "+5511987654321", interval: BillingInterval.YEARLY }]);
  });

  it("reports a checkout start and attributes the checkout to the landing variant the visitor saw", async () => {
    vi.spyOn(navigation, "go").mockImplementation(() => {});
    localStorage.setItem("socioLandingVariant", "B");
    const calls: Call[] = [];
    const requests = stubRest({ "POST /api/analytics/events": () => ({ data: {} }) });
    renderApp("/checkout/5511987654321", { api: api(calls) });
    await waitFor(() => expect(requests.map((r) => r.body)).toMatchObject([{ kind: "checkout_start", variant: "B" }]));
    await userEvent.click(await screen.findByRole("button", { name: "Assinar o Pro" }));
    await waitFor(() => expect(calls).toMatchObject([{ planType: PlanType.PRO, landingVariant: "B" }]));
  });

  it("sends the free plan straight to the success address", async () => {
    const go = vi.spyOn(navigation, "go").mockImplementation(() => {});
    renderApp("/checkout/5511987654321", { api: api([]) });
    await userEvent.click(await screen.findByRole("button", { name: "Começar grátis" }));
    await waitFor(() => expect(go).toHaveBeenCalledWith("http://localhost:8080/success?phoneNumber=%2B5511987654321"));
  });

  it("asks a visitor without a number to log in", async () => {
    const { router } = renderApp("/checkout", { api: api([]) });
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });
});
