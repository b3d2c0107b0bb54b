import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";

import { codeFor, collectErrors, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");


async function registerAndLogIn(page: Page, phone: string, name: string) {
  await fetch(`${baseURL}/api/dev/whatsapp/inbound`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ from: phone, name, text: "Oi" }),
  });
  await page.goto(`${baseURL}/login?phoneNumber=${encodeURIComponent(phone)}`);
  await page.getByLabel("Código de verificação").fill(await codeFor(baseURL, phone));
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.waitForURL(`${baseURL}/dashboard`);
}

describe("building the plan in the browser", () => {
  it("fills a section, completes it, sees the dashboard move, generates and downloads the PDF", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const errors = collectErrors(page);
    await registerAndLogIn(page, "+5511955554444", "Dora Reis");
    await page.getByRole("heading", { name: "Olá, Dora!" }).waitFor();
    await screenshot(page, "dashboard-1280");

    await page.getByRole("link", { name: "Continuar o plano" }).first().click();
    await page.getByRole("heading", { name: "Construtor do plano de negócios" }).waitFor();
    await page.getByLabel("Qual é a ideia do negócio?").fill("Café com livraria em Santos");
    await page.getByLabel("Ticket médio por venda (R$)").fill("30");
    await page.getByLabel("Vendas esperadas por mês").fill("900");
    await page.getByLabel("Custo variável por venda (R$)").fill("12");
    await page.getByLabel("Custos fixos por mês (R$)").fill("9000");
    await page.getByText("500 vendas/mês").waitFor({ timeout: 10_000 }); // 9.000 ÷ (30 − 12), computed by the server
    await page.getByRole("checkbox", { name: "Etapa concluída" }).first().check();
    await page.getByText("17% do plano").waitFor();
    await screenshot(page, "business-plan-1280");

    await page.getByRole("button", { name: "Gerar plano completo" }).click();
    await page.getByText("Plano de negócios gerado com sucesso").waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar PDF" }).click();
    expect((await download).suggestedFilename()).toBe("plano-de-negocios-v1.pdf");

    // An edit after it: the builder says the version is out of date, and the download is the plan now.
    await page.getByLabel("Qual é a ideia do negócio?").fill("Café com livraria e sarau em Santos");
    await page.getByText(/desatualizada: o download gera a versão atual/).waitFor({ timeout: 10_000 });
    await screenshot(page, "business-plan-stale-1280");
    const current = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar Markdown" }).click();
    const file = await current;
    expect(file.suggestedFilename()).toBe("plano-de-negocios-v2.md");
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString("utf8")).toContain("Café com livraria e sarau em Santos");
    await page.getByText("Versão 2 do plano completo", { exact: true }).waitFor();

    await page.goto(`${baseURL}/dashboard`);
    await page.getByText("17% concluído").waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("prices a product with the markup divisor on a phone and keeps it in the plan", async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 800 } });
    const errors = collectErrors(page);
    await registerAndLogIn(page, "+5511977776666", "Bia Souza");
    await page.goto(`${baseURL}/business-plan`);
    const calculator = page.getByRole("region", { name: "Preço de venda" });
    await calculator.getByLabel("Custo de uma unidade (R$)").fill("30");
    await calculator.getByLabel("Taxa do cartão (%)").fill("4");
    await calculator.getByLabel("Margem desejada (%)").fill("25");
    // 30 ÷ (1 − 0,04 − 0,25) = R$ 42,25, computed by the server as the owner types.
    await calculator.getByText(/Preço de venda: R\$\s42,25/).waitFor({ timeout: 10_000 });
    await calculator.getByLabel("Produto ou serviço").fill("Bolo de chocolate");
    await calculator.getByRole("button", { name: "Guardar no plano" }).click();
    await calculator.getByText("Bolo de chocolate guardado na Formação de preço do plano.").waitFor();
    await calculator.getByRole("button", { name: "Tirar Bolo de chocolate do plano" }).waitFor();
    await calculator.scrollIntoViewIfNeeded();
    await screenshot(page, "price-calculator-375");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the dashboard updates live when the plan changes elsewhere", async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 800 } });
    await registerAndLogIn(page, "+5511944443333", "Eva Lima");
    await page.getByRole("heading", { name: "Olá, Eva!" }).waitFor();
    await page.getByText("● Atualizado ao vivo").waitFor();
    const token = await page.evaluate(() => localStorage.getItem("authToken"));
    await fetch(`${baseURL}/api/webhook/business-plan/update`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ step: "legal", completed: true, source: "whatsapp" }),
    });
    await page.getByText("17% concluído").waitFor({ timeout: 10_000 });
    await screenshot(page, "dashboard-375");
    await page.close();
  });
});
