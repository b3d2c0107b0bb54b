import type { ConnectRouter } from "@connectrpc/connect";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { LandingService } from "@/gen/socio/v1/landing_pb";
import { renderApp } from "@/testing/render-app";

function api(cnpj: string) {
  return (router: ConnectRouter) => {
    router.service(LandingService, {
      getContact: () => ({ email: "privacidade@socio.app", controllerName: "Sócio Consultoria Ltda", controllerCnpj: cnpj }),
    });
  };
}

describe("the legal pages", () => {
  it("the privacy policy names the controller, the officer's address and the rights, in Portuguese", async () => {
    renderApp("/privacidade", { api: api("12.345.678/0001-95") });
    expect(await screen.findByRole("heading", { level: 1, name: "Política de privacidade" })).toBeInTheDocument();
    expect(await screen.findByText(/Controlador dos dados: Sócio Consultoria Ltda, CNPJ 12.345.678\/0001-95/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "privacidade@socio.app" })).toHaveAttribute("href", "mailto:privacidade@socio.app");
    for (const title of ["Que dados tratamos", "Para quê, e com que base legal", "Com quem compartilhamos", "Por quanto tempo guardamos", "Cookies", "Seus direitos"]) {
      expect(screen.getByRole("heading", { level: 2, name: title })).toBeInTheDocument();
    }
    const nav = screen.getByRole("navigation", { name: "Páginas legais do Sócio" });
    expect(within(nav).getByRole("link", { name: "Privacidade" })).toHaveAttribute("aria-current", "page");
    expect(within(nav).getByRole("link", { name: "Termos de uso" })).toHaveAttribute("href", "/termos");
  });

  it("the LGPD page says how to exercise each right, in English at the English address, without a CNPJ not yet set", async () => {
    renderApp("/gdpr", { language: "en", api: api("") });
    expect(await screen.findByRole("heading", { level: 1, name: "Your rights under the LGPD" })).toBeInTheDocument();
    expect(await screen.findByText(/Data controller: Sócio Consultoria Ltda\. Data protection officer/)).toBeInTheDocument();
    expect(screen.getByText(/We answer within 15 days \(art. 19, II\)/)).toBeInTheDocument();
    expect(within(screen.getByRole("navigation", { name: "Sócio's legal pages" })).getByRole("link", { name: "Terms of use" })).toHaveAttribute("href", "/terms");
    expect(within(screen.getByRole("contentinfo")).getByRole("link", { name: "Privacy" })).toHaveAttribute("href", "/privacy");
  });

  it("the terms say the guidance is educational and the 7-day guarantee", async () => {
    renderApp("/termos", { api: api("") });
    expect(await screen.findByRole("heading", { level: 1, name: "Termos de uso" })).toBeInTheDocument();
    expect(screen.getByText(/não substitui um contador/)).toBeInTheDocument();
    expect(screen.getByText(/Garantia de 7 dias/)).toBeInTheDocument();
  });
});
