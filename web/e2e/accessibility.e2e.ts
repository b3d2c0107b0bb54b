import { describe, expect, inject, it } from "vitest";

import { accessibilityProblems, collectErrors, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

describe("accessibility of the pages a stranger sees first", () => {
  it("the landing page has no WCAG problem and nothing outside its landmarks, on a phone and a desktop", async () => {
    for (const width of [375, 1280]) {
      const page = await browser().newPage({ viewport: { width, height: 800 } });
      const errors = collectErrors(page);
      await page.goto(`${baseURL}/`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.getByRole("article", { name: "Pro anual" }).waitFor();
      expect(await accessibilityProblems(page, { landmarks: true }), `at ${width} px, top`).toEqual([]);
      // Scrolled past the hero: on a phone the sticky call to action shows.
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(300);
      expect(await accessibilityProblems(page, { landmarks: true }), `at ${width} px, scrolled`).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it("the WhatsApp simulator, with a conversation in it, has no WCAG problem", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseURL}/dev/whatsapp`);
    await page.getByLabel("Número de WhatsApp").fill("+55 21 97777-1212");
    await page.getByLabel("Nome no perfil").fill("Lia Prado");
    await page.getByLabel("Mensagem").fill("Oi");
    await page.getByRole("button", { name: "Enviar" }).click();
    await page.locator('[data-from="product"]').first().waitFor({ timeout: 15_000 });
    expect(await accessibilityProblems(page, { landmarks: true })).toEqual([]);
    await page.close();
  });
});
