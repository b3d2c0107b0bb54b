import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";

import { collectErrors, logIn, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

/** Records every Content-Security-Policy violation the page reports, from its first script on. */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
}

describe("the app under its Content-Security-Policy", () => {
  it("is served with the policy and works through landing, login, dashboard, builder and admin with no violation", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    const violations = await recordViolations(page);
    const landing = await page.goto(baseURL);
    const policy = landing?.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(landing?.headers()["x-content-type-options"]).toBe("nosniff");
    await page.getByRole("article", { name: "Pro anual" }).waitFor();
    expect(await violations()).toEqual([]);

    await logIn(page, baseURL, "+55 31 99999-0002", "+5531999990002");
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(await violations()).toEqual([]);
    await page.goto(`${baseURL}/business-plan`);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(await violations()).toEqual([]);
    await page.goto(`${baseURL}/admin`);
    await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor();
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("refuses to be framed by another page", async () => {
    const response = await fetch(`${baseURL}/dashboard`);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
    const missing = await fetch(`${baseURL}/assets/no-such-file.js`);
    expect(missing.status).toBe(404);
  });
});
