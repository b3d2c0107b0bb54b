import { Code, ConnectError } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { BillingService, PlanType } from "@/gen/socio/v1/billing_pb";
import { LandingEventKind, LandingService, type TrackEventRequest } from "@/gen/socio/v1/landing_pb";
import { renderApp } from "@/testing/render-app";

import { heroVariant } from "@/lib/landing-analytics";

const plansApi = (seenLanguages: string[] = []) => ({
  api: ({ service }: import("@connectrpc/connect").ConnectRouter) =>
    service(BillingService, {
      listPlans: (request) => {
        seenLanguages.push(request.language);
        return {
          plans: [
            { id: PlanType.FREE, name: "Gratuito", price: 0, period: "para sempre", features: ["Suporte por e-mail"], limitations: ["Sem consultor de IA no WhatsApp"], buttonText: "Começar grátis" },
            { id: PlanType.PRO, name: "Pro", price: 100, period: "/mês", features: ["Consultor de IA no WhatsApp 24/7"], buttonText: "Assinar o Pro", popular: true, yearlyPrice: 899, yearlySavings: 301 },
          ],
        };
      },
    }),
});

describe("landing page", () => {
  it("shows the plans from the API with prices in reais", async () => {
    const languages: string[] = [];
    renderApp("/", plansApi(languages));
    const pro = await screen.findByRole("article", { name: "Pro" });
    expect(within(pro).getByText("Mais popular")).toBeInTheDocument();
    expect(within(pro).getByText(/R\$\s100/)).toBeInTheDocument();
    expect(within(pro).getByText(/R\$\s899.*R\$\s301/)).toBeInTheDocument();
    const free = screen.getByRole("article", { name: "Gratuito" });
    expect(within(free).getByText("Sem consultor de IA no WhatsApp")).toHaveClass("line-through");
    expect(languages).toEqual(["pt-BR"]);
  });

  it("says so when the plans cannot be loaded", async () => {
    renderApp("/", {
      api: ({ service }) =>
        service(BillingService, {
          listPlans: () => {
            throw new ConnectError("down", Code.Unavailable);
          },
        }),
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("Não foi possível carregar os planos agora.");
  });

  it("picks the hero by ?variant=, treating anything but B as A", async () => {
    expect(heroVariant("B")).toBe("B");
    expect(heroVariant("b")).toBe("A");
    expect(heroVariant(null)).toBe("A");
    renderApp("/?variant=B", plansApi());
    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("Consultoria de negócios por uma fração do preço");
  });

  it("reports the view with its variant and a visitor id kept by the browser, for the admin's funnel", async () => {
    const events: TrackEventRequest[] = [];
    renderApp("/?variant=B", {
      api: (router) => {
        plansApi().api(router);
        router.service(LandingService, {
          trackEvent: (request) => {
            events.push(request);
            return {};
          },
        });
      },
    });
    await waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({ kind: LandingEventKind.LANDING_VIEW, variant: "B" });
    expect(events[0]?.visitorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(localStorage.getItem("socioVisitorId")).toBe(events[0]?.visitorId);
    expect(localStorage.getItem("socioLandingVariant")).toBe("B");
  });
});
