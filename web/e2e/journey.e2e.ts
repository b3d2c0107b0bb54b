import { describe, expect, inject, it } from "vitest";

import { collectErrors, latestInOutbox, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

describe("the whole journey", () => {
  it("from a WhatsApp hello to Pro, a plan section, the dashboard, the web chat and the downloaded plan", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const errors = collectErrors(page);
    const phone = "+5511933332222";

    // 1. Say hello to the product on (simulated) WhatsApp; the welcome carries the checkout link.
    await page.goto(`${baseURL}/dev/whatsapp`);
    await page.getByLabel("Número de WhatsApp").fill("+55 11 93333-2222");
    await page.getByLabel("Nome no perfil").fill("Fábio Souza");
    await page.getByLabel("Mensagem").fill("Oi");
    await page.getByRole("button", { name: "Enviar" }).click();
    const welcome = page.locator('[data-from="product"]').first();
    await welcome.waitFor({ timeout: 15_000 });
    const link = await welcome.getByRole("link").getAttribute("href");
    // Signed for her (issue 62): the number shows, the link says it is she who asks.
    expect(link).toMatch(new RegExp(`^${baseURL}/checkout/5511933332222\\?link=[A-Za-z0-9_-]+$`));

    // 2. Follow it and take Pro in the sandbox.
    await page.goto(link!);
    await page.getByText("Para o WhatsApp (11) 93333-2222").waitFor();
    await screenshot(page, "checkout-1280");
    await page.getByRole("button", { name: "Assinar o Pro" }).click();
    await page.getByRole("heading", { name: "Pagamento de teste" }).waitFor();
    await page.getByText("Ambiente de teste: nenhum valor real será cobrado.").waitFor();
    // Anyone holding the sandbox page's address could read a number there: it shows none.
    await page.getByRole("button", { name: "Pagar (teste)" }).waitFor();
    expect(await page.getByText(/93333-2222/).count()).toBe(0);
    await screenshot(page, "sandbox-1280");
    await page.getByRole("button", { name: "Pagar (teste)" }).click();

    // 3. The page after paying says what was paid, before any login.
    await page.waitForURL(/\/success\?session=/);
    await page.getByRole("heading", { name: "Bem-vindo ao Sócio Pro! 🎉" }).waitFor();
    await page.getByText("Pagamento confirmado").waitFor();
    await page.getByText("R$ 100,00").waitFor();
    await screenshot(page, "success-paid-1280");

    // 4. Log in with the code from the outbox.
    await page.getByRole("link", { name: "Entrar no painel" }).click();
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

    // 5. Fill a section of the plan and complete it; the dashboard moves.
    await page.getByRole("link", { name: "Ir para o painel" }).click();
    await page.getByRole("link", { name: "Continuar o plano" }).first().click();
    await page.getByRole("heading", { name: "Construtor do plano de negócios" }).waitFor();
    await page.getByLabel("Qual é a ideia do negócio?").fill("Loja e oficina de bicicletas em Campinas");
    await page.getByRole("checkbox", { name: "Etapa concluída" }).first().check();
    await page.getByText("17% do plano").waitFor();
    await page.goto(`${baseURL}/dashboard`);
    await page.getByText("17% concluído").waitFor();

    // 6. Chat on the web: the WhatsApp conversation is there, and the consultant answers.
    await page.getByRole("link", { name: "Conversar no navegador" }).click();
    await page.waitForURL(`${baseURL}/chat`);
    await page.getByRole("listitem").filter({ hasText: /^Você · .*Oi$/ }).waitFor();
    await page.getByLabel("Sua mensagem").fill("Quero vender bicicletas elétricas também");
    await page.getByRole("button", { name: "Enviar" }).click();
    await page.getByText("Quero vender bicicletas elétricas também").waitFor();
    await page.waitForFunction(() => document.querySelectorAll("section[aria-label='Conversa'] li").length >= 4);
    expect(await page.getByLabel("Sua mensagem").inputValue()).toBe("");
    await screenshot(page, "chat-1280");

    // 7. Generate the complete plan and download it, as PDF and as Markdown.
    await page.goto(`${baseURL}/business-plan`);
    await page.getByRole("button", { name: "Gerar plano completo" }).click();
    await page.getByText("Plano de negócios gerado com sucesso").waitFor();
    const pdf = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar PDF" }).click();
    expect((await pdf).suggestedFilename()).toMatch(/\.pdf$/);
    const markdown = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar Markdown" }).click();
    const saved = await (await markdown).path();
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(saved, "utf8")).toContain("Loja e oficina de bicicletas em Campinas");

    expect(errors.filter((e) => !e.includes("401"))).toEqual([]);
    await page.close();
  });
});
