import { describe, expect, inject, it } from "vitest";

import { collectErrors, latestInOutbox, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");


describe("from WhatsApp to Pro", () => {
  it("follows the checkout link, pays in the sandbox, logs in and sees Pro", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    const phone = "+5511933332222";
    await fetch(`${baseURL}/api/dev/whatsapp/inbound`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ from: phone, name: "Fábio Souza", text: "Oi" }),
    });
    const welcome = await latestInOutbox(baseURL, phone, "text");
    const link = /https?:\/\/\S+\/checkout\/\d+/.exec(welcome)?.[0];
    expect(link).toBeDefined();

    await page.goto(link!);
    await page.getByText("Para o WhatsApp +55 (11) 93333-2222").waitFor();
    await screenshot(page, "checkout-1280");
    await page.getByRole("button", { name: "Assinar o Pro" }).click();
    await page.getByRole("heading", { name: "Pagamento de teste" }).waitFor();
    await page.getByText("Ambiente de teste: nenhum valor real será cobrado.").waitFor();
    await screenshot(page, "sandbox-1280");
    await page.getByRole("button", { name: "Pagar (teste)" }).click();

    await page.waitForURL(/\/login\?phoneNumber=/);
    await page.getByLabel("Código de verificação").fill((await latestInOutbox(baseURL, phone, "login_code")).replace(/\D/g, "").slice(0, 6));
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL(`${baseURL}/dashboard`);
    await page.getByRole("heading", { name: "Olá, Fábio!" }).waitFor();
    await page.getByText("Pro", { exact: true }).waitFor();

    await page.goto(`${baseURL}/success`);
    await page.getByRole("heading", { name: "Bem-vindo ao Sócio Pro! 🎉" }).waitFor();
    expect(await page.getByRole("link", { name: "Começar conversa no WhatsApp" }).getAttribute("href")).toContain("wa.me/5511900000000?text=");
    await screenshot(page, "success-1280");
    expect(await latestInOutbox(baseURL, phone, "text")).toContain("Bem-vindo ao Sócio Pro");

    // The same conversation on the web: the WhatsApp messages are there, and the consultant answers.
    await page.getByRole("link", { name: "Ir para o painel" }).click();
    await page.getByRole("link", { name: "Conversar no navegador" }).click();
    await page.waitForURL(`${baseURL}/chat`);
    await page.getByRole("listitem").filter({ hasText: /^Você · .*Oi$/ }).waitFor();
    await page.getByLabel("Sua mensagem").fill("Quero abrir uma loja de bicicletas em Campinas");
    await page.getByRole("button", { name: "Enviar" }).click();
    await page.getByText("Quero abrir uma loja de bicicletas em Campinas").waitFor();
    await page.waitForFunction(() => document.querySelectorAll("section[aria-label='Conversa'] li").length >= 4);
    expect(await page.getByLabel("Sua mensagem").inputValue()).toBe("");
    await screenshot(page, "chat-1280");
    await page.setViewportSize({ width: 375, height: 740 });
    await screenshot(page, "chat-375");
    expect(errors.filter((e) => !e.includes("401"))).toEqual([]);
    await page.close();
  });
});
