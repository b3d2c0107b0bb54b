import { describe, expect, inject, it } from "vitest";

import { accessibilityProblems, codeFor, collectErrors, logIn, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

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
    await screenshot(page, "login-whatsapp-375");
    expect(await accessibilityProblems(page)).toEqual([]);
    const href = (await open.getAttribute("href")) ?? "";
    expect(href).toMatch(/^https:\/\/wa\.me\/5511900000000\?text=/);
    const text = new URL(href).searchParams.get("text") ?? "";
    // The person sends it from WhatsApp (here the simulator's endpoint, the same inbox as Meta's).
    const person = { userId: "BR.7788990011223344", username: "@nina.bolos", name: "Nina" };
    const sendAs = (body: object) =>
      fetch(`${baseURL}/api/dev/whatsapp/inbound`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...person, ...body }),
      });
    expect((await sendAs({ text })).status).toBe(200);
    let question: { choices?: { id: string; title: string }[] } | undefined;
    for (let i = 0; i < 50 && !question; i++) {
      const outbox = (await (await fetch(`${baseURL}/api/dev/whatsapp/outbox?userId=${person.userId}`)).json()) as {
        data: { messages: { choices?: { id: string; title: string }[] }[] };
      };
      question = outbox.data.messages.find((m) => (m.choices ?? []).length === 2);
      if (!question) await new Promise((r) => setTimeout(r, 100));
    }
    const yes = question?.choices?.[0];
    expect(yes?.title).toBe("Sim, sou eu");
    expect((await sendAs({ text: yes?.title, choice: yes?.id })).status).toBe(200);
    await page.getByRole("heading", { name: "Olá, Nina!" }).waitFor({ timeout: 10_000 });
    await page.getByText("@nina.bolos").first().waitFor();
    await screenshot(page, "login-whatsapp-dashboard-375");
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
