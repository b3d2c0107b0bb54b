import { CheckCircle2, Clock, XCircle } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useSearchParams } from "react-router";

import { PageLoading } from "@/components/layout/page-loading";
import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import { BillingInterval, type GetCheckoutResultResponse } from "@/gen/socio/v1/billing_pb";
import { SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { formatDateTime } from "@/lib/dates";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL } from "@/lib/money";
import { useAccessToken } from "@/lib/session";

import { useBuyer, useCheckoutResult, useProDashboard } from "../api/use-billing";

/** How often, and how many times, a checkout not yet confirmed is asked about again (2 minutes). */
const POLL_MS = 2000;
const POLLS = 60;

function loginPath(phone: string | null): string {
  return phone ? `/login?phoneNumber=${encodeURIComponent(phone)}` : "/login";
}

/** The next steps and the ways on: WhatsApp (when known) and the dashboard. */
function NextSteps({ whatsappUrl, dashboard }: { whatsappUrl: string | null; dashboard: string }) {
  const { t } = useTranslation("billing");
  const token = useAccessToken();
  const chat = whatsappUrl ? `${whatsappUrl}?text=${encodeURIComponent(t("success.continueChatText"))}` : null;
  return (
    <>
      <h2 className="mt-8 text-left font-semibold">{t("success.nextTitle")}</h2>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-left text-slate-700">
        <li>{t("success.next1")}</li>
        <li>{t("success.next2")}</li>
        <li>{t("success.next3")}</li>
      </ol>
      <div className="mt-8 flex flex-col gap-3 print:hidden">
        {chat && (
          <Button asChild size="lg" className="bg-green-700 hover:bg-green-800">
            <a href={chat} target="_blank" rel="noreferrer">
              {t("success.startChat")}
            </a>
          </Button>
        )}
        <Button asChild variant="secondary">
          <Link to={token ? "/dashboard" : dashboard}>{token ? t("success.dashboard") : t("success.logIn")}</Link>
        </Button>
      </div>
    </>
  );
}

/** What was paid: plan, amount, when, and the provider's receipt (or a printable confirmation). */
function Receipt({ result }: { result: GetCheckoutResultResponse }) {
  const { t, i18n } = useTranslation("billing");
  const language = currentLanguage(i18n);
  return (
    <section aria-labelledby="receipt-title" className="mt-6 rounded-2xl bg-slate-50 p-5 text-left ring-1 ring-slate-200">
      <h2 id="receipt-title" className="font-semibold">
        {t("success.receiptTitle")}
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">{t("success.plan")}</dt>
        <dd>{result.interval === BillingInterval.YEARLY ? t("success.planYearly") : t("success.planMonthly")}</dd>
        <dt className="text-slate-600">{t("success.amount")}</dt>
        <dd>{formatBRL(result.amount, language, { cents: true })}</dd>
        {result.paidAt && (
          <>
            <dt className="text-slate-600">{t("success.paidAt")}</dt>
            <dd>{formatDateTime(result.paidAt, language)}</dd>
          </>
        )}
      </dl>
      <div className="mt-4 print:hidden">
        {result.receiptUrl ? (
          <Button asChild variant="secondary" size="sm">
            <a href={result.receiptUrl} target="_blank" rel="noreferrer">
              {t("success.receipt")}
            </a>
          </Button>
        ) : (
          <Button variant="secondary" size="sm" onClick={() => window.print()}>
            {t("success.printReceipt")}
          </Button>
        )}
      </div>
    </section>
  );
}

/** `/success?session=…`: what became of the checkout, read without a login; asked again every
 * two seconds while the provider has not confirmed it (its event may arrive after the person). */
function CheckoutOutcome({ sessionId, phone }: { sessionId: string; phone: string | null }) {
  const { t } = useTranslation("billing");
  const result = useCheckoutResult(sessionId, POLL_MS, POLLS);
  if (result.isPending) return <PageLoading />;
  if (result.isError) return <SignedInSuccess phone={phone} />;
  const outcome = result.data;
  const checkout = phone ? `/checkout/${encodeURIComponent(phone.replace(/^\+/, ""))}` : "/checkout";

  return (
    <PageShell>
      <div className="mx-auto max-w-xl px-4 py-16">
        <section className="rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
          {outcome.state === "paid" && (
            <>
              <CheckCircle2 aria-hidden="true" className="mx-auto h-14 w-14 text-brand-600" />
              <h1 className="mt-4 text-3xl font-bold">{t("success.title")}</h1>
              <p className="mt-3 text-slate-700">{t("success.pro")}</p>
              <Receipt result={outcome} />
              <NextSteps whatsappUrl={outcome.whatsappUrl || null} dashboard={loginPath(phone)} />
            </>
          )}
          {outcome.state === "open" && (
            <div role="status">
              <Clock aria-hidden="true" className="mx-auto h-14 w-14 animate-pulse text-amber-600" />
              <h1 className="mt-4 text-2xl font-bold">{t("success.pendingTitle")}</h1>
              <p className="mt-3 text-slate-700">{t("success.pending")}</p>
              <p className="mt-3 text-sm text-slate-600">{t("success.pendingBoleto")}</p>
            </div>
          )}
          {outcome.state !== "paid" && outcome.state !== "open" && (
            <>
              <XCircle aria-hidden="true" className="mx-auto h-14 w-14 text-red-600" />
              <h1 className="mt-4 text-2xl font-bold">{t("success.canceledTitle")}</h1>
              <p className="mt-3 text-slate-700">{t("success.canceled")}</p>
              <Button asChild className="mt-6">
                <Link to={checkout}>{t("success.tryAgain")}</Link>
              </Button>
            </>
          )}
          <p className="mt-6 text-sm text-slate-500">{t("success.support")}</p>
        </section>
      </div>
    </PageShell>
  );
}

/**
 * `/success` without a checkout (the free plan, an old link). The spec gives two readings; we take
 * the one a paying user wants (see product-decisions): a paid user sees the celebration, the next
 * steps and the WhatsApp button, then goes on to the dashboard; anyone else is sent to log in with
 * their number. "Paid" is read from the current session.
 */
function SignedInSuccess({ phone }: { phone: string | null }) {
  const { t } = useTranslation("billing");
  const token = useAccessToken();
  const me = useBuyer(token !== null);
  const dashboard = useProDashboard(me.data?.user?.subscriptionStatus === SubscriptionStatus.PRO);
  const login = loginPath(phone);

  if (!token || me.isError) return <Navigate to={login} replace />;
  if (me.isPending || (me.data.user?.subscriptionStatus === SubscriptionStatus.PRO && dashboard.isPending)) {
    return <PageLoading />;
  }
  const paid = me.data.user?.subscriptionStatus === SubscriptionStatus.PRO;
  if (!paid) return <Navigate to={login} replace />;

  return (
    <PageShell>
      <div className="mx-auto max-w-xl px-4 py-16">
        <section className="rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
          <CheckCircle2 aria-hidden="true" className="mx-auto h-14 w-14 text-brand-600" />
          <h1 className="mt-4 text-3xl font-bold">{t("success.title")}</h1>
          <p className="mt-3 text-slate-700">{t("success.pro")}</p>
          <NextSteps whatsappUrl={dashboard.data?.whatsappUrl || null} dashboard={login} />
          <p className="mt-6 text-sm text-slate-500">{t("success.support")}</p>
        </section>
      </div>
    </PageShell>
  );
}

/** `/success`: with the checkout's session (the address a payment returns to), what was paid and
 * its receipt, no login needed; without one, the signed-in reading. */
export function SuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get("session");
  const phone = params.get("phoneNumber");
  return sessionId ? <CheckoutOutcome sessionId={sessionId} phone={phone} /> : <SignedInSuccess phone={phone} />;
}
