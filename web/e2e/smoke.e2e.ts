import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";

import { collectErrors, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();

/** Browser translators are asked to stay away: both pages of the build say so. */
function translationGuarded(page: Page) {
  return page.evaluate(
    () => document.documentElement.getAttribute("translate") === "no" && document.querySelector('meta[name="google"]')?.getAttribute("content") === "notranslate",
  );
}
const baseURL = inject("baseURL");

describe("the app in a real browser against the real server", () => {
  it("shows the whole landing page with the plans from the server, in both variants", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(baseURL);
    const yearly = page.getByRole("article", { name: "Pro anual" });
    await yearly.waitFor();
    expect(await yearly.textContent()).toMatch(/R\$\s899/);
    expect(await yearly.textContent()).toContain("Mais popular");
    expect(await page.getByRole("article", { name: "Pro mensal" }).textContent()).toMatch(/R\$\s100/);
    await page.getByText("WhatsApp +55 (11) 90000-0000").waitFor();
    for (const anchor of ["como-funciona", "por-que", "depoimentos", "precos", "garantia"]) {
      expect(await page.locator(`#${anchor}`).count()).toBe(1);
    }
    await screenshot(page, "landing-1280");
    expect(await translationGuarded(page)).toBe(true);
    await page.goto(`${baseURL}/?variant=B`);
    await page.getByRole("heading", { level: 1, name: "Consultoria de negócios por uma fração do preço" }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("on a phone, shows the sticky call to action once the hero scrolls away, in English too", async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 740 } });
    const errors = collectErrors(page);
    await page.goto(baseURL);
    await page.getByRole("article", { name: "Pro anual" }).waitFor();
    const sticky = page.getByRole("region", { name: "Começar agora" });
    expect(await sticky.count()).toBe(0);
    await screenshot(page, "landing-375");
    await page.locator("#como-funciona").scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 600);
    await sticky.waitFor();
    await screenshot(page, "landing-375-scrolled");
    // At the very bottom, the footer's last line is above the bar, not under it.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const rights = page.getByText(/Todos os direitos reservados/);
    await expect.poll(async () => (await rights.boundingBox())!.y + (await rights.boundingBox())!.height).toBeLessThanOrEqual((await sticky.boundingBox())!.y);
    await page.evaluate(() => window.scrollTo(0, 0));
    await sticky.waitFor({ state: "detached" });
    await page.getByRole("button", { name: /Mudar idioma para English/ }).first().click();
    await page.getByRole("heading", { level: 1, name: "Your business plan, built over a WhatsApp chat" }).waitFor();
    await page.locator("#precos").scrollIntoViewIfNeeded();
    await page.getByRole("region", { name: "Get started" }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("signs up to the newsletter and opens the privacy policy from the footer", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(baseURL);
    // An address the page lets through but the server refuses: the server's own words are shown.
    await page.getByLabel("Seu e-mail").fill("leitora@exemplo.c0m");
    await page.getByRole("checkbox", { name: /Aceito receber e-mails/ }).check();
    await page.getByRole("button", { name: "Quero receber" }).click();
    await page.getByRole("alert").filter({ hasText: "Dados inválidos: email:" }).waitFor();
    await page.getByLabel("Seu e-mail").fill("");
    await page.getByLabel("Seu e-mail").fill("leitora@exemplo.com.br");
    await page.getByRole("checkbox", { name: /Aceito receber e-mails/ }).check();
    await page.getByRole("button", { name: "Quero receber" }).click();
    await page.getByText("Pronto! Você vai receber nossas dicas.").waitFor();
    const opened = page.waitForResponse((r) => r.url() === `${baseURL}/privacidade`);
    await page.getByRole("navigation", { name: "Legal" }).getByRole("link", { name: "Privacidade" }).click();
    expect((await opened).status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: "Política de privacidade" }).waitFor();
    await page.getByText(/Controlador dos dados: Sócio/).waitFor();
    await page.close();
  });

  it("shows the 404 page for an unknown path and switches it to English", async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 740 } });
    const errors = collectErrors(page);
    await page.goto(`${baseURL}/this/does/not/exist`);
    await page.getByRole("heading", { name: "Ops! Página não encontrada" }).waitFor();
    await screenshot(page, "not-found-375");
    expect(await translationGuarded(page)).toBe(true);
    await page.getByRole("button", { name: /Mudar idioma para English/ }).click();
    await page.getByRole("heading", { name: "Oops! Page not found" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    await page.reload();
    await page.getByRole("heading", { name: "Oops! Page not found" }).waitFor();
    // Home from inside the app: the router shows the landing page, whose links leave for the app.
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.getByRole("article", { name: "Pro yearly" }).waitFor();
    await page.getByRole("link", { name: "I'm already a customer" }).click();
    await page.getByRole("heading", { level: 1, name: "Sign in to Sócio" }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("asks the API in the chosen language", async () => {
    const page = await browser().newPage();
    await page.goto(baseURL);
    await page.getByRole("article", { name: "Pro anual" }).waitFor();
    await page.getByRole("button", { name: /Mudar idioma para English/ }).first().click();
    await page.getByRole("article", { name: "Pro yearly" }).waitFor();
    // The checkout's plan cards come from the server, in the chosen language.
    await page.goto(`${baseURL}/checkout/5511987654321`);
    await page.getByRole("article", { name: "Free" }).waitFor();
    expect(await page.getByRole("article", { name: /Pro/ }).textContent()).toContain("Get Pro");
    await page.close();
  });
});
