import type { ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { AuthService } from "@/gen/socio/v1/auth_pb";
import { PlanStep } from "@/gen/socio/v1/business_plan_pb";
import { MessageType, Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { storeTokens } from "@/lib/session";
import { renderApp } from "@/testing/render-app";

const ICONS = ["Target", "TrendingUp", "DollarSign", "Megaphone", "Users", "Scale"];

function api(
  role: Role,
  tier: SubscriptionStatus,
  toggles: { stepId: PlanStep; completed: boolean }[] = [],
  calls: string[] = [],
) {
  const user = { id: "u1", name: "Ana Lima", phoneNumber: "+5511987654321", language: "pt-BR", role, subscriptionStatus: tier };
  let completed = new Set<PlanStep>([PlanStep.IDEA]);
  const plan = () => ({
    overallProgress: Math.round((completed.size * 100) / 6),
    steps: [1, 2, 3, 4, 5, 6].map((id, i) => ({ id, completed: completed.has(id), icon: ICONS[i] })),
    analyses: { swotQuadrantsFilled: 3, scenariosReady: false },
  });
  return (router: ConnectRouter) => {
    router.service(AuthService, { getMe: () => ({ user }) });
    router.service(DashboardService, {
      getDashboard: () => ({
        user,
        businessPlan: plan(),
        recentMessages: [
          { id: "m2", type: MessageType.AI, preview: "Etapa atual: *Jurídico e impostos*. Qual é o seu ticket médio?" },
          { id: "m1", type: MessageType.USER, preview: "Quero abrir uma padaria" },
        ],
        stats: { messagesThisWeek: 7, daysActive: 3, planCompletion: plan().overallProgress },
        whatsappUrl: "https://wa.me/5511900000000",
      }),
      requestConsultationCall: (request) => {
        calls.push(request.preferredTimes);
        return { queued: calls.length === 1 };
      },
      updateDashboardStep: (request) => {
        toggles.push({ stepId: request.stepId, completed: request.completed });
        completed = new Set(completed);
        if (request.completed) completed.add(request.stepId);
        else completed.delete(request.stepId);
        return { businessPlan: plan() };
      },
    });
  };
}

describe("dashboard", () => {
  it("greets the user with their phone, plan badge, progress, messages and real figures", async () => {
    storeTokens("t", "r");
    renderApp("/dashboard", { api: api(Role.USER, SubscriptionStatus.FREE) });
    expect(await screen.findByRole("heading", { name: "Olá, Ana!" })).toBeInTheDocument();
    expect(screen.getByText("(11) 98765-4321")).toBeInTheDocument();
    expect(screen.getByText("Gratuito")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Admin" })).not.toBeInTheDocument();
    expect(screen.getByText("17% concluído")).toBeInTheDocument();
    const messages = screen.getByRole("region", { name: "Mensagens recentes" });
    expect(within(messages).getByText("Consultor IA")).toBeInTheDocument();
    expect(within(messages).getByText("Você")).toBeInTheDocument();
    // WhatsApp's *bold* shows bold, never as asterisks.
    expect(within(messages).getByText("Jurídico e impostos").tagName).toBe("STRONG");
    expect(within(messages).queryByText(/\*/)).toBeNull();
    const stats = screen.getByRole("region", { name: "Resumo" });
    expect(within(stats).getByText("7")).toBeInTheDocument();
    expect(within(stats).getByText("3")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Conversar no WhatsApp" })).toHaveAttribute("href", "https://wa.me/5511900000000");
  });

  it("shows how far the SWOT analysis and the finance scenarios are", async () => {
    storeTokens("t", "r");
    renderApp("/dashboard", { api: api(Role.USER, SubscriptionStatus.PRO) });
    expect(await screen.findByText("3 de 4 quadrantes")).toBeInTheDocument();
    expect(screen.getByText("Análise SWOT (FOFA)")).toBeInTheDocument();
    expect(screen.getByText("faltam o ticket médio e as vendas por mês")).toBeInTheDocument();
  });

  it("shows the Admin button and the Pro badge to an admin on Pro", async () => {
    storeTokens("t", "r");
    renderApp("/dashboard", { api: api(Role.ADMIN, SubscriptionStatus.PRO) });
    expect(await screen.findByRole("link", { name: "Admin" })).toHaveAttribute("href", "/admin");
    expect(screen.getByText("Pro")).toBeInTheDocument();
  });

  it("toggles a step by sending the opposite value, then reloads", async () => {
    storeTokens("t", "r");
    const toggles: { stepId: PlanStep; completed: boolean }[] = [];
    renderApp("/dashboard", { api: api(Role.USER, SubscriptionStatus.PRO, toggles) });
    await userEvent.click(await screen.findByRole("button", { name: /Pesquisa de mercado/ }));
    expect(await screen.findByText("Etapa do plano de negócios atualizada com sucesso")).toBeInTheDocument();
    expect(toggles).toEqual([{ stepId: PlanStep.MARKET, completed: true }]);
    await waitFor(() => expect(screen.getByText("33% concluído")).toBeInTheDocument());
    await userEvent.click(screen.getByRole("button", { name: /Ideia de negócio/ }));
    await waitFor(() => expect(toggles[1]).toEqual({ stepId: PlanStep.IDEA, completed: false }));
  });

  it("lets a Pro user ask for a consultation call with the times that suit them", async () => {
    storeTokens("t", "r");
    const calls: string[] = [];
    renderApp("/dashboard", { api: api(Role.USER, SubscriptionStatus.PRO, [], calls) });
    await userEvent.click(await screen.findByRole("button", { name: "Agendar conversa com um consultor" }));
    const form = screen.getByRole("form", { name: "Pedir uma ligação com um consultor" });
    const ask = within(form).getByRole("button", { name: "Pedir ligação" });
    expect(ask).toBeDisabled();
    await userEvent.type(within(form).getByLabelText("Quando fica bom para você?"), "Terças depois das 14h");
    await userEvent.click(ask);
    expect(await screen.findByText(/Pedido enviado!/)).toBeInTheDocument();
    expect(calls).toEqual(["Terças depois das 14h"]);
  });

  it("does not offer a consultation call on the free plan", async () => {
    storeTokens("t", "r");
    renderApp("/dashboard", { api: api(Role.USER, SubscriptionStatus.FREE) });
    await screen.findByRole("heading", { name: "Olá, Ana!" });
    expect(screen.queryByRole("button", { name: "Agendar conversa com um consultor" })).not.toBeInTheDocument();
  });
});
