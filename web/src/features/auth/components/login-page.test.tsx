import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { ErrorInfoSchema, RetryInfoSchema } from "@/gen/google/rpc/error_details_pb";
import { AuthService, WhatsAppLoginStatus } from "@/gen/socio/v1/auth_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { renderApp } from "@/testing/render-app";

const ANA = { id: "u1", name: "Ana Lima", phoneNumber: "+5511987654321", language: "pt-BR", role: Role.USER, subscriptionStatus: SubscriptionStatus.FREE };

interface Script {
  sendCode?: (phoneNumber: string) => Promise<object> | object;
  verifyCode?: (code: string) => object;
  /** How the login by message stands at each ask, in order (the last one repeats). */
  whatsappLogin?: object[];
}

function authApi(
  script: Script,
  seen: { sendCode: string[]; verifyCode: string[]; starts?: number } = { sendCode: [], verifyCode: [] },
) {
  return (router: ConnectRouter) =>
    router.service(AuthService, {
      sendCode: async (request) => {
        seen.sendCode.push(request.phoneNumber);
        return (await script.sendCode?.(request.phoneNumber)) ?? { expiresInSeconds: 600, resendAfterSeconds: 60 };
      },
      verifyCode: (request) => {
        seen.verifyCode.push(request.verificationCode);
        return script.verifyCode?.(request.verificationCode) ?? { token: "access-1", refreshToken: "refresh-1", user: ANA };
      },
      getMe: () => ({ user: ANA }),
      startWhatsAppLogin: () => {
        seen.starts = (seen.starts ?? 0) + 1;
        return {
          loginId: "secret-login-id",
          text: "Quero entrar no site do Sócio. Código: K7P-4QX",
          whatsappUrl: "https://wa.me/5511900000000?text=Quero%20entrar%20no%20site%20do%20S%C3%B3cio.%20C%C3%B3digo%3A%20K7P-4QX",
          matchCode: 47,
        };
      },
      getWhatsAppLogin: (request) => {
        if (request.loginId !== "secret-login-id") throw new ConnectError("not found", Code.NotFound);
        const answers = script.whatsappLogin ?? [{ status: WhatsAppLoginStatus.WAITING }];
        return (answers.length > 1 ? answers.shift() : answers[0]) ?? {};
      },
    }) &&
    router.service(DashboardService, { getDashboard: () => ({ user: ANA, stats: {}, businessPlan: { steps: [] } }) });
}

describe("login", () => {
  it("sends a code to the typed number with +55 and moves to the code step", async () => {
    const seen = { sendCode: [] as string[], verifyCode: [] as string[] };
    renderApp("/login", { api: authApi({}, seen) });
    const send = await screen.findByRole("button", { name: "Enviar código de verificação" });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByLabelText("Número de WhatsApp"), "(11) 98765-4321");
    await userEvent.click(send);
    expect(await screen.findByRole("heading", { name: "Digite o código" })).toBeInTheDocument();
    expect(seen.sendCode).toEqual(["+5511987654321"]);
    expect(await screen.findByText("Código de verificação enviado!")).toBeInTheDocument();
  });

  it("shows Enviando... and disables the button while the code is being sent", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    renderApp("/login", { api: authApi({ sendCode: async () => (await gate, { expiresInSeconds: 600 }) }) });
    await userEvent.type(await screen.findByLabelText("Número de WhatsApp"), "11987654321");
    await userEvent.click(screen.getByRole("button", { name: "Enviar código de verificação" }));
    expect(await screen.findByRole("button", { name: "Enviando..." })).toBeDisabled();
    release();
    expect(await screen.findByRole("heading", { name: "Digite o código" })).toBeInTheDocument();
  });

  it("masks the code until shown, keeps it to 6 digits and lets the number be changed", async () => {
    renderApp("/login?phoneNumber=5511987654321", { api: authApi({}) });
    const input = await screen.findByLabelText("Código de verificação");
    expect(input).toHaveAttribute("type", "password");
    expect(input).toHaveAttribute("maxLength", "6");
    await userEvent.type(input, "12a34567");
    expect(input).toHaveValue("123456");
    await userEvent.click(screen.getByRole("button", { name: "Mostrar código" }));
    expect(input).toHaveAttribute("type", "text");
    await userEvent.click(screen.getByRole("button", { name: "Alterar número" }));
    expect(await screen.findByLabelText("Número de WhatsApp")).toBeInTheDocument();
  });

  it("requests a code at once for ?phoneNumber= and logs in to the dashboard", async () => {
    const seen = { sendCode: [] as string[], verifyCode: [] as string[] };
    const { router } = renderApp("/login?phoneNumber=%2B5511987654321", { api: authApi({}, seen) });
    await userEvent.type(await screen.findByLabelText("Código de verificação"), "123456");
    expect(seen.sendCode).toEqual(["+5511987654321"]);
    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(window.localStorage.getItem("authToken")).toBe("access-1");
    expect(window.localStorage.getItem("refreshToken")).toBe("refresh-1");
    expect(await screen.findByText("Bem-vindo! Você entrou com sucesso.")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Olá, Ana!" })).toBeInTheDocument();
  });

  it("returns to the phone step when the automatic request fails", async () => {
    renderApp("/login?phoneNumber=5511987654321", {
      api: authApi({
        sendCode: () => {
          throw new ConnectError("Muitas tentativas. Tente novamente em 42 segundos.", Code.ResourceExhausted);
        },
      }),
    });
    expect(await screen.findByLabelText("Número de WhatsApp")).toBeInTheDocument();
    expect(await screen.findByText("Muitas tentativas. Tente novamente em 42 segundos.")).toBeInTheDocument();
  });

  it("stays on the code step when a code was sent moments ago, and counts down to a resend", async () => {
    let sends = 0;
    renderApp("/login?phoneNumber=%2B5511987654321", {
      api: authApi({
        sendCode: () => {
          sends += 1;
          if (sends > 1) return { expiresInSeconds: 600, resendAfterSeconds: 60 };
          throw new ConnectError("Enviamos um código há pouco e ele continua valendo.", Code.ResourceExhausted, undefined, [
            { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason: "CODE_ALREADY_SENT", domain: "socio" }) },
            { desc: RetryInfoSchema, value: create(RetryInfoSchema, { retryDelay: { seconds: 2n } }) },
          ]);
        },
      }),
    });
    expect(await screen.findByText(/continua valendo: confira o WhatsApp/)).toBeInTheDocument();
    expect(screen.getByLabelText("Código de verificação")).toBeInTheDocument();
    const resend = screen.getByRole("button", { name: /Reenviar em \d s/ });
    expect(resend).toBeDisabled();
    const ready = await screen.findByRole("button", { name: "Reenviar código" }, { timeout: 4000 });
    await userEvent.click(ready);
    expect(await screen.findByRole("button", { name: /Reenviar em (60|59) s/ })).toBeDisabled();
    expect(sends).toBe(2);
    expect(screen.queryByText(/continua valendo: confira o WhatsApp/)).not.toBeInTheDocument();
  });

  it("shows Invalid code with the server's message when the code is wrong", async () => {
    renderApp("/login?phoneNumber=5511987654321", {
      api: authApi({
        verifyCode: () => {
          throw new ConnectError("Código inválido ou expirado. Confira o código e tente novamente.", Code.Unauthenticated);
        },
      }),
    });
    await userEvent.type(await screen.findByLabelText("Código de verificação"), "000000");
    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    expect(await screen.findByText("Código inválido")).toBeInTheDocument();
    expect(screen.getByText("Código inválido ou expirado. Confira o código e tente novamente.")).toBeInTheDocument();
    expect(window.localStorage.getItem("authToken")).toBeNull();
  });

  it("sends an unknown number to WhatsApp in a new tab, then home after two seconds", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const whatsappUrl = "https://wa.me/5511900000000?text=Ol%C3%A1";
    const { router } = renderApp("/login", {
      api: authApi({
        sendCode: () => {
          throw new ConnectError("Número não registrado. Envie uma mensagem para o Sócio no WhatsApp para começar.", Code.NotFound, undefined, [
            { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason: "USER_NOT_REGISTERED", domain: "socio", metadata: { whatsappUrl } }) },
          ]);
        },
      }),
    });
    await userEvent.type(await screen.findByLabelText("Número de WhatsApp"), "11912345678");
    await userEvent.click(screen.getByRole("button", { name: "Enviar código de verificação" }));
    expect(await screen.findByText("Usuário não registrado")).toBeInTheDocument();
    expect(screen.getByText("Redirecionando para o WhatsApp para iniciar a conversa.")).toBeInTheDocument();
    expect(screen.getByLabelText("Número de WhatsApp")).toBeInTheDocument();
    expect(open).toHaveBeenCalledWith(whatsappUrl, "_blank", "noopener,noreferrer");
    expect(router.state.location.pathname).toBe("/login");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"), { timeout: 3000 });
    open.mockRestore();
  });

  it("offers to log in by sending a message first: a button on a phone, a QR code on a wide screen, and the text", async () => {
    renderApp("/login", { api: authApi({}) });
    expect(await screen.findByRole("heading", { name: "Entrar pelo WhatsApp" })).toBeInTheDocument();
    const open = await screen.findByRole("link", { name: "Enviar pelo WhatsApp" });
    expect(open).toHaveAttribute("href", expect.stringContaining("https://wa.me/5511900000000?text="));
    const qr = screen.getByRole("img", { name: "QR code que abre o WhatsApp com a mensagem de acesso" });
    expect(qr.querySelector("svg")).not.toBeNull();
    expect(screen.getByText("Quero entrar no site do Sócio. Código: K7P-4QX")).toBeInTheDocument();
    expect(screen.getByText("Esperando a sua confirmação no WhatsApp...")).toBeInTheDocument();
    expect(screen.getByLabelText("Número de WhatsApp")).toBeInTheDocument();
  });

  it("logs in once the person confirms on WhatsApp", async () => {
    const { router } = renderApp("/login", {
      api: authApi({
        whatsappLogin: [
          { status: WhatsAppLoginStatus.WAITING },
          { status: WhatsAppLoginStatus.CONFIRMED, token: "access-wa", refreshToken: "refresh-wa", user: ANA },
        ],
      }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"), { timeout: 6000 });
    expect(window.localStorage.getItem("authToken")).toBe("access-wa");
    expect(window.localStorage.getItem("refreshToken")).toBe("refresh-wa");
  });

  it("shows the number to tap on WhatsApp big, named and said in words", async () => {
    renderApp("/login", { api: authApi({}) });
    const box = await screen.findByRole("group", { name: "Seu número de confirmação" });
    expect(box).toHaveAccessibleDescription("No WhatsApp, toque no número 47 para confirmar.");
    expect(within(box).getByTestId("whatsapp-match-code")).toHaveTextContent(/^47$/);
    expect(screen.getByText("No WhatsApp, toque no número 47 para confirmar.")).toBeInTheDocument();
  });

  it("says in English which number to tap", async () => {
    renderApp("/login", { language: "en", api: authApi({}) });
    const box = await screen.findByRole("group", { name: "Your confirmation number" });
    expect(within(box).getByText("On WhatsApp, tap 47 to confirm.")).toBeInTheDocument();
  });

  it("sends an admin's account to the code form, without a new login by message", async () => {
    const seen = { sendCode: [] as string[], verifyCode: [] as string[], starts: 0 };
    renderApp("/login", { api: authApi({ whatsappLogin: [{ status: WhatsAppLoginStatus.CODE_REQUIRED }] }, seen) });
    expect(
      await screen.findByText(/Esta conta é de um administrador: administradores entram só com o código de verificação enviado ao número deles/),
    ).toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Seu número de confirmação" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Gerar um novo acesso" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Receber o código no meu número" }));
    expect(screen.getByLabelText("Número de WhatsApp")).toHaveFocus();
    expect(seen.starts).toBe(1);
    expect(window.localStorage.getItem("authToken")).toBeNull();
  });

  it("says the login was cancelled when the person answered no or tapped another number, and starts again on request", async () => {
    const seen = { sendCode: [] as string[], verifyCode: [] as string[], starts: 0 };
    renderApp("/login", { api: authApi({ whatsappLogin: [{ status: WhatsAppLoginStatus.REFUSED }] }, seen) });
    expect(
      await screen.findByText("Acesso cancelado: no WhatsApp, você respondeu que não foi você ou tocou em um número diferente do mostrado aqui. Ninguém entrou."),
    ).toBeInTheDocument();
    expect(screen.queryByTestId("whatsapp-match-code")).not.toBeInTheDocument();
    expect(seen.starts).toBe(1);
    await userEvent.click(screen.getByRole("button", { name: "Gerar um novo acesso" }));
    await waitFor(() => expect(seen.starts).toBe(2));
    expect(window.localStorage.getItem("authToken")).toBeNull();
  });
});
