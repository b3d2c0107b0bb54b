import { describe, expect, inject, it } from "vitest";

import { accessibilityProblems, collectErrors, logIn, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

describe("a human consultant steps in", () => {
  it("a person asks for a human on WhatsApp, an admin takes over, answers, gives back, and the consultant answers again", async () => {
    const whatsapp = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const whatsappErrors = collectErrors(whatsapp);
    await whatsapp.goto(`${baseURL}/dev/whatsapp`);
    await whatsapp.getByLabel("Número de WhatsApp").fill("+55 21 97777-1234");
    await whatsapp.getByLabel("Nome no perfil").fill("Joana Prado");
    const replies = whatsapp.locator('[data-from="product"]');
    const say = async (words: string) => {
      const before = await replies.count();
      await whatsapp.getByLabel("Mensagem").fill(words);
      await whatsapp.getByRole("button", { name: "Enviar" }).click();
      await replies.nth(before).waitFor({ timeout: 15_000 });
      return (await replies.nth(before).textContent()) ?? "";
    };
    expect(await say("Oi")).toContain("Olá, Joana!");
    expect(await say("Quero falar com um humano, por favor")).toContain("Já chamei uma pessoa da nossa equipe");

    const admin = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const adminErrors = collectErrors(admin);
    await logIn(admin, baseURL, "+55 31 99999-0003", "+5531999990003");
    await admin.goto(`${baseURL}/admin`);
    await admin.getByRole("tab", { name: "Atendimento" }).click();
    const entry = admin.getByRole("button", { name: /Joana Prado/ });
    await entry.waitFor();
    expect(await entry.textContent()).toContain("Pediu uma pessoa");
    await entry.click();
    const panel = admin.getByRole("region", { name: "Conversa com Joana Prado" });
    const shown = panel.getByRole("list", { name: "Mensagens da conversa" });
    await shown.getByText("Quero falar com um humano, por favor").waitFor();
    await panel.getByText("Aguardando uma pessoa.", { exact: false }).waitFor();

    await panel.getByRole("button", { name: "Assumir" }).click();
    await panel.getByText("Você está atendendo", { exact: false }).waitFor();
    await panel.getByLabel("Responder pelo WhatsApp").fill("Oi Joana, aqui é a equipe do Sócio! Como posso ajudar?");
    await panel.getByRole("button", { name: "Enviar" }).click();
    await shown.getByText("Oi Joana, aqui é a equipe do Sócio! Como posso ajudar?").waitFor();
    await screenshot(admin, "admin-handoff-1280");
    const problems = await accessibilityProblems(admin);

    await whatsapp.getByText("Oi Joana, aqui é a equipe do Sócio! Como posso ajudar?").waitFor({ timeout: 15_000 });
    await screenshot(whatsapp, "whatsapp-handoff-1280");

    // Taken over, the consultant stays quiet: what Joana writes waits for the admin.
    const before = await replies.count();
    await whatsapp.getByLabel("Mensagem").fill("Preciso de ajuda com o alvará");
    await whatsapp.getByRole("button", { name: "Enviar" }).click();
    await shown.getByText("Preciso de ajuda com o alvará").waitFor();
    await whatsapp.waitForTimeout(1500);
    expect(await replies.count()).toBe(before);

    await panel.getByRole("button", { name: "Devolver ao Sócio" }).click();
    await panel.getByText("O Sócio (IA) está respondendo.").waitFor();
    const next = await say("Obrigada! E agora, como continuo?");
    expect(next).not.toContain("equipe do Sócio");
    expect(next.length).toBeGreaterThan(0);

    expect(problems).toEqual([]);
    expect(whatsappErrors).toEqual([]);
    expect(adminErrors).toEqual([]);
    await whatsapp.close();
    await admin.close();
  });
});
