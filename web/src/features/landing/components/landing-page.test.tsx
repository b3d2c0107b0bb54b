// The landing page calls the server over plain REST (it carries no gRPC-Web client, to load
// fast), so its tests answer through a fake of the REST API rather than a Connect router.

import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { heroVariant } from "@/lib/landing-analytics";
import { type RestHandler, stubRest } from "@/testing/fake-rest";
import { renderApp, renderLanding } from "@/testing/render-app";

const PLANS = [
  { id: "free", name: "Gratuito", price: 0, period: "para sempre", description: "", features: ["Suporte por e-mail"], limitations: ["Sem consultor de IA no WhatsApp"], buttonText: "Começar grátis", popular: false, yearlyPrice: 0, yearlySavings: 0 },
  { id: "pro", name: "Pro", price: 100, period: "/mês", description: "", features: ["Consultor de IA no WhatsApp 24/7"], limitations: [], buttonText: "Assinar o Pro", popular: true, yearlyPrice: 899, yearlySavings: 301 },
];

const QUOTES = Array.from({ length: 6 }, (_, i) => ({ name: `Pessoa ${i + 1}`, role: "Confeiteira, Campinas (SP)", text: `Depoimento ${i + 1}` }));

function server(extra: Record<string, RestHandler> = {}) {
  return stubRest({
    "GET /api/landing/proof": () => ({ data: { plansCreated: 1234, states: ["MG", "RJ", "SP"], testimonials: QUOTES } }),
    "GET /api/subscriptions/plans": () => ({ data: { plans: PLANS } }),
    "GET /api/contact": () => ({ data: { whatsappNumber: "+55 (11) 90000-0000", whatsappUrl: "https://wa.me/5511900000000", email: "suporte@socio.app" } }),
    "POST /api/analytics/events": () => ({ data: {} }),
    ...extra,
  });
}

describe("landing page", () => {
  it("claims only what has a source: the counted figures and the configured testimonials", async () => {
    server();
    renderLanding();
    const proof = await screen.findByRole("region", { name: "Quem usa, recomenda" });
    expect(await within(proof).findByText("1.234")).toBeInTheDocument();
    expect(within(proof).getByText("planos criados")).toBeInTheDocument();
    expect(within(proof).getByText("3")).toBeInTheDocument();
    expect(within(proof).getByText("estados atendidos")).toBeInTheDocument();
    expect(within(proof).getByText("“Depoimento 1”")).toBeInTheDocument();
    expect(screen.queryByText("96%")).toBeNull();
    expect(screen.queryByText("2.000+")).toBeNull();
  });

  it("shows no testimonial and no figure nobody counted on a new installation", async () => {
    server({ "GET /api/landing/proof": () => ({ data: { plansCreated: 0, states: [], testimonials: [] } }) });
    renderLanding();
    const trust = await screen.findByRole("region", { name: "Com segurança, do começo ao fim" });
    expect(within(trust).queryByText("planos criados")).toBeNull();
    expect(within(trust).getByText("24h")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Resultados de quem começou com o Sócio" })).toBeNull();
    expect(screen.queryByRole("blockquote")).toBeNull();
  });

  it("shows no WhatsApp number in the header when none is configured, only the support address", async () => {
    server({ "GET /api/contact": () => ({ data: { whatsappNumber: "", whatsappUrl: "", email: "suporte@socio.app" } }) });
    renderLanding();
    expect(await screen.findByRole("link", { name: "suporte@socio.app" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /^WhatsApp/ })).not.toBeInTheDocument();
  });

  it("tells the whole story in order, each section at its anchor, with the Pro prices from the API", async () => {
    const requests = server();
    const { container } = renderLanding();
    const monthly = await screen.findByRole("article", { name: "Pro mensal" });
    expect(within(monthly).getByText(/R\$\s100/)).toBeInTheDocument();
    const yearly = screen.getByRole("article", { name: "Pro anual" });
    expect(within(yearly).getByText("Mais popular")).toBeInTheDocument();
    expect(within(yearly).getByText(/R\$\s899/)).toBeInTheDocument();
    expect(within(yearly).getByText(/Economize R\$\s301/)).toBeInTheDocument();
    expect(within(yearly).getByRole("link", { name: "Assinar o anual" })).toHaveAttribute("href", "/checkout?interval=yearly");
    expect(requests.find((r) => r.path === "/api/subscriptions/plans")?.query.get("language")).toBe("pt-BR");
    expect(await screen.findByRole("link", { name: "WhatsApp +55 (11) 90000-0000" })).toHaveAttribute("href", "https://wa.me/5511900000000");

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
    for (const column of ["Produto", "Sócio", "Legal"]) {
      expect(screen.getByRole("navigation", { name: column })).toBeInTheDocument();
    }
    // Every footer link is a page of the app or an anchor of this one: none leads to a 404.
    const legal = screen.getByRole("navigation", { name: "Legal" });
    expect(within(legal).getByRole("link", { name: "Privacidade" })).toHaveAttribute("href", "/privacidade");
    expect(within(legal).getByRole("link", { name: "Termos de uso" })).toHaveAttribute("href", "/termos");
    expect(within(legal).getByRole("link", { name: "Cookies" })).toHaveAttribute("href", "/privacidade#cookies");
    expect(within(legal).getByRole("link", { name: "LGPD: seus direitos" })).toHaveAttribute("href", "/lgpd");
  });

  it("opens and closes the phone menu with the page's sections", async () => {
    server();
    renderLanding();
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
    server();
    renderLanding();
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("region", { name: "Começar agora" })).not.toBeInTheDocument();
    report(0.05);
    expect(screen.getByRole("region", { name: "Começar agora" })).toHaveTextContent("R$ 100/mês · garantia de 7 dias");
    report(0.5);
    expect(screen.queryByRole("region", { name: "Começar agora" })).not.toBeInTheDocument();
  });

  it("signs up to the newsletter only with a valid address and consent", async () => {
    const requests = server({ "POST /api/newsletter": () => ({ data: {} }) });
    const signups = () => requests.filter((r) => r.path === "/api/newsletter").map((r) => r.body);
    renderLanding();
    const email = await screen.findByLabelText("Seu e-mail");
    expect(email).toHaveAttribute("type", "email");
    await userEvent.type(email, "ana@exemplo");
    await userEvent.click(screen.getByRole("button", { name: "Quero receber" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Digite um e-mail válido.");
    await userEvent.type(email, ".com");
    await userEvent.click(screen.getByRole("button", { name: "Quero receber" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Marque a caixa para aceitar receber os e-mails.");
    expect(signups()).toEqual([]);
    await userEvent.click(screen.getByRole("checkbox", { name: /Aceito receber e-mails/ }));
    await userEvent.click(screen.getByRole("button", { name: "Quero receber" }));
    expect(await screen.findByText("Pronto! Você vai receber nossas dicas.")).toBeInTheDocument();
    expect(signups()).toEqual([{ email: "ana@exemplo.com", consent: true, language: "pt-BR" }]);
  });

  it("shows the server's own message when it refuses the address", async () => {
    server({
      "POST /api/newsletter": () => ({
        status: 400,
        message: "Dados inválidos: email: informe um e-mail válido",
        errors: [{ field: "email", message: "email: informe um e-mail válido" }],
      }),
    });
    renderLanding();
    await userEvent.type(await screen.findByLabelText("Seu e-mail"), "ana@exemplo.c0m");
    await userEvent.click(screen.getByRole("checkbox", { name: /Aceito receber e-mails/ }));
    await userEvent.click(screen.getByRole("button", { name: "Quero receber" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Dados inválidos: email: informe um e-mail válido");
  });

  it("says so when the plans cannot be loaded", async () => {
    server({ "GET /api/subscriptions/plans": () => ({ status: 503, message: "indisponível" }) });
    renderLanding();
    expect(await screen.findByText("Não foi possível carregar os planos agora.")).toBeInTheDocument();
  });

  it("picks the hero by ?variant=, treating anything but B as A", async () => {
    expect(heroVariant("B")).toBe("B");
    expect(heroVariant("b")).toBe("A");
    expect(heroVariant(null)).toBe("A");
    server();
    renderLanding("?variant=B");
    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("Consultoria de negócios por uma fração do preço");
  });

  it("reports the view with its variant and a visitor id kept by the browser, for the admin's funnel", async () => {
    const requests = server();
    const events = () => requests.filter((r) => r.path === "/api/analytics/events").map((r) => r.body as Record<string, string>);
    renderLanding("?variant=B");
    await waitFor(() => expect(events()).toHaveLength(1));
    expect(events()[0]).toMatchObject({ kind: "landing_view", variant: "B" });
    expect(events()[0]?.visitorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(localStorage.getItem("socioVisitorId")).toBe(events()[0]?.visitorId);
    expect(localStorage.getItem("socioLandingVariant")).toBe("B");
  });

  it("is also what the app shows at / reached from another page, with the variant and plain links", async () => {
    server();
    renderApp("/?variant=B");
    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("Consultoria de negócios por uma fração do preço");
    expect(screen.getAllByRole("link", { name: "Começar agora" })[0]).toHaveAttribute("href", "/checkout");
  });
});
