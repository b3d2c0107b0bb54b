import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { AuthService } from "@/gen/socio/v1/auth_pb";
import { ChatMessageType, Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { ConsultantService } from "@/gen/socio/v1/consultant_pb";
import { storeTokens } from "@/lib/session";
import { renderApp } from "@/testing/render-app";

const user = { id: "u1", name: "Ana", phoneNumber: "+5511987654321", language: "pt-BR", role: Role.USER, subscriptionStatus: SubscriptionStatus.PRO };

function api(options: { sent?: string[]; proOnly?: boolean } = {}) {
  const stored = [
    { id: "m1", type: ChatMessageType.USER, content: "Quero abrir uma padaria" },
    { id: "m2", type: ChatMessageType.ASSISTANT, content: "Ótimo! Em qual bairro?" },
  ];
  return (router: ConnectRouter) => {
    router.service(AuthService, { getMe: () => ({ user }) });
    router.service(ConsultantService, {
      listChatMessages: () => ({ messages: stored, total: stored.length, totalPages: 1 }),
      async *chat(request) {
        if (options.proOnly) throw new ConnectError("Pro only", Code.FailedPrecondition);
        options.sent?.push(request.text);
        const question = { id: "m3", type: ChatMessageType.USER, content: request.text };
        yield { event: { case: "userMessage" as const, value: question } };
        yield { event: { case: "delta" as const, value: "Vila " } };
        yield { event: { case: "delta" as const, value: "Mariana é uma boa escolha." } };
        const reply = { id: "m4", type: ChatMessageType.ASSISTANT, content: "Vila Mariana é uma boa escolha." };
        stored.push(question, reply);
        yield { event: { case: "reply" as const, value: reply } };
      },
    });
  };
}

describe("web chat", () => {
  it("shows the conversation and streams the consultant's answer to a new message", async () => {
    storeTokens("t", "r");
    const sent: string[] = [];
    renderApp("/chat", { api: api({ sent }) });
    expect(await screen.findByText("Quero abrir uma padaria")).toBeInTheDocument();
    expect(screen.getAllByText(/Consultor IA/)).toHaveLength(1);
    await userEvent.type(screen.getByLabelText("Sua mensagem"), "Na Vila Mariana{Enter}");
    expect(await screen.findByText("Vila Mariana é uma boa escolha.")).toBeInTheDocument();
    expect(sent).toEqual(["Na Vila Mariana"]);
    await waitFor(() => expect(screen.getAllByText("Vila Mariana é uma boa escolha.")).toHaveLength(1));
    expect(screen.getByLabelText("Sua mensagem")).toHaveValue("");
  });

  it("offers Pro to a free user who tries to send a message", async () => {
    storeTokens("t", "r");
    renderApp("/chat", { api: api({ proOnly: true }) });
    await userEvent.type(await screen.findByLabelText("Sua mensagem"), "Oi{Enter}");
    expect(await screen.findByText("A conversa com o consultor de IA faz parte do plano Pro.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Assinar o Pro" })).toHaveAttribute("href", "/checkout");
  });
});
