import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";

import { accessibilityProblems, codeFor, collectErrors, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");
const PHONE = "+5511944445555";

async function post(path: string, body: unknown) {
  const response = await fetch(`${baseURL}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return (await response.json()) as { data: Record<string, string> };
}

/** A Pro user who wrote on WhatsApp and paid in the sandbox, logged in on this page. */
async function proUser(page: Page) {
  await post("/api/dev/whatsapp/inbound", { from: PHONE, name: "Gabi Nunes", text: "Oi" });
  const checkout = await post("/api/subscriptions/checkout", { planType: "pro", phoneNumber: PHONE });
  const session = checkout.data.checkoutUrl?.split("/").at(-1);
  await post(`/api/subscriptions/sandbox/${session}/complete`, { pay: true });
  await page.goto(`${baseURL}/login?phoneNumber=${encodeURIComponent(PHONE)}`);
  await page.getByLabel("Código de verificação").fill(await codeFor(baseURL, PHONE));
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.waitForURL(`${baseURL}/dashboard`);
}

const PAGES: [string, string][] = [
  ["landing", "/"],
  ["landing-b", "/?variant=B"],
  ["checkout", `/checkout/${PHONE.slice(1)}`],
  ["privacy", "/privacidade"],
  ["terms", "/termos"],
  ["lgpd", "/lgpd"],
  ["simulator", "/dev/whatsapp"],
  ["dashboard", "/dashboard"],
  ["business-plan", "/business-plan"],
  ["chat", "/chat"],
  ["success", `/success?phoneNumber=${encodeURIComponent(PHONE)}`],
];

describe("every page at a laptop's and a phone's width", () => {
  it("renders without console errors, accessibility problems or sideways scrolling down to 360 px, with a screenshot of each", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    const problems: string[] = [];
    await proUser(page);
    // Screenshots at 1280 and 375 px; 360 px, the narrowest phone we support, is checked too.
    for (const width of [1280, 375, 360]) {
      await page.setViewportSize({ width, height: width < 400 ? 740 : 900 });
      for (const [name, path] of PAGES) {
        await page.goto(`${baseURL}${path}`);
        // Live pages keep a stream open, so "network idle" never comes: wait for the page's heading
        // and for its loading states to end.
        await page.locator("h1").first().waitFor();
        await page.getByRole("status").filter({ hasText: /Carregando|Loading/ }).waitFor({ state: "detached" });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
        if (width !== 360) await screenshot(page, `${name}-${width}`);
        if (width !== 375) problems.push(...(await accessibilityProblems(page)).map((p) => `${name} at ${width} px: ${p}`));
      }
    }
    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
