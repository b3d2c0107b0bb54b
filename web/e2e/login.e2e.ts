import { describe, expect, inject, it } from "vitest";

import { accessibilityProblems, collectErrors, logIn, screenshot, sharedBrowser } from "./browser";

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
});
