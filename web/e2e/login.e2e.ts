import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";

import { accessibilityProblems, codeFor, collectErrors, logIn, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

/** The test id of the number the login page shows for WhatsApp's "was it you?" (number matching). */
const MATCH_CODE = "whatsapp-match-code";

/** The number the page shows to tap on WhatsApp: two digits, visible and large. */
async function matchCodeShown(page: Page): Promise<string> {
  const box = page.getByRole("group", { name: "Seu número de confirmação" });
  const code = box.getByTestId(MATCH_CODE);
  await code.waitFor();
  expect(await code.isVisible()).toBe(true);
  expect(await code.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(48);
  const shown = ((await code.textContent()) ?? "").trim();
  expect(shown).toMatch(/^\d{2}$/);
  await box.getByText(`No WhatsApp, toque no número ${shown} para confirmar.`).waitFor();
  return shown;
}

interface Choice {
  id: string;
  title: string;
}

/** Someone on WhatsApp without a visible number: writes through the simulator, reads the outbox. */
function whatsAppUser(person: { userId: string; username: string; name: string }) {
  const outbox = async () => {
    const response = await fetch(`${baseURL}/api/dev/whatsapp/outbox?userId=${person.userId}`);
    return ((await response.json()) as { data: { messages: { choices?: Choice[] }[] } }).data.messages;
  };
  return {
    outbox,
    send: (body: object) =>
      fetch(`${baseURL}/api/dev/whatsapp/inbound`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...person, ...body }),
      }),
    /** The choices of the first question after the outbox's first `after` messages: "was it you?"
     * with exactly three two-digit numbers, each tap's id naming the login and its number. */
    async loginQuestion(after: number): Promise<Choice[]> {
      for (let i = 0; i < 50; i++) {
        const question = (await outbox()).slice(after).find((m) => (m.choices ?? []).length > 0);
        if (question) {
          const choices = question.choices ?? [];
          expect(choices).toHaveLength(3);
          for (const choice of choices) {
            expect(choice.title).toMatch(/^\d{2}$/);
            expect(choice.id).toMatch(new RegExp(`^login:[^:]+:${choice.title}$`));
          }
          expect(new Set(choices.map((c) => c.title)).size).toBe(3);
          return choices;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no login question for ${person.userId}`);
    },
  };
}

describe("logging in for real", () => {
  it("a user who wrote on WhatsApp logs in with the code from the outbox and lands on the dashboard", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await fetch(`${baseURL}/api/dev/whatsapp/inbound`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ from: "+5511976543210", name: "Carla Dias", text: "Oi" }),
    });
    await page.goto(`${baseURL}/login`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await screenshot(page, "login-1280");
    expect(await accessibilityProblems(page)).toEqual([]);
    await logIn(page, baseURL, "(11) 97654-3210", "+5511976543210");
    await page.getByRole("heading", { name: "Olá, Carla!" }).waitFor();
    expect(await page.evaluate(() => Boolean(localStorage.getItem("authToken") && localStorage.getItem("refreshToken")))).toBe(true);
    await page.getByRole("button", { name: "Sair" }).click();
    await page.waitForURL(`${baseURL}/`);
    expect(await page.evaluate(() => localStorage.getItem("authToken"))).toBeNull();
    expect(errors.filter((e) => !e.includes("401"))).toEqual([]);
    await page.close();
  });

  it("someone with only a WhatsApp username logs in on a phone by sending the message and confirming it there", async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 740 } });
    const errors = collectErrors(page);
    await page.goto(`${baseURL}/login`);
    await page.getByRole("heading", { name: "Entrar pelo WhatsApp" }).waitFor();
    const open = page.getByRole("link", { name: "Enviar pelo WhatsApp" });
    await open.waitFor();
    expect(await page.getByRole("img", { name: /QR code/ }).isVisible()).toBe(false);
    const shown = await matchCodeShown(page);
    await screenshot(page, "login-whatsapp-375");
    expect(await accessibilityProblems(page)).toEqual([]);
    const href = (await open.getAttribute("href")) ?? "";
    expect(href).toMatch(/^https:\/\/wa\.me\/5511900000000\?text=/);
    const text = new URL(href).searchParams.get("text") ?? "";
    // The person sends it from WhatsApp (here the simulator's endpoint, the same inbox as Meta's).
    const nina = whatsAppUser({ userId: "BR.7788990011223344", username: "@nina.bolos", name: "Nina" });
    const before = (await nina.outbox()).length;
    expect((await nina.send({ text })).status).toBe(200);
    // "Was it you?" comes with three numbers; she taps the one her browser shows.
    const choices = await nina.loginQuestion(before);
    const right = choices.find((c) => c.title === shown);
    expect(right).toBeDefined();
    expect((await nina.send({ text: right?.title, choice: right?.id })).status).toBe(200);
    await page.getByRole("heading", { name: "Olá, Nina!" }).waitFor({ timeout: 10_000 });
    await page.getByText("@nina.bolos").first().waitFor();
    await screenshot(page, "login-whatsapp-dashboard-375");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("on a wide screen someone who taps a wrong number sees the login cancelled, starts again and logs in with the right one", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${baseURL}/login`);
    await page.getByRole("img", { name: /QR code/ }).waitFor();
    expect(await page.getByRole("link", { name: "Enviar pelo WhatsApp" }).isVisible()).toBe(false);
    const openHere = page.getByRole("link", { name: "Ou abra o WhatsApp neste computador" });
    const firstShown = await matchCodeShown(page);
    const firstHref = (await openHere.getAttribute("href")) ?? "";
    expect(firstHref).toMatch(/^https:\/\/wa\.me\/5511900000000\?text=/);
    const davi = whatsAppUser({ userId: "BR.5566778899001122", username: "@davi.doces", name: "Davi" });

    // First he taps a number other than the one on the screen: the login is cancelled.
    let before = (await davi.outbox()).length;
    expect((await davi.send({ text: new URL(firstHref).searchParams.get("text") ?? "" })).status).toBe(200);
    const wrong = (await davi.loginQuestion(before)).find((c) => c.title !== firstShown);
    expect(wrong).toBeDefined();
    expect((await davi.send({ text: wrong?.title, choice: wrong?.id })).status).toBe(200);
    await page.getByText(/^Acesso cancelado:/).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId(MATCH_CODE).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("authToken"))).toBeNull();
    await screenshot(page, "login-whatsapp-cancelled-1280");
    expect(await accessibilityProblems(page)).toEqual([]);

    // A new login: a new text and a number of its own; this time he taps the right one.
    await page.getByRole("button", { name: "Gerar um novo acesso" }).click();
    let href = firstHref;
    for (let i = 0; i < 100 && href === firstHref; i++) {
      if (await openHere.isVisible()) href = (await openHere.getAttribute("href")) ?? firstHref;
      if (href === firstHref) await new Promise((r) => setTimeout(r, 100));
    }
    expect(href).not.toBe(firstHref);
    const shown = await matchCodeShown(page);
    await screenshot(page, "login-whatsapp-again-1280");
    before = (await davi.outbox()).length;
    expect((await davi.send({ text: new URL(href).searchParams.get("text") ?? "" })).status).toBe(200);
    const right = (await davi.loginQuestion(before)).find((c) => c.title === shown);
    expect(right).toBeDefined();
    expect((await davi.send({ text: right?.title, choice: right?.id })).status).toBe(200);
    await page.getByRole("heading", { name: "Olá, Davi!" }).waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("on a wide screen the WhatsApp option is a QR code of the same link", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseURL}/login`);
    const qr = page.getByRole("img", { name: /QR code/ });
    await qr.waitFor();
    expect(await qr.locator("svg").count()).toBe(1);
    expect(await page.getByRole("link", { name: "Enviar pelo WhatsApp" }).isVisible()).toBe(false);
    await screenshot(page, "login-whatsapp-1280");
    await page.close();
  });

  it("an admin from ADMIN_PHONES reaches /admin", async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 740 } });
    await logIn(page, baseURL, "+55 31 99999-0000", "+5531999990000");
    await page.goto(`${baseURL}/admin`);
    await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor();
    await page.close();
  });

  it("an unknown number is pointed to WhatsApp and sent home", async () => {
    const page = await browser().newPage();
    // No network here: answer for WhatsApp's site so the new tab has somewhere to land.
    await page.context().route("https://wa.me/**", (route) => route.fulfill({ body: "WhatsApp" }));
    await page.goto(`${baseURL}/login`);
    await page.getByLabel("Número de WhatsApp").fill("+55 11 90000-1111");
    const popup = page.context().waitForEvent("page");
    await page.getByRole("button", { name: "Enviar código de verificação" }).click();
    await page.getByText("Usuário não registrado").waitFor();
    const whatsapp = await popup;
    await whatsapp.waitForLoadState();
    expect(whatsapp.url()).toContain("wa.me/5511900000000");
    await page.waitForURL(`${baseURL}/`, { timeout: 5000 });
    await page.close();
  });

  it("a link that asks for a code moments after one was sent stays on the code step and counts down to a resend", async () => {
    const page = await browser().newPage({ viewport: { width: 375, height: 740 } });
    const errors = collectErrors(page);
    // An older WhatsApp account without the ninth digit, which the person types with it.
    await fetch(`${baseURL}/api/dev/whatsapp/inbound`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ from: "+553187651234", name: "Rita Alves", text: "Oi" }),
    });
    const first = await fetch(`${baseURL}/api/auth/send-code`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phoneNumber: "(31) 98765-1234", language: "pt-BR" }),
    });
    expect(first.status).toBe(200);
    await page.goto(`${baseURL}/login?phoneNumber=${encodeURIComponent("+5531987651234")}`);
    await page.getByText("Já enviamos um código há pouco e ele continua valendo: confira o WhatsApp.").waitFor();
    const resend = page.getByRole("button", { name: /Reenviar em \d+ s/ });
    expect(await resend.isDisabled()).toBe(true);
    await screenshot(page, "login-code-still-valid-375");
    // The code that went to the wa_id WhatsApp knows (12 digits) logs her in.
    await page.getByLabel("Código de verificação").fill(await codeFor(baseURL, "+553187651234"));
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.getByRole("heading", { name: "Olá, Rita!" }).waitFor();
    expect(errors.filter((e) => !e.includes("429"))).toEqual([]);
    await page.close();
  });
});
