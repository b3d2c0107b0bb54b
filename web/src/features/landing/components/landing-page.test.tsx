import { Code, ConnectError } from "@connectrpc/connect";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

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
  it("tells the whole story in order, each section at its anchor, with the Pro prices from the API", async () => {
    const languages: string[] = [];
    const { container } = renderApp("/", plansApi(languages));
    const monthly = await screen.findByRole("article", { name: "Pro mensal" });
    expect(within(monthly).getByText(/R\$\s100/)).toBeInTheDocument();
    const yearly = screen.getByRole("article", { name: "Pro anual" });
    expect(within(yearly).getByText("Mais popular")).toBeInTheDocument();
    expect(within(yearly).getByText(/R\$\s899/)).toBeInTheDocument();
    expect(within(yearly).getByText(/Economize R\$\s301/)).toBeInTheDocument();
    expect(within(yearly).getByRole("link", { name: "Assinar o anual" })).toHaveAttribute("href", "/checkout?interval=yearly");
    expect(languages).toEqual(["pt-BR"]);

    const headings = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(headings.slice(0, 8)).toEqual([
      "Como funciona",
      "Por que escolher o Sócio",
      "Quem usa, recomenda",
      "Do oi ao plano pronto",
      "Preços",
      "Resultados de quem começou com o Sócio",
      "Garantia de 7 dias",
      "Seu negócio merece um bom plano",
    ]);
    for (const anchor of ["como-funciona", "por-que", "depoimentos", "precos", "garantia"]) {
      expect(container.querySelector(`#${anchor}`)).not.toBeNull();
    }
    expect(screen.getByRole("figure", { name: "Exemplo de conversa no WhatsApp" })).toBeInTheDocument();
    expect(screen.getByRole("figure", { name: "Exemplo de plano de negócios" })).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Consultoria tradicional x Sócio" })).toHaveTextContent("R$ 300 por hora");
    expect(screen.getByText("O Sócio oferece orientação educacional e não substitui a assessoria jurídica ou contábil formal.")).toBeInTheDocument();
    for (const column of ["Produto", "Empresa", "Recursos", "Legal"]) {
      expect(screen.getByRole("navigation", { name: column })).toBeInTheDocument();
    }
    expect(screen.getByRole("link", { name: "Privacidade" })).toHaveAttribute("href", "/privacy");
  });

  it("opens and closes the phone menu with the page's sections", async () => {
    renderApp("/", plansApi());
    await userEvent.click(await screen.findByRole("button", { name: "Abrir menu" }));
    const menu = document.getElementById("landing-menu");
    expect(menu).not.toBeNull();
    await userEvent.click(within(menu as HTMLElement).getByRole("link", { name: "Preços" }));
    expect(document.getElementById("landing-menu")).toBeNull();
  });

  it("shows the sticky call to action once less than 10% of the hero is visible", async () => {
    let report: (ratio: number) => void = () => {};
    class FakeObserver {
      constructor(callback: (entries: { intersectionRatio: number }[]) => void) {
        report = (ratio) => act(() => callback([{ intersectionRatio: ratio }]));
      }
      observe() {}
      disconnect() {}
    }
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    renderApp("/", plansApi());
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("region", { name: "Começar agora" })).not.toBeInTheDocument();
    report(0.05);
    expect(screen.getByRole("region", { name: "Começar agora" })).toHaveTextContent("R$ 100/mês · garantia de 7 dias");
    report(0.5);
    expect(screen.queryByRole("region", { name: "Começar agora" })).not.toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it("signs up to the newsletter only with a valid address and consent", async () => {
    const signups: { email: string; consent: boolean; language: string }[] = [];
    renderApp("/", {
      api: (router) => {
        plansApi().api(router);
        router.service(LandingService, {
          subscribeNewsletter: (request) => {
            signups.push({ email: request.email, consent: request.consent, language: request.language });
            return {};
          },
        });
      },
    });
    const email = await screen.findByLabelText("Seu e-mail");
    expect(email).toHaveAttribute("type", "email");
    await userEvent.type(email, "ana@exemplo");
    await userEvent.click(screen.getByRole("button", { name: "Quero receber" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Digite um e-mail válido.");
    await userEvent.type(email, ".com");
    await userEvent.click(screen.getByRole("button", { name: "Quero receber" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Marque a caixa para aceitar receber os e-mails.");
    expect(signups).toEqual([]);
    await userEvent.click(screen.getByRole("checkbox", { name: /Aceito receber e-mails/ }));
    await userEvent.click(screen.getByRole("button", { name: "Quero receber" }));
    expect(await screen.findByText("Pronto! Você vai receber nossas dicas.")).toBeInTheDocument();
    expect(signups).toEqual([{ email: "ana@exemplo.com", consent: true, language: "pt-BR" }]);
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
