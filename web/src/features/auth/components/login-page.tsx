import { Eye, EyeOff, Lock } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";

import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import { errorInfo, retryAfterSeconds, serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";
import { formatPhone, normalizePhone } from "@/lib/phone";
import { storeTokens } from "@/lib/session";

import { useSendCode } from "../api/use-send-code";
import { useVerifyCode } from "../api/use-verify-code";
import { BenefitsPanel } from "./benefits-panel";
import { WhatsAppLogin } from "./whatsapp-login";

/** After an unknown number, the visitor is sent home after this long. */
export const UNREGISTERED_REDIRECT_MS = 2000;

/** Seconds before another code may be asked for when the server does not say. */
const RESEND_AFTER_SECONDS = 60;

/** A countdown in whole seconds that ticks down to 0. */
function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);
  return [left, setLeft];
}

const inputClass =
  "mt-1 block w-full rounded-xl border border-slate-300 px-4 py-3 text-lg focus:border-brand-600";

/** `/login`: first "Entrar pelo WhatsApp" (send us a message, confirm it there), then the code
 * to a typed number (phone, then the code sent over WhatsApp). `?phoneNumber=` jumps to the code
 * step. */
export function LoginPage() {
  const { t, i18n } = useTranslation("auth");
  const language = currentLanguage(i18n);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [step, setStep] = useState<"phone" | "code">(params.get("phoneNumber") ? "code" : "phone");
  const [phone, setPhone] = useState(params.get("phoneNumber") ?? "");
  const [code, setCode] = useState("");
  const [showCode, setShowCode] = useState(false);
  const sendCode = useSendCode();
  const verifyCode = useVerifyCode();
  const autoRequested = useRef(false);
  const phoneInput = useRef<HTMLInputElement>(null);
  const [resendIn, setResendIn] = useCountdown();
  const [stillValid, setStillValid] = useState(false);
  const busy = sendCode.isPending || verifyCode.isPending;

  /** Asks for a code: from the phone step, the link's number, or the resend button. */
  async function requestCode(rawPhone: string, origin: "phone" | "link" | "resend") {
    const phoneNumber = normalizePhone(rawPhone);
    try {
      const sent = await sendCode.mutateAsync({ phoneNumber, language });
      toast.success(t("toast.codeSent"), { description: t("toast.codeSentDescription", { phone: formatPhone(phoneNumber) }) });
      setStillValid(false);
      setResendIn(sent.resendAfterSeconds || RESEND_AFTER_SECONDS);
      setStep("code");
    } catch (error) {
      const message = serverMessage(error, "");
      const info = errorInfo(error);
      // A code went out moments ago (after checkout, a reload, a double tap): it still works.
      if (info?.reason === "CODE_ALREADY_SENT") {
        setStillValid(true);
        setResendIn(retryAfterSeconds(error) ?? RESEND_AFTER_SECONDS);
        setStep("code");
        return;
      }
      if (origin !== "resend") setStep("phone");
      const unregistered = info?.reason === "USER_NOT_REGISTERED" || /não registrado|not registered/i.test(message);
      if (unregistered) {
        const title = /não registrado|not registered/i.test(message) ? t("toast.notRegistered") : t("toast.startOnWhatsApp");
        toast.warning(title, { description: t("toast.redirecting") });
        const url = info?.metadata.whatsappUrl;
        if (url) window.open(url, "_blank", "noopener,noreferrer");
        window.setTimeout(() => void navigate("/"), UNREGISTERED_REDIRECT_MS);
        return;
      }
      toast.error(t("toast.error"), { description: message || t("toast.checkCode") });
    }
  }

  useEffect(() => {
    const fromLink = params.get("phoneNumber");
    if (fromLink && !autoRequested.current) {
      autoRequested.current = true;
      void requestCode(fromLink, "link");
    }
    // Only once, for the number the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function submitPhone(event: FormEvent) {
    event.preventDefault();
    if (phone.trim()) await requestCode(phone, "phone");
  }

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    try {
      const session = await verifyCode.mutateAsync({
        phoneNumber: normalizePhone(phone),
        verificationCode: code.trim(),
        language,
      });
      storeTokens(session.token, session.refreshToken);
      toast.success(t("toast.welcome"));
      void navigate("/dashboard");
    } catch (error) {
      toast.error(t("toast.invalidCode"), { description: serverMessage(error, t("toast.checkCode")) });
    }
  }

  return (
    <PageShell>
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 lg:grid-cols-2 lg:py-20">
        <section aria-labelledby="login-title" className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
          <h1 id="login-title" className="text-3xl font-bold">
            {step === "phone" ? t("title") : t("codeTitle")}
          </h1>
          {step === "phone" && (
            <div className="mt-6">
              <WhatsAppLogin onUseCode={() => phoneInput.current?.focus()} />
              <p className="mt-8 flex items-center gap-3 text-sm text-slate-500 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200">
                {t("orCode")}
              </p>
            </div>
          )}
          {step === "phone" ? (
            <form onSubmit={(e) => void submitPhone(e)} className="mt-6 space-y-5">
              <p className="text-slate-700">{t("phoneIntro")}</p>
              <label className="block font-medium">
                {t("phoneLabel")}
                <input
                  ref={phoneInput}
                  type="tel"
                  name="phoneNumber"
                  required
                  autoComplete="tel"
                  inputMode="tel"
                  maxLength={25}
                  value={phone}
                  placeholder={t("phonePlaceholder")}
                  onChange={(e) => setPhone(e.target.value)}
                  className={inputClass}
                />
              </label>
              <Button type="submit" size="lg" className="w-full" disabled={busy || phone.trim() === ""}>
                {sendCode.isPending ? t("sending") : t("sendCode")}
              </Button>
            </form>
          ) : (
            <form onSubmit={(e) => void submitCode(e)} className="mt-6 space-y-5">
              <p className="text-slate-700">{t("codeIntro", { phone: formatPhone(normalizePhone(phone)) })}</p>
              {stillValid && (
                <p role="status" className="rounded-xl bg-brand-50 p-3 text-sm text-brand-800">
                  {t("codeStillValid")}
                </p>
              )}
              <label className="block font-medium" htmlFor="verification-code">
                {t("codeLabel")}
              </label>
              <div className="relative">
                <input
                  id="verification-code"
                  type={showCode ? "text" : "password"}
                  name="verificationCode"
                  required
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  maxLength={6}
                  value={code}
                  onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, 6))}
                  className={`${inputClass} mt-0 pr-12 tracking-[0.5em]`}
                />
                <button
                  type="button"
                  onClick={() => setShowCode((v) => !v)}
                  aria-label={showCode ? t("hideCode") : t("showCode")}
                  aria-pressed={showCode}
                  className="absolute inset-y-0 right-0 grid w-12 place-items-center text-slate-500 hover:text-slate-800"
                >
                  {showCode ? <EyeOff aria-hidden="true" className="h-5 w-5" /> : <Eye aria-hidden="true" className="h-5 w-5" />}
                </button>
              </div>
              <Button type="submit" size="lg" className="w-full" disabled={busy || code.trim() === ""}>
                {verifyCode.isPending ? t("verifying") : t("verify")}
              </Button>
              <Button
                type="button"
                variant="secondary"
                className="w-full"
                disabled={busy || resendIn > 0}
                onClick={() => void requestCode(phone, "resend")}
              >
                {resendIn > 0 ? t("resendIn", { seconds: resendIn }) : t("resend")}
              </Button>
              <Button
                type="button"
                variant="ghost"
                className="w-full"
                disabled={busy}
                onClick={() => {
                  setCode("");
                  setStep("phone");
                }}
              >
                {t("changePhone")}
              </Button>
            </form>
          )}
          <p className="mt-6 flex items-start gap-2 text-sm text-slate-600">
            <Lock aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
            {t("securityNote")}
          </p>
          <Button asChild variant="secondary" className="mt-6 w-full">
            <Link to="/">{t("backHome")}</Link>
          </Button>
        </section>
        <BenefitsPanel />
      </div>
    </PageShell>
  );
}
