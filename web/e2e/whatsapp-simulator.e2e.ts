import { describe, expect, inject, it } from "vitest";

import { collectErrors, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

describe("the WhatsApp simulator (dev mode)", () => {
  it("welcomes a new user who says Oi, with their checkout link", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${baseURL}/dev/whatsapp`);
    await page.getByLabel("Número de WhatsApp").fill("+55 21 99876-5432");
    await page.getByLabel("Nome no perfil").fill("Bruno Souza");
    await page.getByLabel("Mensagem").fill("Oi");
    await page.getByRole("button", { name: "Enviar" }).click();
    const reply = page.locator('[data-from="product"]').first();
    await reply.waitFor({ timeout: 15_000 });
    expect(await reply.textContent()).toContain("Olá, Bruno! 👋 Eu sou o Sócio");
    const link = reply.getByRole("link");
    expect(await link.getAttribute("href")).toBe(`${baseURL}/checkout/5521998765432`);
    expect(await page.locator('[data-from="user"]').first().textContent()).toContain("Oi");
    await screenshot(page, "whatsapp-simulator-1280");
    expect(errors).toEqual([]);
    await page.close();
  });
});
