import { describe, expect, inject, it } from "vitest";

import { collectErrors, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

describe("a stranger buys from the site", () => {
  it("chooses the yearly Pro on the landing page, goes through WhatsApp and pays for a year", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);

    // 1. The landing page's yearly card; no account, so the checkout says what will happen.
    await page.goto(`${baseURL}/`);
    await page.getByRole("article", { name: "Pro anual" }).getByRole("link", { name: "Assinar o anual" }).click();
    await page.waitForURL(`${baseURL}/checkout?interval=yearly`);
    await page.getByRole("heading", { name: "Ainda não tem conta? Tudo começa no WhatsApp" }).waitFor();
    await page.getByText(/mensagem pronta pedindo o Pro anual/).waitFor();
    await screenshot(page, "checkout-stranger-1280");
    const onWhatsApp = await page.getByRole("link", { name: "Assinar o Pro pelo WhatsApp" }).getAttribute("href");
    const address = new URL(onWhatsApp!);
    expect(address.origin).toBe("https://wa.me");
    const ready = address.searchParams.get("text")!;
    expect(ready).toBe("Olá! Quero assinar o Sócio Pro anual.");

    // 2. WhatsApp (simulated) sends the ready message from a number we never saw; the first reply
    //    carries the checkout for the yearly Pro.
    await page.goto(`${baseURL}/dev/whatsapp`);
    await page.getByLabel("Número de WhatsApp").fill("+55 19 98123-4567");
    await page.getByLabel("Nome no perfil").fill("Marta Campos");
    await page.getByLabel("Mensagem").fill(ready);
    await page.getByRole("button", { name: "Enviar" }).click();
    const reply = page.locator('[data-from="product"]').first();
    await reply.waitFor({ timeout: 15_000 });
    expect(await reply.textContent()).toContain("assinar o Pro anual (R$\u00a0899,00 por um ano");
    const link = await reply.getByRole("link").getAttribute("href");
    expect(link).toMatch(new RegExp(`^${baseURL}/checkout/5519981234567\\?link=[A-Za-z0-9_-]+&plan=pro&interval=yearly$`));

    // 3. The checkout opens on the yearly Pro; paying takes a year's price.
    await page.goto(link!);
    await page.getByText("Para o WhatsApp (19) 98123-4567").waitFor();
    expect(await page.getByRole("button", { name: /Anual/ }).getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: "Assinar o Pro" }).click();
    await page.getByRole("heading", { name: "Pagamento de teste" }).waitFor();
    await page.getByText("R$ 899,00").waitFor();
    await page.getByRole("button", { name: "Pagar (teste)" }).click();

    // 4. Paid, for a year.
    await page.waitForURL(/\/success\?session=/);
    await page.getByText("Pagamento confirmado").waitFor();
    await page.getByText("Sócio Pro anual").waitFor();
    await page.getByText("R$ 899,00").waitFor();
    await screenshot(page, "success-stranger-yearly-1280");

    expect(errors.filter((e) => !e.includes("401"))).toEqual([]);
    await page.close();
  });
});
