import type { ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
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
          { id: PlanType.FREE, name: "Gratuito", price: 0, period: "para sempre", features: ["Suporte por e-mail"], limitations: ["Sem consultor de IA no WhatsApp"], buttonText: "Começar grátis", whatsappUrl: "https://wa.me/5511900000000?text=Ol%C3%A1" },
          { id: PlanType.PRO, name: "Pro", price: 100, period: "/mês", features: ["Consultor"], buttonText: "Assinar o Pro", popular: true, yearlyPrice: 899, yearlySavings: 301,
            whatsappUrl: "https://wa.me/5511900000000?text=mensal", yearlyWhatsappUrl: "https://wa.me/5511900000000?text=anual" },
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

  it("sends a visitor with no account to WhatsApp with the yearly Pro they chose on the landing page", async () => {
    const calls: Call[] = [];
    const { router } = renderApp("/checkout?interval=yearly", { api: api(calls) });
    const pro = await screen.findByRole("link", { name: "Assinar o Pro pelo WhatsApp" });
    expect(pro).toHaveAttribute("href", "https://wa.me/5511900000000?text=anual");
    expect(screen.getByText(/mensagem pronta pedindo o Pro anual/)).toBeInTheDocument();
    const note = screen.getByRole("region", { name: "Ainda não tem conta? Tudo começa no WhatsApp" });
    expect(within(note).getByRole("link", { name: "Entrar" })).toHaveAttribute("href", "/login");
    expect(router.state.location.pathname).toBe("/checkout");
    expect(calls).toEqual([]);
  });

  it("follows the visitor's change of interval and plan in the ready message", async () => {
    renderApp("/checkout?interval=yearly", { api: api([]) });
    await userEvent.click(await screen.findByRole("button", { name: "Mensal" }));
    expect(screen.getByRole("link", { name: "Assinar o Pro pelo WhatsApp" })).toHaveAttribute("href", "https://wa.me/5511900000000?text=mensal");
    expect(screen.getByText(/pedindo o Pro mensal/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("article", { name: /Gratuito/ }));
    expect(screen.getByText(/pedindo o plano Gratuito/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Começar grátis pelo WhatsApp" })).toHaveAttribute("href", "https://wa.me/5511900000000?text=Ol%C3%A1");
  });

  it("opens with the plan and interval the consultant's link names", async () => {
    renderApp("/checkout/5511987654321?plan=pro&interval=yearly", { api: api([]) });
    expect(await screen.findByRole("article", { name: /Pro/ })).toHaveAttribute("aria-current", "true");
    expect(screen.getByRole("button", { name: /Anual/ })).toHaveAttribute("aria-pressed", "true");
  });
});
