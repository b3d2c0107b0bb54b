import qrcode from "qrcode-generator";
import { KeyRound, Loader2, MessageCircle, RefreshCw, ShieldCheck } from "lucide-react";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { WhatsAppLoginStatus } from "@/gen/socio/v1/auth_pb";
import { currentLanguage } from "@/lib/i18n";
import { storeTokens } from "@/lib/session";

import { useStartWhatsAppLogin, useWhatsAppLogin } from "../api/use-whatsapp-login";

/** The QR code of a link, as an SVG the browser draws (dark modules on white, a quiet zone). */
function QrCode({ text, label }: { text: string; label: string }) {
  const svg = useMemo(() => {
    const qr = qrcode(0, "M");
    qr.addData(text);
    qr.make();
    return qr.createSvgTag({ cellSize: 5, margin: 4, scalable: true });
  }, [text]);
  return (
    <div
      role="img"
      aria-label={label}
      className="mx-auto w-56 rounded-xl bg-white p-2 ring-1 ring-slate-200 [&>svg]:h-auto [&>svg]:w-full"
      // The SVG is made here from the link, never from user input.
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}

/** The test id of the number to tap on WhatsApp (the e2e tests read it from the page). */
export const MATCH_CODE_TEST_ID = "whatsapp-match-code";

/**
 * The number to tap on WhatsApp (number matching): big, in its own box, named for assistive
 * technology by its title and said in a sentence as well, so neither size nor colour carries it.
 */
function MatchCode({ code }: { code: number }) {
  const { t } = useTranslation("auth");
  return (
    <div
      role="group"
      aria-labelledby="whatsapp-match-title"
      aria-describedby="whatsapp-match-hint"
      className="rounded-2xl border-2 border-brand-600 bg-white p-4 text-center"
    >
      <p id="whatsapp-match-title" className="flex items-center justify-center gap-2 text-sm font-semibold text-slate-700">
        <ShieldCheck aria-hidden="true" className="h-4 w-4 text-brand-700" />
        {t("whatsapp.matchTitle")}
      </p>
      <p data-testid={MATCH_CODE_TEST_ID} className="my-1 text-6xl leading-none font-bold tracking-wider text-slate-900 tabular-nums sm:text-7xl">
        {code}
      </p>
      <p id="whatsapp-match-hint" className="text-base text-slate-800">
        {t("whatsapp.matchHint", { code })}
      </p>
    </div>
  );
}

/**
 * "Entrar pelo WhatsApp": the person sends us a message and confirms it on WhatsApp by tapping,
 * among three numbers, the one this page shows; nothing to type and nothing for Meta to bill. On a
 * phone a button opens WhatsApp with the text; on a wide screen a QR code of the same link. The
 * page asks every 2 s how the login stands and logs in once it is confirmed. An admin's account is
 * sent to the code form below (`onUseCode` takes the person there).
 */
export function WhatsAppLogin({ onUseCode }: { onUseCode?: () => void }) {
  const { t, i18n } = useTranslation("auth");
  const language = currentLanguage(i18n);
  const navigate = useNavigate();
  const start = useStartWhatsAppLogin();
  const started = start.data;
  const standing = useWhatsAppLogin(started?.loginId ?? null);
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    start.mutate({ language });
    // Once, when the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const status = standing.data?.status;
  useEffect(() => {
    const data = standing.data;
    if (data?.status === WhatsAppLoginStatus.CONFIRMED && data.token) {
      storeTokens(data.token, data.refreshToken);
      toast.success(t("toast.welcome"));
      void navigate("/dashboard");
    }
  }, [standing.data, navigate, t]);

  if (start.isError) return null; // the code to a typed number below still works

  const restart = () => start.mutate({ language });
  const codeRequired = status === WhatsAppLoginStatus.CODE_REQUIRED;
  const ended = status === WhatsAppLoginStatus.REFUSED || status === WhatsAppLoginStatus.EXPIRED || standing.isError;

  return (
    <section aria-labelledby="whatsapp-login-title" className="space-y-4">
      <h2 id="whatsapp-login-title" className="text-xl font-semibold">
        {t("whatsapp.title")}
      </h2>
      <p className="text-slate-700">{t("whatsapp.intro")}</p>
      {!started ? (
        <p role="status" className="flex items-center gap-2 text-slate-600">
          <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
          {t("whatsapp.preparing")}
        </p>
      ) : codeRequired ? (
        <div role="status" className="space-y-3 rounded-xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-200">
          <p className="flex items-start gap-2">
            <KeyRound aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
            <span>{t("whatsapp.codeRequired")}</span>
          </p>
          {onUseCode && (
            <Button type="button" variant="secondary" onClick={onUseCode}>
              {t("whatsapp.useCode")}
            </Button>
          )}
        </div>
      ) : ended ? (
        <div role="status" className="space-y-3 rounded-xl bg-slate-50 p-4">
          <p>{status === WhatsAppLoginStatus.REFUSED ? t("whatsapp.refused") : t("whatsapp.expired")}</p>
          <Button type="button" variant="secondary" onClick={restart} disabled={start.isPending}>
            <RefreshCw aria-hidden="true" className="mr-2 h-4 w-4" />
            {t("whatsapp.again")}
          </Button>
        </div>
      ) : (
        <>
          {started.matchCode > 0 && <MatchCode code={started.matchCode} />}
          <div className="lg:hidden">
            <Button asChild size="lg" className="w-full">
              <a href={started.whatsappUrl} target="_blank" rel="noopener noreferrer">
                <MessageCircle aria-hidden="true" className="mr-2 h-5 w-5" />
                {t("whatsapp.open")}
              </a>
            </Button>
          </div>
          <div className="hidden space-y-2 text-center lg:block">
            <QrCode text={started.whatsappUrl} label={t("whatsapp.qrLabel")} />
            <p className="text-sm text-slate-600">{t("whatsapp.scan")}</p>
            <a href={started.whatsappUrl} target="_blank" rel="noopener noreferrer" className="text-sm font-medium text-brand-700 underline">
              {t("whatsapp.openHere")}
            </a>
          </div>
          <p className="rounded-xl bg-brand-50 p-3 text-sm text-brand-900">
            {t("whatsapp.message")} <strong className="break-words">{started.text}</strong>
          </p>
          <p role="status" aria-live="polite" className="flex items-center gap-2 text-sm text-slate-600">
            <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
            {t("whatsapp.waiting")}
          </p>
        </>
      )}
    </section>
  );
}
