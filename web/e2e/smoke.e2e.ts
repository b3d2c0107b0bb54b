import { describe, expect, inject, it } from "vitest";

import { collectErrors, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

describe("the app in a real browser against the real server", () => {
  it("loads the plans over gRPC-Web on the landing page", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(baseURL);
    const pro = page.getByRole("article", { name: "Pro" });
    await pro.waitFor();
    expect(await pro.textContent()).toMatch(/R\$\s100/);
    expect(await pro.textContent()).toContain("Mais popular");
    expect(await page.getByRole("article", { name: "Gratuito" }).textContent()).toContain("Sem consultor de IA no WhatsApp");
    await screenshot(page, "landing-1280");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the 404 page for an unknown path and switches it to English", async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 740 } });
    const errors = collectErrors(page);
    await page.goto(`${baseURL}/this/does/not/exist`);
    await page.getByRole("heading", { name: "Ops! Página não encontrada" }).waitFor();
    await screenshot(page, "not-found-375");
    await page.getByRole("button", { name: /Mudar idioma para English/ }).click();
    await page.getByRole("heading", { name: "Oops! Page not found" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    await page.reload();
    await page.getByRole("heading", { name: "Oops! Page not found" }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("asks the API in the chosen language", async () => {
    const page = await browser().newPage();
    await page.goto(baseURL);
    await page.getByRole("article", { name: "Pro" }).waitFor();
    await page.getByRole("button", { name: /Mudar idioma para English/ }).click();
    await page.getByRole("article", { name: "Free" }).waitFor();
    expect(await page.getByRole("article", { name: "Pro" }).textContent()).toContain("Get Pro");
    await page.close();
  });
});
