import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { BadRequestSchema } from "@/gen/google/rpc/error_details_pb";
import { AuthService } from "@/gen/socio/v1/auth_pb";
import { Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { ResultsService } from "@/gen/socio/v1/results_pb";
import { storeTokens } from "@/lib/session";
import { renderApp } from "@/testing/render-app";

import { parseReais } from "./month-results";

const user = { id: "u1", name: "Ana Lima", phoneNumber: "+5511987654321", language: "pt-BR", role: Role.USER, subscriptionStatus: SubscriptionStatus.PRO };

const reminderUpdates: { monthlyCheckin: boolean; taxReminders: boolean }[] = [];

type Ceiling = { year: number; limit: number; projectedRevenue: number; closed?: boolean; action?: string };

const dashboardReads = { count: 0 };

function api(recorded: { month: string; revenue: number; costs: number; salesCount: number }[], ceiling?: Ceiling) {
  return (router: ConnectRouter) => {
    router.service(AuthService, { getMe: () => ({ user }) });
    router.service(DashboardService, {
      getDashboard: () => {
        dashboardReads.count += 1;
        return { user, businessPlan: { steps: [] }, stats: {}, whatsappUrl: "https://wa.me/5511900000000" };
      },
    });
    router.service(ResultsService, {
      getReminders: () => ({ reminders: reminderUpdates.at(-1) ?? { monthlyCheckin: false, taxReminders: false, stopped: false } }),
      updateReminders: (request) => {
        reminderUpdates.push({ monthlyCheckin: request.monthlyCheckin, taxReminders: request.taxReminders });
        return { reminders: { monthlyCheckin: request.monthlyCheckin, taxReminders: request.taxReminders } };
      },
      listResults: () => ({
        results: recorded.map((r) => ({ ...r, result: r.revenue - r.costs })),
        plan: { revenue: 25000, costs: 18000, result: 7000 },
        biggestGap: recorded.length ? "O maior desvio foi em outubro de 2026: resultado de R$ 6.000,00 contra R$ 7.000,00 previstos." : "",
        ceiling: ceiling ?? (recorded.length
          ? { year: 2026, limit: 81000, toleranceLimit: 97200, revenueSoFar: 21000, projectedRevenue: 96000, crossingMonth: "2026-11", rule: "Se passar do limite em até 20% (até R$ 97.200)…" }
          : undefined),
      }),
      recordMonthResults: (request) => {
        if (request.month > "2026-11") {
          throw new ConnectError("Dados inválidos", Code.InvalidArgument, undefined, [
            { desc: BadRequestSchema, value: create(BadRequestSchema, { fieldViolations: [{ field: "month", description: "month deve ser um mês que já começou" }] }) },
          ]);
        }
        // Recording a month again corrects it (the server's upsert), never a second row.
        const earlier = recorded.findIndex((r) => r.month === request.month);
        if (earlier >= 0) recorded.splice(earlier, 1);
        recorded.unshift({ month: request.month, revenue: request.revenue, costs: request.costs, salesCount: request.salesCount });
        return { result: { month: request.month, revenue: request.revenue, costs: request.costs, salesCount: request.salesCount } };
      },
    });
  };
}

describe("month's results on the dashboard", () => {
  it("shows the months the dashboard's read already carries while the full list is on its way", async () => {
    storeTokens("t", "r");
    const october = { month: "2026-10", revenue: 21000, costs: 15000, salesCount: 840, result: 6000 };
    renderApp("/dashboard", {
      api: (router: ConnectRouter) => {
        router.service(AuthService, { getMe: () => ({ user }) });
        router.service(DashboardService, {
          getDashboard: () => ({ user, businessPlan: { steps: [] }, stats: {}, whatsappUrl: "https://wa.me/5511900000000", results: [october] }),
        });
        router.service(ResultsService, {
          getReminders: () => ({ reminders: { monthlyCheckin: false, taxReminders: false, stopped: false } }),
          // The list never answers here: what shows came with the dashboard.
          listResults: () => new Promise(() => {}),
        });
      },
    });
    const card = await screen.findByRole("region", { name: "Resultados do mês" });
    expect(await within(card).findByRole("img", { name: "Faturamento real × previsto no plano" })).toBeInTheDocument();
    expect(within(card).queryByText(/Registre o faturamento/)).not.toBeInTheDocument();
  });

  it("records a month typed as people write reais and shows it against the plan", async () => {
    storeTokens("t", "r");
    const recorded: { month: string; revenue: number; costs: number; salesCount: number }[] = [];
    renderApp("/dashboard", { api: api(recorded) });
    const card = await screen.findByRole("region", { name: "Resultados do mês" });
    expect(within(card).getByText(/Registre o faturamento/)).toBeInTheDocument();
    const month = within(card).getByLabelText("Mês");
    await userEvent.clear(month);
    await userEvent.type(month, "2026-10");
    await userEvent.type(within(card).getByLabelText("Faturamento (R$)"), "21.000");
    await userEvent.type(within(card).getByLabelText("Custos e despesas (R$)"), "15.000,50");
    await userEvent.type(within(card).getByLabelText("Número de vendas"), "840");
    await userEvent.click(within(card).getByRole("button", { name: "Salvar resultados" }));
    await waitFor(() => expect(recorded).toEqual([{ month: "2026-10", revenue: 21000, costs: 15000.5, salesCount: 840 }]));
    expect(await within(card).findByText(/O maior desvio foi em outubro de 2026/)).toBeInTheDocument();
    expect(within(card).getByRole("img", { name: "Faturamento real × previsto no plano" })).toBeInTheDocument();
    // A MEI's pace against the yearly ceiling, with the month it would be crossed and the rule.
    expect(within(card).getByText(/Teto do MEI: .*96\.000.*81\.000.*novembro de 2026/)).toBeInTheDocument();
    expect(within(card).getByText(/até 20%/)).toBeInTheDocument();
  });

  it("in January tells a MEI whose last year passed the ceiling what to do and by when", async () => {
    storeTokens("t", "r");
    const action = "Seu faturamento de 2026 foi de R$ 90.000,00… O que fazer: 1) comunique o desenquadramento do MEI no Portal do Simples Nacional até 31/12/2026; 2) entregue a DASN-SIMEI de 2026: ela gera o DAS do excesso, R$ 540,00, que vence em 22/02/2027…";
    const closed = { year: 2026, limit: 81000, projectedRevenue: 90000, closed: true, action };
    renderApp("/dashboard", { api: api([{ month: "2026-12", revenue: 7500, costs: 5000, salesCount: 300 }], closed) });
    const card = await screen.findByRole("region", { name: "Resultados do mês" });
    const alert = await within(card).findByRole("alert");
    expect(within(alert).getByText(/Teto do MEI: 2026 fechou em R\$\s?90\.000(,00)?, acima do limite de R\$\s?81\.000/)).toBeInTheDocument();
    expect(within(alert).getByText(/22\/02\/2027/)).toBeInTheDocument();
  });

  it("marks a field the server or the form refuses, in words beside it", async () => {
    storeTokens("t", "r");
    renderApp("/dashboard", { api: api([]) });
    const card = await screen.findByRole("region", { name: "Resultados do mês" });
    const revenue = within(card).getByLabelText("Faturamento (R$)");
    await userEvent.type(revenue, "muitas");
    await userEvent.type(within(card).getByLabelText("Custos e despesas (R$)"), "100");
    await userEvent.click(within(card).getByRole("button", { name: "Salvar resultados" }));
    expect(revenue).toHaveAttribute("aria-invalid", "true");
    expect(within(card).getByText("Digite um valor em reais, como 21.000 ou 1.234,50.")).toBeInTheDocument();
    const month = within(card).getByLabelText("Mês");
    await userEvent.clear(revenue);
    await userEvent.type(revenue, "100");
    await userEvent.clear(month);
    await userEvent.type(month, "2099-01");
    await userEvent.click(within(card).getByRole("button", { name: "Salvar resultados" }));
    expect(await within(card).findByText("Deve ser um mês que já começou")).toBeInTheDocument();
    expect(month).toHaveAttribute("aria-invalid", "true");
  });
});

describe("reminders on the dashboard", () => {
  it("are off until the person turns one on, which is saved as their consent", async () => {
    storeTokens("t", "r");
    renderApp("/dashboard", { api: api([]) });
    const checkin = await screen.findByRole("checkbox", { name: "Pedir os números do mês, no primeiro dia útil" });
    expect(checkin).not.toBeChecked();
    expect(screen.getByRole("checkbox", { name: /prazos de impostos/ })).not.toBeChecked();
    await userEvent.click(checkin);
    await waitFor(() => expect(reminderUpdates).toEqual([{ monthlyCheckin: true, taxReminders: false }]));
    expect(await screen.findByText("Lembretes atualizados")).toBeInTheDocument();
  });
});

describe("reais as people type them", () => {
  it("reads dots as thousands and a comma as the decimal point", () => {
    expect(parseReais("21.000")).toBe(21000);
    expect(parseReais("1.234.567,89")).toBe(1234567.89);
    expect(parseReais("R$ 19,50")).toBe(19.5);
    expect(parseReais("19.5")).toBe(19.5);
    expect(parseReais("muitas")).toBeNaN();
    expect(parseReais("-5")).toBeNaN();
  });

  it("lists the saved months, labels each bar with its value and month, and puts a month back in the form to edit it", async () => {
    storeTokens("t", "r");
    const recorded = [
      { month: "2026-10", revenue: 21000, costs: 15000, salesCount: 840 },
      { month: "2026-09", revenue: 18500.5, costs: 16000, salesCount: 700 },
    ];
    renderApp("/dashboard", { api: api(recorded) });
    const table = await screen.findByRole("table", { name: "Meses registrados" });
    const october = within(table).getByRole("row", { name: /Outubro de 2026/ });
    expect(within(october).getByText(/R\$\s21\.000,00/)).toBeInTheDocument();
    expect(within(october).getByText(/R\$\s6\.000,00/)).toBeInTheDocument();
    const revenueChart = screen.getByRole("img", { name: "Faturamento real × previsto no plano" }).closest("figure")!;
    expect(within(revenueChart as HTMLElement).getByText("out/2026")).toBeInTheDocument();
    expect(within(revenueChart as HTMLElement).getByText(/R\$\s21\smil/)).toBeInTheDocument();
    expect(within(revenueChart as HTMLElement).queryByText("2026-10")).toBeNull();

    await userEvent.click(within(october).getByRole("button", { name: "Editar outubro de 2026" }));
    expect(screen.getByLabelText("Mês")).toHaveValue("2026-10");
    expect(screen.getByLabelText("Faturamento (R$)")).toHaveValue("21.000");
    expect(screen.getByLabelText("Custos e despesas (R$)")).toHaveValue("15.000");
    await userEvent.clear(screen.getByLabelText("Faturamento (R$)"));
    await userEvent.type(screen.getByLabelText("Faturamento (R$)"), "22.500");
    await waitFor(() => expect(dashboardReads.count).toBeGreaterThan(0));
    const readsBefore = dashboardReads.count;
    await userEvent.click(screen.getByRole("button", { name: "Salvar resultados" }));
    await waitFor(() => expect(recorded[0]).toMatchObject({ month: "2026-10", revenue: 22500, costs: 15000, salesCount: 840 }));
    // The recorded months feed the plan's taxes: the plan (and the dashboard showing it) is read again.
    await waitFor(() => expect(dashboardReads.count).toBeGreaterThan(readsBefore));
  });
});
