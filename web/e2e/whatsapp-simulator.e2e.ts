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
    expect(await link.getAttribute("href")).toMatch(new RegExp(`^${baseURL}/checkout/5521998765432\\?link=[A-Za-z0-9_-]+$`));
    expect(await page.locator('[data-from="user"]').first().textContent()).toContain("Oi");
    await screenshot(page, "whatsapp-simulator-1280");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("sends the consultant's user the complete plan as a PDF they can download", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${baseURL}/dev/whatsapp`);
    // An admin's number: admins get the consultant, as Pro users do.
    await page.getByLabel("Número de WhatsApp").fill("+55 31 99999-0004");
    await page.getByLabel("Nome no perfil").fill("Carla Mendes");
    await page.getByLabel("Mensagem").fill("plano");
    await page.getByRole("button", { name: "Enviar" }).click();
    const file = page.getByRole("link", { name: /plano-de-negocios-v1\.pdf/ });
    await file.waitFor({ timeout: 15_000 });
    const response = await fetch(new URL((await file.getAttribute("href")) ?? "", baseURL));
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    await screenshot(page, "whatsapp-plan-document-1280");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("offers a closed question's answers to tap, and a tap moves the interview on", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${baseURL}/dev/whatsapp`);
    await page.getByLabel("Número de WhatsApp").fill("+55 31 99999-0005");
    await page.getByLabel("Nome no perfil").fill("Rita Alves");
    const replies = page.locator('[data-from="product"]');
    for (const words of ["Oi", "Um food truck de tapioca", "Falta comida rápida e saudável na praia", "Tapioca com recheios regionais"]) {
      const before = await replies.count();
      await page.getByLabel("Mensagem").fill(words);
      await page.getByRole("button", { name: "Enviar", exact: true }).click();
      await replies.nth(before).waitFor({ timeout: 15_000 });
    }
    const answers = page.getByRole("group", { name: "Respostas para tocar" }).last();
    await answers.getByRole("button", { name: "Planejando" }).waitFor();
    await screenshot(page, "whatsapp-choices-1280");
    const before = await replies.count();
    await answers.getByRole("button", { name: "Planejando" }).click();
    await replies.nth(before).waitFor({ timeout: 15_000 });
    expect(await replies.nth(before).textContent()).toMatch(/Ideia de negócio.*concluída/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
