import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";

import {
  AdminService,
  type AdminUser,
  AdminUserSchema,
  BusinessPlanStatus,
  SubscriptionFilter,
  type ListUsersRequest,
} from "@/gen/socio/v1/admin_pb";
import { AuthService } from "@/gen/socio/v1/auth_pb";
import { ChatMessageType, Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { type SystemPrompt, SystemPromptSchema, SystemPromptService } from "@/gen/socio/v1/system_prompt_pb";
import { storeTokens } from "@/lib/session";
import { renderApp } from "@/testing/render-app";

import { exportWindow } from "./user-dialog";

function person(n: number): AdminUser {
  return create(AdminUserSchema, {
    id: `${String(n).padStart(8, "0")}-aaaa-bbbb-cccc-dddddddddddd`,
    name: `Pessoa ${n}`,
    phoneNumber: `+55119876500${String(n).padStart(2, "0")}`,
    language: "pt-BR",
    subscriptionStatus: n % 4 === 0 ? SubscriptionStatus.PRO : SubscriptionStatus.FREE,
    role: Role.USER,
    totalMessages: n,
    businessPlanStatus: BusinessPlanStatus.IN_PROGRESS,
    planCompletionPercentage: 33,
    createdAt: timestampFromDate(new Date("2026-11-01T12:00:00Z")),
  });
}

interface Backend {
  listRequests: ListUsersRequest[];
  users: AdminUser[];
  chat: { id: string; type: ChatMessageType; content: string }[];
  prompts: SystemPrompt[];
  actions: string[];
  failList?: boolean;
  /** Facts past their period (the January DAS before the new year's values). */
  expiredFacts?: number;
}

function backend(overrides: Partial<Backend> = {}): Backend {
  return {
    listRequests: [],
    users: Array.from({ length: 45 }, (_, i) => person(i + 1)),
    chat: [],
    prompts: [
      create(SystemPromptSchema, { id: "p1", name: "padrao", title: "Consultor padrão", content: "Você é o Sócio.", isActive: true, version: 2 }),
      create(SystemPromptSchema, { id: "p2", name: "direto", title: "Consultor direto", content: "Seja breve.", isActive: false, version: 1 }),
    ],
    actions: [],
    ...overrides,
  };
}

function api(b: Backend) {
  return (router: ConnectRouter) => {
    router.service(AuthService, {
      getMe: () => ({ user: { id: "admin", name: "Ada", phoneNumber: "+5531999990000", language: "pt-BR", role: Role.ADMIN, subscriptionStatus: SubscriptionStatus.PRO } }),
    });
    router.service(AdminService, {
      listFacts: () => ({
        today: "2027-01-05",
        expired: b.expiredFacts ?? 0,
        facts: Array.from({ length: b.expiredFacts ?? 0 }, (_, i) => ({
          id: i === 0 ? "mei.das" : "taxes.meiDas",
          status: "expired",
          validUntil: "2026-12-31",
        })),
      }),
      getAdminStats: () => ({
        stats: { totalUsers: 45, activeUsers: 30, proUsers: 11, totalMessages: 1035, averageMessagesPerUser: 23, usersWithBusinessPlans: 20, completedBusinessPlans: 4 },
      }),
      listUsers: (request) => {
        b.listRequests.push(request);
        if (b.failList && request.subscriptionStatus === SubscriptionFilter.PRO) throw new ConnectError("down", Code.Unavailable);
        const matching = b.users.filter(
          (u) =>
            (request.subscriptionStatus !== SubscriptionFilter.PRO || u.subscriptionStatus === SubscriptionStatus.PRO) &&
            (request.subscriptionStatus !== SubscriptionFilter.FREE || u.subscriptionStatus === SubscriptionStatus.FREE) &&
            u.name.toLowerCase().includes(request.search.toLowerCase()),
        );
        const page = request.page || 1;
        return {
          users: matching.slice((page - 1) * 20, page * 20),
          total: matching.length,
          totalPages: Math.ceil(matching.length / 20),
          page,
        };
      },
      getUser: (request) => ({
        user: b.users.find((u) => u.id === request.id),
        results: [{ month: "2026-10", revenue: 21000, costs: 15000, salesCount: 840, result: 6000, plan: { revenue: 25000, costs: 18000, result: 7000 } }],
      }),
      getUserBusinessPlan: () => ({}),
      getChatHistory: () => ({
        messages: b.chat.map((m) => ({ ...m, timestamp: timestampFromDate(new Date("2026-11-20T15:00:00Z")) })),
        total: b.chat.length,
        totalPages: b.chat.length ? 1 : 0,
        page: 1,
      }),
      setUserSubscription: (request) => {
        b.actions.push(`tier:${request.id}:${request.subscriptionStatus}`);
        const user = b.users.find((u) => u.id === request.id)!;
        user.subscriptionStatus = request.subscriptionStatus;
        return { user };
      },
      deleteUser: (request) => {
        b.actions.push(`delete:${request.id}`);
        b.users = b.users.filter((u) => u.id !== request.id);
        return {};
      },
      exportUserData: (request) => ({ downloadUrl: `http://localhost:8080/api/admin/exports/${request.id}?sig=x` }),
      getAnalytics: () => ({
        funnel: [
          { variant: "A", landingViews: 200, checkoutStarts: 20, proConversions: 5 },
          { variant: "B", landingViews: 100, checkoutStarts: 30, proConversions: 9 },
        ],
        proConversionsElsewhere: 4,
        messagesPerDay: [{ day: "2026-11-20", count: 12 }, { day: "2026-11-21", count: 30 }],
        failedSendsPerDay: [{ day: "2026-11-20", count: 0 }, { day: "2026-11-21", count: 1 }],
        reminders: { checkinsSent: 14, checkinsAnswered: 9, remindersSent: 20, stopped: 2 },
      }),
      listFailedMessages: () => ({
        messages: [{ id: "f1", userId: "u", phoneNumber: "+5511987650001", content: "Olá!", error: "131047: Re-engagement message" }],
        total: 1,
        totalPages: 1,
      }),
    });
    router.service(SystemPromptService, {
      listSystemPrompts: () => ({ prompts: b.prompts }),
      createSystemPrompt: (request) => {
        b.actions.push(`create:${request.name}:${request.title}:${request.isActive}`);
        const { name, title, description, content, isActive } = request;
        const prompt = create(SystemPromptSchema, { id: "p3", version: 1, name, title, description, content, isActive });
        b.prompts = [prompt, ...b.prompts.map((p) => (request.isActive ? { ...p, isActive: false } : p))];
        return { prompt };
      },
      updateSystemPrompt: (request) => {
        b.actions.push(`update:${request.id}:${request.title}`);
        const { name, title, description, content, isActive } = request;
        b.prompts = b.prompts.map((p) => (p.id === request.id ? { ...p, name, title, description, content, isActive, version: p.version + 1 } : p));
        return { prompt: b.prompts.find((p) => p.id === request.id) };
      },
      activateSystemPrompt: (request) => {
        b.actions.push(`activate:${request.id}`);
        b.prompts = b.prompts.map((p) => ({ ...p, isActive: p.id === request.id }));
        return { prompt: b.prompts.find((p) => p.id === request.id) };
      },
      deleteSystemPrompt: (request) => {
        b.actions.push(`delete-prompt:${request.id}`);
        b.prompts = b.prompts.filter((p) => p.id !== request.id);
        return {};
      },
    });
  };
}

function open(b: Backend) {
  storeTokens("t", "r");
  return renderApp("/admin", { api: api(b) });
}

afterEach(() => vi.restoreAllMocks());

describe("admin panel", () => {
  it("shows the header, the four figures and the first page of users", async () => {
    const b = backend();
    open(b);
    expect(await screen.findByRole("heading", { name: "Painel Administrativo" })).toBeInTheDocument();
    expect(screen.getByText("Administrador")).toBeInTheDocument();
    const stats = screen.getByRole("region", { name: "Números do serviço" });
    await waitFor(() => expect(within(stats).getByText("45")).toBeInTheDocument());
    expect(within(stats).getByText("24,4% dos usuários")).toBeInTheDocument();
    expect(within(stats).getByText("23,0 por usuário")).toBeInTheDocument();
    const table = await screen.findByRole("table");
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(21));
    expect(within(table).getByText("00000001")).toBeInTheDocument();
    expect(within(table).getByText("(11) 98765-0001")).toBeInTheDocument();
    expect(screen.getByText("45 usuários")).toBeInTheDocument();
    expect(screen.getByText("Página 1 de 3")).toBeInTheDocument();
  });

  it("warns the admins while business facts are past their period, and says nothing otherwise", async () => {
    open(backend({ expiredFacts: 2 }));
    const banner = await screen.findByRole("alert");
    expect(banner).toHaveTextContent("2 informações do negócio passaram da validade");
    expect(banner).toHaveTextContent("mei.das");
    expect(banner).toHaveTextContent("válida até 2026-12-31");
    expect(banner).toHaveTextContent("SOCIO_FACTS_FILE");
  });

  it("shows no facts banner while every fact holds", async () => {
    open(backend());
    await screen.findByRole("heading", { name: "Painel Administrativo" });
    await waitFor(() => expect(within(screen.getByRole("region", { name: "Números do serviço" })).getByText("45")).toBeInTheDocument());
    expect(screen.queryByText(/passaram da validade/)).not.toBeInTheDocument();
  });

  it("pages through users and goes back to page 1 when the filter or the search changes", async () => {
    const b = backend();
    open(b);
    await userEvent.click(await screen.findByRole("button", { name: "Próxima" }));
    expect(await screen.findByText("Página 2 de 3")).toBeInTheDocument();
    expect(b.listRequests.at(-1)?.page).toBe(2);

    await userEvent.selectOptions(screen.getByLabelText("Filtrar por plano"), "Pro");
    await waitFor(() => expect(b.listRequests.at(-1)).toMatchObject({ subscriptionStatus: SubscriptionFilter.PRO, page: 1 }));
    expect(await screen.findByText("11 usuários")).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Paginação" })).not.toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText("Filtrar por plano"), "Todos");
    await userEvent.click(await screen.findByRole("button", { name: "Próxima" }));
    await userEvent.type(screen.getByPlaceholderText("Buscar por nome, telefone ou usuário do WhatsApp"), "Pessoa 4");
    await waitFor(() => expect(b.listRequests.at(-1)).toMatchObject({ search: "Pessoa 4", page: 1 }));
    expect(await screen.findByText("7 usuários")).toBeInTheDocument();
  });

  it("says the filter failed when the list cannot be loaded after a change", async () => {
    open(backend({ failList: true }));
    await screen.findByText("45 usuários");
    await userEvent.selectOptions(screen.getByLabelText("Filtrar por plano"), "Pro");
    expect(await screen.findByText("Erro ao atualizar o filtro")).toBeInTheDocument();
    expect(screen.getByRole("option", { name: "Erro no filtro - recarregue a página" })).toBeInTheDocument();
  });

  it("opens a user's details with their conversation, sets Pro, exports and deletes after confirming", async () => {
    const b = backend({ chat: [{ id: "m1", type: ChatMessageType.USER, content: "Quero abrir uma padaria" }, { id: "m2", type: ChatMessageType.ASSISTANT, content: "Ótimo! Qual o bairro?" }] });
    const opened = vi.spyOn(exportWindow, "open").mockImplementation(() => null);
    open(b);
    await userEvent.click(await screen.findByRole("button", { name: "Ver detalhes: Pessoa 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Detalhes do usuário" });
    expect(await within(dialog).findByText("Quero abrir uma padaria")).toBeInTheDocument();
    expect(within(dialog).getByText(/Consultor IA/)).toBeInTheDocument();
    const results = within(dialog).getByRole("region", { name: "Resultados registrados" });
    expect(results).toHaveTextContent(/Outubro de 2026: faturamento R\$\s21\.000, resultado R\$\s6\.000 \(plano: R\$\s7\.000\)/);

    await userEvent.click(within(dialog).getByRole("button", { name: "Mudar para Pro" }));
    expect(await screen.findByText("Usuário atualizado para Pro")).toBeInTheDocument();
    expect(b.actions).toContain(`tier:00000001-aaaa-bbbb-cccc-dddddddddddd:${SubscriptionStatus.PRO}`);
    expect(await within(dialog).findByRole("button", { name: "Mudar para Free" })).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole("button", { name: "Exportar dados" }));
    await waitFor(() => expect(opened).toHaveBeenCalledWith(expect.stringContaining("/api/admin/exports/00000001")));

    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir usuário" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm).toHaveTextContent("Tem certeza que deseja excluir este usuário? Esta ação não pode ser desfeita.");
    await userEvent.click(within(confirm).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByText("Usuário excluído com sucesso")).toBeInTheDocument();
    expect(b.actions).toContain("delete:00000001-aaaa-bbbb-cccc-dddddddddddd");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Detalhes do usuário" })).not.toBeInTheDocument());
  });

  it("says so when a user has no messages", async () => {
    open(backend());
    await userEvent.click(await screen.findByRole("button", { name: "Ver detalhes: Pessoa 2" }));
    expect(await screen.findByText("Nenhuma mensagem encontrada")).toBeInTheDocument();
  });

  it("creates a prompt after checking the required fields, activates another and refuses to delete the active one", async () => {
    const b = backend();
    open(b);
    await userEvent.click(await screen.findByRole("tab", { name: "System Prompts" }));
    await userEvent.click(await screen.findByRole("button", { name: "Criar prompt" }));
    expect(screen.getAllByText("Obrigatório")).toHaveLength(3);
    expect(b.actions).toEqual([]);

    expect(screen.getByLabelText("Conteúdo *")).toHaveAttribute("rows", "15");
    expect(screen.getByLabelText("Descrição")).toHaveAttribute("rows", "3");
    await userEvent.type(screen.getByLabelText("Nome *"), "vendas");
    await userEvent.type(screen.getByLabelText("Título *"), "Consultor de vendas");
    await userEvent.type(screen.getByLabelText("Conteúdo *"), "Foque em vendas.");
    await userEvent.click(screen.getByRole("switch", { name: "Definir como prompt ativo" }));
    await userEvent.click(screen.getByRole("button", { name: "Criar prompt" }));
    expect(await screen.findByText("System prompt criado com sucesso")).toBeInTheDocument();
    expect(b.actions).toEqual(["create:vendas:Consultor de vendas:true"]);
    const created = await screen.findByRole("listitem", { name: "Consultor de vendas" });
    expect(within(created).getByText("Ativo")).toBeInTheDocument();
    expect(within(created).getByRole("button", { name: "Excluir" })).toBeDisabled();

    const direct = screen.getByRole("listitem", { name: "Consultor direto" });
    await userEvent.click(within(direct).getByRole("switch", { name: "Ativar Consultor direto" }));
    expect(await screen.findByText("System prompt ativado com sucesso")).toBeInTheDocument();
    expect(b.actions).toContain("activate:p2");

    const standard = screen.getByRole("listitem", { name: "Consultor padrão" });
    await userEvent.click(within(standard).getByRole("button", { name: "Excluir" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm).toHaveTextContent('Tem certeza que deseja excluir "Consultor padrão"? Esta ação não pode ser desfeita.');
    await userEvent.click(within(confirm).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByText("System prompt excluído com sucesso")).toBeInTheDocument();
    expect(b.actions).toContain("delete-prompt:p1");
  });

  it("edits a prompt in the same form", async () => {
    const b = backend();
    open(b);
    await userEvent.click(await screen.findByRole("tab", { name: "System Prompts" }));
    const direct = await screen.findByRole("listitem", { name: "Consultor direto" });
    await userEvent.click(within(direct).getByRole("button", { name: "Editar" }));
    const title = screen.getByLabelText("Título *");
    expect(title).toHaveValue("Consultor direto");
    await userEvent.clear(title);
    await userEvent.type(title, "Consultor objetivo");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("System prompt atualizado com sucesso")).toBeInTheDocument();
    expect(b.actions).toEqual(["update:p2:Consultor objetivo"]);
    const edited = await screen.findByRole("listitem", { name: "Consultor objetivo" });
    expect(within(edited).getByText(/versão 2/)).toBeInTheDocument();
  });

  it("shows the A/B funnel with conversion rates, messages per day and failed sends", async () => {
    open(backend());
    await userEvent.click(await screen.findByRole("tab", { name: "Analytics" }));
    const funnel = await screen.findByRole("region", { name: "Funil da landing page (teste A/B)" });
    const rowB = within(funnel).getByRole("row", { name: /^B/ });
    expect(rowB).toHaveTextContent("100");
    expect(rowB).toHaveTextContent("30 (30,0%)");
    expect(rowB).toHaveTextContent("9,0%");
    expect(within(funnel).getByText(/E 4 assinaturas Pro de fora da landing page/)).toBeInTheDocument();
    expect(screen.getByText("42 no período")).toBeInTheDocument();
    expect(screen.getByText("131047: Re-engagement message")).toBeInTheDocument();
    const reminders = screen.getByRole("region", { name: "Lembretes e check-ins" });
    expect(within(reminders).getByText("Check-ins respondidos").nextElementSibling).toHaveTextContent("9");
    expect(within(reminders).getByText("Pessoas que pediram PARAR").nextElementSibling).toHaveTextContent("2");
  });
});
