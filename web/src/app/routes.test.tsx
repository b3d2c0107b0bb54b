import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { renderApp } from "@/testing/render-app";

describe("routes", () => {
  it("shows the 404 page with the spec's copy for an unknown path", async () => {
    renderApp("/no/such/page", { language: "en" });
    expect(await screen.findByRole("heading", { name: "Oops! Page not found" })).toBeInTheDocument();
    expect(screen.getByText("404")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
  });

  it("shows the 404 page in Portuguese by default", async () => {
    renderApp("/sobre-nos");
    expect(await screen.findByRole("heading", { name: "Ops! Página não encontrada" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar para o início" })).toHaveAttribute("href", "/");
  });

  it.each(["/checkout", "/checkout/+5511987654321", "/login", "/success", "/dashboard", "/business-plan", "/admin", "/privacidade", "/privacy", "/termos", "/terms", "/lgpd", "/gdpr"])(
    "registers %s as a page of the app, not a 404",
    async (path) => {
      renderApp(path);
      await screen.findByRole("heading", { level: 1 });
      expect(screen.queryByText("Ops! Página não encontrada")).not.toBeInTheDocument();
    },
  );

  it("returns home from the 404 page", async () => {
    const { router } = renderApp("/nope", { language: "en" });
    await userEvent.click(await screen.findByRole("link", { name: "Return to Home" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("switches language from the header and remembers the choice", async () => {
    renderApp("/nope");
    await userEvent.click(await screen.findByRole("button", { name: /Mudar idioma para English/ }));
    expect(await screen.findByRole("heading", { name: "Oops! Page not found" })).toBeInTheDocument();
    expect(window.localStorage.getItem("userLanguagePreference")).toBe("en");
    expect(window.localStorage.getItem("i18nextLng")).toBe("en");
  });
});
