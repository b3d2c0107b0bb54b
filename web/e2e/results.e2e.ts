import { describe, expect, inject, it } from "vitest";

import { accessibilityProblems, collectErrors, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

describe("the month's real numbers against the plan", () => {
  it("a person records months on the dashboard and sees them against the plan as a chart", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    // Logged in by message (the other browser tests already spend this address's code requests).
    const post = (path: string, body: object) =>
      fetch(`${baseURL}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const started = ((await (await post("/api/auth/whatsapp-login", { language: "pt-BR" })).json()) as {
      data: { loginId: string; text: string; matchCode: number };
    }).data;
    const dora = { from: "+5511955557777", name: "Dora Alves" };
    await post("/api/dev/whatsapp/inbound", { ...dora, text: started.text });
    // She taps, among the three numbers, the one the browser shows.
    let tap: { id: string; title: string } | undefined;
    for (let i = 0; i < 50 && !tap; i++) {
      const outbox = (await (await fetch(`${baseURL}/api/dev/whatsapp/outbox?phone=%2B5511955557777`)).json()) as {
        data: { messages: { choices?: { id: string; title: string }[] }[] };
      };
      const question = outbox.data.messages.find((m) => (m.choices ?? []).length === 3);
      tap = question?.choices?.find((c) => c.title === String(started.matchCode));
      if (!tap) await new Promise((r) => setTimeout(r, 100));
    }
    await post("/api/dev/whatsapp/inbound", { ...dora, text: tap?.title, choice: tap?.id });
    const session = ((await (await fetch(`${baseURL}/api/auth/whatsapp-login/${started.loginId}`)).json()) as { data: { token: string; refreshToken: string } }).data;
    const token = session.token;
    expect(token).toBeTruthy();
    await page.goto(`${baseURL}/`);
    await page.evaluate((s) => {
      localStorage.setItem("authToken", s.token);
      localStorage.setItem("refreshToken", s.refreshToken);
    }, session);
    await page.goto(`${baseURL}/dashboard`);
    await page.getByRole("heading", { name: "Olá, Dora!" }).waitFor();
    const call = (method: string, path: string, body: object) =>
      fetch(`${baseURL}${path}`, { method, headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const finance = { financeData: { monthlyFixedCosts: 8000, averageTicket: 25, variableCostPercent: 40, expectedSalesPerMonth: 1000 } };
    expect((await call("PUT", "/api/business-plan/finance", finance)).status).toBe(200);
    const legal = { legalData: { businessType: "mei", taxRegime: "simei" } };
    expect((await call("PUT", "/api/business-plan/legal", legal)).status).toBe(200);
    for (const [month, revenue, costs] of [["2026-07", 24000, 17500], ["2026-08", 26500, 18800], ["2026-09", 19000, 17000]] as const) {
      expect((await call("PUT", `/api/results/${month}`, { revenue, costs, salesCount: Math.round(revenue / 25) })).status).toBe(200);
    }
    await page.reload();
    const card = page.getByRole("region", { name: "Resultados do mês" });
    await card.getByText(/O maior desvio foi em setembro de 2026/).waitFor();
    await card.getByLabel("Mês", { exact: true }).fill("2026-10");
    await card.getByLabel("Faturamento (R$)").fill("21.000");
    await card.getByLabel("Custos e despesas (R$)").fill("15.000");
    await card.getByLabel("Número de vendas").fill("840");
    await card.getByRole("button", { name: "Salvar resultados" }).click();
    await page.getByText("Resultados do mês salvos").first().waitFor();
    await card.locator('rect >> nth=3').waitFor();
    expect(await card.getByRole("img", { name: "Resultado real × previsto no plano" }).count()).toBe(1);
    // Nothing proactive until she asks: the switches start off, and turning one on is kept.
    const checkin = card.getByRole("checkbox", { name: /Pedir os números do mês/ });
    expect(await checkin.isChecked()).toBe(false);
    await checkin.check();
    await page.getByText("Lembretes atualizados").first().waitFor();
    const reminders = (await (await fetch(`${baseURL}/api/reminders`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { reminders: { monthlyCheckin: boolean; consentedAt: string | null } };
    };
    expect(reminders.data.reminders.monthlyCheckin).toBe(true);
    expect(reminders.data.reminders.consentedAt).toBeTruthy();
    // A MEI at this pace crosses the yearly ceiling: the card says when, with the rule.
    await card.getByText(/Teto do MEI: .*acima do limite/).waitFor();
    await card.getByText(/até 20%/).waitFor();
    await screenshot(page, "dashboard-results-1280");
    // The builder's finance section shows the same months beside the forecast.
    await page.goto(`${baseURL}/business-plan`);
    const october = page.getByRole("row", { name: /Outubro de 2026/ });
    await october.waitFor();
    expect(await october.textContent()).toMatch(/previsto R\$\s25\.000/);
    await october.scrollIntoViewIfNeeded();
    await screenshot(page, "builder-actuals-1280");
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
