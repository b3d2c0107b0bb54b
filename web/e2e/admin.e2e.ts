import { describe, expect, inject, it } from "vitest";

import { accessibilityProblems, collectErrors, logIn, screenshot, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

async function writeOnWhatsApp(from: string, name: string, text: string) {
  const response = await fetch(`${baseURL}/api/dev/whatsapp/inbound`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ from, name, text }),
  });
  expect(response.status).toBe(200);
}

describe("running the service from the admin panel", () => {
  it("an admin finds a user, reads the conversation, sets Pro, and creates and activates a prompt, on accessible pages", async () => {
    await writeOnWhatsApp("+5521987001234", "Érica Souza", "Quero abrir uma confeitaria em Niterói");
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    const problems: string[] = [];
    const check = async (name: string) => problems.push(...(await accessibilityProblems(page)).map((p) => `${name}: ${p}`));
    await logIn(page, baseURL, "+55 31 99999-0001", "+5531999990001");
    await page.goto(`${baseURL}/admin`);
    await page.getByRole("heading", { name: "Painel Administrativo" }).waitFor();

    // Accents and case do not matter when searching.
    await page.getByPlaceholder("Buscar por nome, telefone ou usuário do WhatsApp").fill("erica");
    await page.getByText("1 usuário", { exact: true }).waitFor();
    await page.getByRole("cell", { name: "(21) 98700-1234" }).waitFor();
    await screenshot(page, "admin-users-1280");
    await check("admin-users-1280");
    await page.getByRole("button", { name: "Ver detalhes: Érica Souza" }).click();
    const dialog = page.getByRole("dialog", { name: "Detalhes do usuário" });
    await dialog.getByText("Quero abrir uma confeitaria em Niterói").waitFor();
    await screenshot(page, "admin-user-detail-1280");
    await check("admin-user-detail-1280");

    await dialog.getByRole("button", { name: "Mudar para Pro" }).click();
    await page.getByText("Usuário atualizado para Pro").waitFor();
    await dialog.getByRole("button", { name: "Mudar para Free" }).waitFor();
    await dialog.getByRole("button", { name: "Fechar" }).click();
    await page.getByRole("row", { name: /Érica Souza/ }).getByText("Pro", { exact: true }).waitFor();

    await page.getByRole("tab", { name: "System Prompts" }).click();
    await page.getByLabel("Nome *").fill("confeitaria");
    await page.getByLabel("Título *").fill("Consultor de confeitarias");
    await page.getByLabel("Conteúdo *").fill("Você é o Sócio, especialista em confeitarias. Responda em português.");
    await page.getByRole("button", { name: "Criar prompt" }).click();
    await page.getByText("System prompt criado com sucesso").waitFor();
    const created = page.getByRole("listitem", { name: "Consultor de confeitarias" });
    await created.getByRole("switch", { name: "Ativar Consultor de confeitarias" }).click();
    await page.getByText("System prompt ativado com sucesso").waitFor();
    await created.getByText("Ativo", { exact: true }).waitFor();
    expect(await created.getByRole("button", { name: "Excluir" }).isDisabled()).toBe(true);
    await screenshot(page, "admin-prompts-1280");
    await check("admin-prompts-1280");

    await page.getByRole("tab", { name: "Analytics" }).click();
    await page.getByRole("region", { name: "Funil da landing page (teste A/B)" }).waitFor();
    await screenshot(page, "admin-analytics-1280");
    await check("admin-analytics-1280");
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole("tab", { name: "Usuários" }).click();
    await screenshot(page, "admin-375");
    await check("admin-375");
    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
