import { describe, expect, inject, it } from "vitest";

import { accessibilityProblems, codeFor, collectErrors, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

describe("the person's data and the legal pages", () => {
  it("reads the LGPD page, downloads their data and deletes their account from the dashboard", async () => {
    const phone = "+5511921210909"; // a number no other browser test uses: they share one server
    await fetch(`${baseURL}/api/dev/whatsapp/inbound`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ from: phone, name: "Lia Souza", text: "Oi, quero ver meus dados" }),
    });
    const page = await browser().newPage({ viewport: { width: 375, height: 800 }, acceptDownloads: true });
    const errors = collectErrors(page);

    // The rights page, served as a page of the app (HTTP 200), with no accessibility problem.
    const lgpd = await page.goto(`${baseURL}/lgpd`);
    expect(lgpd?.status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: "Seus direitos pela LGPD" }).waitFor();
    await page.getByText(/Encarregado de dados/).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, "lgpd-375");

    await page.goto(`${baseURL}/login?phoneNumber=${encodeURIComponent(phone)}`);
    await page.getByLabel("Código de verificação").fill(await codeFor(baseURL, phone));
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL(`${baseURL}/dashboard`);
    const card = page.getByRole("region", { name: "Seus dados" });
    await card.waitFor();
    await screenshot(page, "dashboard-your-data-375");

    // A complete copy of her own data, as a file.
    const download = page.waitForEvent("download");
    await card.getByRole("button", { name: "Baixar meus dados" }).click();
    const file = await download;
    const chunks: Buffer[] = [];
    for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
    const copy = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    expect(copy.user.phoneNumber).toBe(phone);
    expect(copy.messages[0].content).toBe("Oi, quero ver meus dados");

    // Deleting asks first; cancelling keeps everything.
    await card.getByRole("button", { name: "Excluir minha conta" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Excluir a sua conta?" });
    await dialog.waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, "delete-account-375");
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await dialog.waitFor({ state: "hidden" });
    await card.getByRole("button", { name: "Excluir minha conta" }).click();
    await dialog.getByRole("button", { name: "Sim, excluir tudo" }).click();
    // When the erasure's answer does not come, say what the page shows instead (an error toast, a
    // redirect), with a screenshot: a timeout alone says nothing.
    await page
      .getByText("Sua conta e seus dados foram excluídos.")
      .waitFor()
      .catch(async (error: unknown) => {
        await screenshot(page, "delete-account-not-confirmed");
        const shown = await page.locator("body").innerText();
        throw new Error(`${String(error)}\nat ${page.url()} the page shows:\n${shown}`);
      });
    await expect.poll(() => new URL(page.url()).pathname).toBe("/");

    // Signed out: the dashboard asks for a login again.
    await page.goto(`${baseURL}/dashboard`);
    await page.waitForURL(/\/login/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
