// Debian's Chromium driven by playwright-core (a test tool's own browser download cannot work here).
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Fails the test on any console error or uncaught exception of the page. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // An unknown address is answered 404 with the app's 404 page: the document's own status is the
    // intended answer, not an error (a missing script or image still is: its URL is another).
    const documentNotFound = message.text().includes("status of 404") && message.location().url === page.url();
    if (!documentNotFound) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync("e2e/screenshots", { recursive: true });
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}

/** One browser for the test file: launched before its tests, closed after them. */
export function sharedBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("the browser is not running");
    return browser;
  };
}

/** The newest message of a kind ("text", "login_code") the dev outbox holds for a number. */
export async function latestInOutbox(baseURL: string, phone: string, kind: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const response = await fetch(`${baseURL}/api/dev/whatsapp/outbox?phone=${encodeURIComponent(phone)}`);
    const body = (await response.json()) as { data: { messages: { kind: string; text: string }[] } };
    const found = body.data.messages.filter((m) => m.kind === kind).at(-1);
    if (found) return found.text;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${kind} message for ${phone}`);
}

/** The newest login code sent to a number. */
export async function codeFor(baseURL: string, phone: string): Promise<string> {
  return (await latestInOutbox(baseURL, phone, "login_code")).replace(/\D/g, "").slice(0, 6);
}

/** Logs in on /login with the number as typed and the code from the outbox; ends on /dashboard. */
export async function logIn(page: Page, baseURL: string, typed: string, e164: string): Promise<void> {
  await page.goto(`${baseURL}/login`);
  await page.getByLabel("Número de WhatsApp").fill(typed);
  await page.getByRole("button", { name: "Enviar código de verificação" }).click();
  await page.getByRole("heading", { name: "Digite o código" }).waitFor();
  await page.getByLabel("Código de verificação").fill(await codeFor(baseURL, e164));
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.waitForURL(`${baseURL}/dashboard`);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** WCAG 2 A and AA problems axe-core finds on the page as it is now: rule, impact and where; with
 * `landmarks`, also content outside every landmark (axe's "region" best practice). */
export async function accessibilityProblems(page: Page, options: { landmarks?: boolean } = {}): Promise<string[]> {
  // Evaluated by the test tool, not added as a script tag: the page's Content-Security-Policy
  // (rightly) refuses inline scripts.
  await page.evaluate(AXE);
  // A toast or dialog still fading in is half transparent: judge colours once transitions end
  // (two frames first, so one just triggered has started; endless spinners are not waited for).
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  return page.evaluate(async (landmarks) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", ...(landmarks ? ["best-practice"] : [])];
    const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
    return result.violations
      .filter((v) => !landmarks || v.id === "region" || !["heading-order", "landmark-unique", "landmark-complementary-is-top-level", "page-has-heading-one"].includes(v.id))
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
  }, options.landmarks ?? false);
}
