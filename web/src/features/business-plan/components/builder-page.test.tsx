import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { BadRequestSchema } from "@/gen/google/rpc/error_details_pb";
import { AuthService } from "@/gen/socio/v1/auth_pb";
import { BusinessPlanService, ChangeSource, PlanStatus, PlanStep, ScenarioKind } from "@/gen/socio/v1/business_plan_pb";
import { Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { ResultsService } from "@/gen/socio/v1/results_pb";
import { storeTokens } from "@/lib/session";
import { renderApp } from "@/testing/render-app";

interface Seen {
  /** When set, saves are refused with this field violation, as the server words it. */
  refuse?: { field: string; description: string };
  saves: { step: PlanStep; data: unknown; source: ChangeSource; completed?: boolean }[];
  /** The months recorded on the dashboard (`ListResults`), when the test has any. */
  months?: { month: string; revenue: number; result: number; revenuePercent: number; resultPercent: number }[];
  generated: number;
  deleted: number;
  /** The plan changed after the latest version was made. */
  stale?: boolean;
  /** Nothing invested (no startup costs, no working capital), and a break-even in the thousands. */
  nothingInvested?: boolean;
  /** A Lucro Presumido plan in 2027: the server's price carries the CBS and IBS on top. */
  presumido2027?: boolean;
}

function api(seen: Seen) {
  const user = { id: "u1", name: "Ana", phoneNumber: "+5511987654321", language: "pt-BR", role: Role.USER, subscriptionStatus: SubscriptionStatus.PRO };
  let version = 0;
  const plan = () => ({
    id: "p1",
    status: PlanStatus.IN_PROGRESS,
    progress: 17,
    steps: [1, 2, 3, 4, 5, 6].map((id) => ({ id, completed: id === 1 })),
    ideaData: { businessIdea: "Padaria" },
    financeData: { averageTicket: 19.5, expectedSalesPerMonth: 1000, monthlyFixedCosts: 15000 },
    financeAnalysis: {
      contributionMargin: 15,
      breakEvenSales: seen.nothingInvested ? 1179.2 : 533.3,
      breakEvenRevenue: 13333.33,
      monthlyResult: 7000,
      totalInvestment: seen.nothingInvested ? 0 : 60000,
      paybackMonths: seen.nothingInvested ? undefined : 8.6,
      profitabilityPercent: 28,
      returnPercentPerMonth: seen.nothingInvested ? undefined : 11.67,
      monthlyTaxes: 1573,
      tax: { regime: "simples_nacional", annex: "I", effectiveRatePercent: 6.29, modelled: true, explanation: "Simples Nacional, Anexo I: alíquota efetiva de 6,29 %." },
      warnings: [{ code: "investment_without_funding", message: "O investimento inicial de R$ 60.000,00 ainda não tem de onde vir." }],
      scenarios: [
        { kind: ScenarioKind.PESSIMISTIC, salesPerMonth: 800, monthlyRevenue: 20000, monthlyResult: 4000, paybackMonths: seen.nothingInvested ? undefined : 15 },
        { kind: ScenarioKind.REALISTIC, salesPerMonth: 1000, monthlyRevenue: 25000, monthlyResult: 7000, paybackMonths: 8.6 },
        { kind: ScenarioKind.OPTIMISTIC, salesPerMonth: 1200, monthlyRevenue: 30000, monthlyResult: 10000, paybackMonths: 6 },
      ],
      cashFlow: Array.from({ length: 12 }, (_, i) => ({ month: i + 1, result: 7000, cumulative: -60000 + 7000 * (i + 1) })),
    },
    document: version ? { version, markdown: "# Plano", current: !seen.stale } : undefined,
  });
  return (router: ConnectRouter) => {
    router.service(AuthService, { getMe: () => ({ user }) });
    router.service(ResultsService, {
      listResults: () => ({
        results: (seen.months ?? []).map((m) => ({ ...m, costs: m.revenue - m.result, variance: { revenuePercent: m.revenuePercent, resultPercent: m.resultPercent } })),
        plan: { revenue: 25000, costs: 18000, result: 7000 },
      }),
    });
    router.service(BusinessPlanService, {
      getBusinessPlan: () => ({ businessPlan: plan() }),
      syncUpdate: (request) => {
        seen.saves.push({ step: request.step, data: request.data, source: request.source, completed: request.completed });
        if (seen.refuse) {
          throw new ConnectError(`Dados inválidos: ${seen.refuse.description}`, Code.InvalidArgument, undefined, [
            { desc: BadRequestSchema, value: create(BadRequestSchema, { fieldViolations: [seen.refuse] }) },
          ]);
        }
        return { businessPlan: plan() };
      },
      generateBusinessPlan: () => {
        seen.generated += 1;
        version += 1;
        return { businessPlan: plan(), document: { version, markdown: "# Plano", current: !seen.stale } };
      },
      deleteBusinessPlan: () => {
        seen.deleted += 1;
        return {};
      },
      // The server's markup divisor for a plan without taxes or fixed costs (plan/money/pricing.rs).
      price: (request) => {
        if (seen.presumido2027) {
          // tests/api/regimes.rs: R$ 370 at 20 % margin, IRPJ + CSLL + ISS 12,68 % inside the price;
          // the CBS 8,7 % and IBS 0,1 % on the price without its 5 % ISS, on the invoice.
          return {
            price: 549.61,
            divisor: 0.6732,
            parts: [{ code: "cost", name: "Custo", percent: 67.32, amount: 370 }],
            taxesOnTop: [
              { code: "cbs", name: "CBS", percent: 8.27, amount: 45.43 },
              { code: "ibs", name: "IBS", percent: 0.1, amount: 0.52 },
            ],
            invoiceTotal: 595.56,
            explanation: "Na nota: R$ 549,61 + CBS/IBS = R$ 595,56",
          };
        }
        const shares = [["card_fee", "Taxas de cartão", request.cardFeePercent ?? 0], ["margin", "Margem", request.targetMarginPercent]] as const;
        const divisor = 1 - shares.reduce((sum, [, , p]) => sum + p / 100, 0);
        if (divisor <= 0) {
          const violation = { field: "targetMarginPercent", description: "targetMarginPercent deve ser uma margem que deixe parte do preço para o custo" };
          throw new ConnectError(`Dados inválidos: ${violation.description}`, Code.InvalidArgument, undefined, [
            { desc: BadRequestSchema, value: create(BadRequestSchema, { fieldViolations: [violation] }) },
          ]);
        }
        const price = Math.round((request.unitCost / divisor) * 100) / 100;
        return {
          price,
          divisor,
          parts: [
            { code: "cost", name: "Custo", percent: Math.round((request.unitCost / price) * 10000) / 100, amount: request.unitCost },
            ...shares.filter(([, , p]) => p > 0).map(([code, name, p]) => ({ code, name, percent: p, amount: Math.round(price * p) / 100 })),
          ],
          warnings: ["Sem o plano financeiro, o preço não inclui impostos nem custos fixos."],
          explanation: `Preço = custo ÷ (1 − partes do preço) = R$ 30,00 ÷ ${divisor.toFixed(4).replace(".", ",")}`,
        };
      },
    });
  };
}

describe("the selling-price calculator", () => {
  it("prices as the owner types, shows the parts as a bar and keeps the price in the plan", async () => {
    storeTokens("t", "r");
    const seen: Seen = { saves: [], generated: 0, deleted: 0 };
    renderApp("/business-plan", { api: api(seen) });
    const calculator = await screen.findByRole("region", { name: "Preço de venda" });
    await userEvent.type(within(calculator).getByLabelText("Custo de uma unidade (R$)"), "30");
    await userEvent.type(within(calculator).getByLabelText("Taxa do cartão (%)"), "4");
    await userEvent.type(within(calculator).getByLabelText("Margem desejada (%)"), "25");
    // 30 ÷ (1 − 0,04 − 0,25) = R$ 42,25, with its parts in words and as a bar.
    expect(await within(calculator).findByText(/Preço de venda: R\$\s42,25/)).toBeInTheDocument();
    expect(within(calculator).getByRole("img", { name: /Custo R\$\s30,00.*Margem R\$\s10,56/ })).toBeInTheDocument();
    expect(within(calculator).getByText(/não inclui impostos/)).toBeInTheDocument();
    await userEvent.type(within(calculator).getByLabelText("Produto ou serviço"), "Bolo de chocolate");
    await userEvent.click(within(calculator).getByRole("button", { name: "Guardar no plano" }));
    await waitFor(() => expect(seen.saves.at(-1)?.step).toBe(PlanStep.MARKETING));
    expect(seen.saves.at(-1)?.data).toEqual({ prices: [{ name: "Bolo de chocolate", request: { unitCost: 30, cardFeePercent: 4, targetMarginPercent: 25, includeFixedCosts: true } }] });
    // Shares that leave nothing for the cost: the server's words, beside the margin.
    const margin = within(calculator).getByLabelText("Margem desejada (%)");
    await userEvent.clear(margin);
    await userEvent.type(margin, "99");
    expect(await within(calculator).findByText(/deixe parte do preço para o custo/)).toBeInTheDocument();
    expect(margin).toHaveAttribute("aria-invalid", "true");
  });
});

describe("the selling-price calculator in 2027", () => {
  it("shows what the invoice totals once the CBS and IBS go on top of the price", async () => {
    storeTokens("t", "r");
    renderApp("/business-plan", { api: api({ saves: [], generated: 0, deleted: 0, presumido2027: true }) });
    const calculator = await screen.findByRole("region", { name: "Preço de venda" });
    await userEvent.type(within(calculator).getByLabelText("Custo de uma unidade (R$)"), "370");
    await userEvent.type(within(calculator).getByLabelText("Margem desejada (%)"), "20");
    expect(await within(calculator).findByText(/Preço de venda: R\$\s549,61/)).toBeInTheDocument();
    expect(
      within(calculator).getByText(/R\$\s549,61 \+ CBS R\$\s45,43 \+ IBS R\$\s0,52 \(CBS\/IBS por fora do preço\) = R\$\s595,56 na nota/),
    ).toBeInTheDocument();
  });
});

describe("business plan builder", () => {
  it("shows the six sections with the saved data and the computed numbers", async () => {
    storeTokens("t", "r");
    renderApp("/business-plan", { api: api({ saves: [], generated: 0, deleted: 0 }) });
    expect(await screen.findByRole("heading", { name: "Construtor do plano de negócios" })).toBeInTheDocument();
    for (const name of ["Ideia de negócio", "Pesquisa de mercado", "Planejamento financeiro", "Estratégia de marketing", "Recursos humanos", "Estrutura legal"]) {
      expect(screen.getByRole("heading", { name, level: 2 })).toBeInTheDocument();
    }
    expect(screen.getByLabelText("Qual é a ideia do negócio?")).toHaveValue("Padaria");
    for (const label of ["Forças (SWOT): o que o negócio faz melhor", "Fraquezas (SWOT): onde precisa melhorar", "Oportunidades (SWOT): o que o mercado oferece", "Ameaças (SWOT): o que pode atrapalhar"]) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByText("534 vendas/mês")).toBeInTheDocument();
    expect(screen.getAllByText(/R\$\s7\.000,00/)).toHaveLength(2); // the month's result, and the realistic scenario
    const chart = screen.getByRole("img", { name: "Saldo acumulado em 12 meses" });
    // Its scale and months are on it, and a sentence says what it shows.
    expect(within(chart).getByText("R$ 53 mil", { selector: "text", normalizer: (s) => s.replace(/\s/g, " ") })).toBeInTheDocument();
    expect(within(chart).getByText("-R$ 53 mil", { selector: "text", normalizer: (s) => s.replace(/\s/g, " ") })).toBeInTheDocument();
    expect(within(chart).getByText("12", { selector: "text" })).toBeInTheDocument();
    expect(chart.closest("figure")).toHaveTextContent(/Saldo no mês 12: R\$\s24\.000; positivo a partir do mês 9\./);
    // The taxes between revenue and costs, how they were worked out, and what to check.
    expect(screen.getByText("Impostos por mês").nextElementSibling).toHaveTextContent(/R\$\s1\.573,00/);
    expect(screen.getByText("Alíquota efetiva").nextElementSibling).toHaveTextContent("6,3 %");
    expect(screen.getByText(/Anexo I: alíquota efetiva de 6,29 %/)).toBeInTheDocument();
    expect(screen.getByText("Vale conferir").closest("[role=status]")).toHaveTextContent("ainda não tem de onde vir");
    expect(screen.getByText("28 %")).toBeInTheDocument();
    expect(screen.getByText("11,7 %")).toBeInTheDocument();
    const scenarios = screen.getByRole("table", { name: "Cenários: vendas 20% abaixo, como esperado e 20% acima" });
    const pessimistic = within(scenarios).getByRole("row", { name: /Pessimista/ });
    expect(pessimistic).toHaveTextContent(/800.*R\$\s4\.000,00.*15 meses/);
  });

  it("says there is nothing to recover when nothing was invested, not '0 meses' or 'não alcançado', and reads thousands", async () => {
    storeTokens("t", "r");
    renderApp("/business-plan", { api: api({ saves: [], generated: 0, deleted: 0, nothingInvested: true }) });
    expect(await screen.findByText("1.180 vendas/mês")).toBeInTheDocument();
    expect(screen.getByText("Retorno do investimento", { selector: "dt" }).nextElementSibling).toHaveTextContent("sem investimento a recuperar");
    expect(screen.getByText("Rentabilidade (ao mês)").nextElementSibling).toHaveTextContent("sem investimento a recuperar");
    const scenarios = screen.getByRole("table", { name: "Cenários: vendas 20% abaixo, como esperado e 20% acima" });
    expect(within(scenarios).getByRole("row", { name: /Pessimista/ })).toHaveTextContent("sem investimento a recuperar");
    expect(screen.queryByText(/não alcançado|0 meses/)).not.toBeInTheDocument();
  });

  it("saves what the user types as a builder change", async () => {
    storeTokens("t", "r");
    const seen: Seen = { saves: [], generated: 0, deleted: 0 };
    renderApp("/business-plan", { api: api(seen) });
    const industry = await screen.findByLabelText("Setor");
    await userEvent.type(industry, "Alimentação");
    await waitFor(() => expect(seen.saves.length).toBe(1), { timeout: 3000 });
    expect(seen.saves[0]).toMatchObject({ step: PlanStep.MARKET, source: ChangeSource.BUILDER });
    expect(seen.saves[0]?.data).toMatchObject({ industry: "Alimentação" });
    expect(await screen.findByText("Salvo")).toBeInTheDocument();
  });

  it("shows saved figures the Brazilian way and reads them typed that way", async () => {
    storeTokens("t", "r");
    const seen: Seen = { saves: [], generated: 0, deleted: 0 };
    renderApp("/business-plan", { api: api(seen) });
    expect(await screen.findByLabelText("Ticket médio por venda (R$)")).toHaveValue("19,50");
    expect(screen.getByLabelText("Custos fixos por mês (R$)")).toHaveValue("15.000");
    const startup = screen.getByLabelText("Investimento inicial (R$)");
    await userEvent.type(startup, "R$ 1.500,50");
    await waitFor(() => expect(seen.saves.length).toBe(1), { timeout: 3000 });
    expect(seen.saves[0]?.data).toMatchObject({ startupCosts: 1500.5, averageTicket: 19.5, monthlyFixedCosts: 15000 });
    await userEvent.tab();
    expect(startup).toHaveValue("1.500,50");
  });

  it("says next to a money field that words are not an amount, and sends nothing", async () => {
    storeTokens("t", "r");
    const seen: Seen = { saves: [], generated: 0, deleted: 0 };
    renderApp("/business-plan", { api: api(seen) });
    const fixed = await screen.findByLabelText("Custos fixos por mês (R$)");
    await userEvent.clear(fixed);
    await userEvent.type(fixed, "muitas");
    await waitFor(() => expect(fixed).toHaveAttribute("aria-invalid", "true"), { timeout: 3000 });
    expect(fixed).toHaveAccessibleDescription("Digite um valor em reais, como 1.500 ou 19,50.");
    expect(seen.saves).toEqual([]);
    await userEvent.clear(fixed);
    await userEvent.type(fixed, "18.000");
    await waitFor(() => expect(seen.saves.length).toBe(1), { timeout: 3000 });
    expect(fixed).toHaveAttribute("aria-invalid", "false");
    expect(seen.saves[0]?.data).toMatchObject({ monthlyFixedCosts: 18000 });
  });

  it("shows the server's words under the field it refused", async () => {
    storeTokens("t", "r");
    const refuse = { field: "marketData.industry", description: "marketData.industry deve ter no máximo 80 caracteres" };
    const seen: Seen = { refuse, saves: [], generated: 0, deleted: 0 };
    renderApp("/business-plan", { api: api(seen) });
    const industry = await screen.findByLabelText("Setor");
    await userEvent.type(industry, "Alimentação");
    await waitFor(() => expect(industry).toHaveAttribute("aria-invalid", "true"), { timeout: 3000 });
    expect(industry).toHaveAccessibleDescription("Deve ter no máximo 80 caracteres");
  });

  it("generates the complete plan, then offers the downloads", async () => {
    storeTokens("t", "r");
    const seen: Seen = { saves: [], generated: 0, deleted: 0 };
    renderApp("/business-plan", { api: api(seen) });
    await userEvent.click(await screen.findByRole("button", { name: "Gerar plano completo" }));
    expect(await screen.findByText("Plano de negócios gerado com sucesso")).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Baixar PDF" })).toBeInTheDocument();
    expect(seen.generated).toBe(1);
    expect(screen.getByText("Versão 1 do plano completo")).toBeInTheDocument();
    expect(screen.queryByText(/desatualizada/)).not.toBeInTheDocument();
  });

  it("says when the latest version is out of date, and that downloading makes the current one", async () => {
    storeTokens("t", "r");
    const seen: Seen = { saves: [], generated: 0, deleted: 0, stale: true };
    renderApp("/business-plan", { api: api(seen) });
    await userEvent.click(await screen.findByRole("button", { name: "Gerar plano completo" }));
    expect(await screen.findByText(/desatualizada: o download gera a versão atual/)).toBeInTheDocument();
  });

  it("shows the months recorded on the dashboard beside what the finance step expects", async () => {
    storeTokens("t", "r");
    const months = [{ month: "2026-10", revenue: 21000, result: 6000, revenuePercent: -16, resultPercent: -14.3 }];
    renderApp("/business-plan", { api: api({ saves: [], generated: 0, deleted: 0, months }) });
    const row = await screen.findByRole("row", { name: /Outubro de 2026/ });
    expect(row).toHaveTextContent(/R\$\s21\.000.*previsto R\$\s25\.000 \(-16 %\)/);
    expect(row).toHaveTextContent(/R\$\s6\.000.*previsto R\$\s7\.000 \(-14,3 %\)/);
  });
});
