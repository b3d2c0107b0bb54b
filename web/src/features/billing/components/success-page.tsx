import { useQuery } from "@connectrpc/connect-query";
import { CheckCircle2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useSearchParams } from "react-router";

import { PageLoading } from "@/components/layout/page-loading";
import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import { AuthService } from "@/gen/socio/v1/auth_pb";
import { SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import { useAccessToken } from "@/lib/session";

/**
 * `/success`. The spec gives two readings; we take the one a paying user wants (see
 * product-decisions): a paid user sees the celebration, the next steps and the WhatsApp button,
 * then goes on to the dashboard; anyone else is sent to log in with their number. "Paid" is read
 * from the current session (fresh, so a payment made a minute ago counts).
 */
export function SuccessPage() {
  const { t } = useTranslation("billing");
  const [params] = useSearchParams();
  const token = useAccessToken();
  const me = useQuery(AuthService.method.getMe, {}, { enabled: token !== null, retry: false });
  const dashboard = useQuery(DashboardService.method.getDashboard, {}, { enabled: me.data?.user?.subscriptionStatus === SubscriptionStatus.PRO });
  const phone = params.get("phoneNumber");
  const login = phone ? `/login?phoneNumber=${encodeURIComponent(phone)}` : "/login";

  if (!token || me.isError) return <Navigate to={login} replace />;
  if (me.isPending || (me.data.user?.subscriptionStatus === SubscriptionStatus.PRO && dashboard.isPending)) {
    return <PageLoading />;
  }
  const paid = me.data.user?.subscriptionStatus === SubscriptionStatus.PRO;
  if (!paid) return <Navigate to={login} replace />;
  const chat = dashboard.data?.whatsappUrl ? `${dashboard.data.whatsappUrl}?text=${encodeURIComponent(t("success.continueChatText"))}` : null;

  return (
    <PageShell>
      <div className="mx-auto max-w-xl px-4 py-16">
        <section className="rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
          <CheckCircle2 aria-hidden="true" className="mx-auto h-14 w-14 text-brand-600" />
          <h1 className="mt-4 text-3xl font-bold">{t("success.title")}</h1>
          <p className="mt-3 text-slate-700">{t("success.pro")}</p>
          <h2 className="mt-8 text-left font-semibold">{t("success.nextTitle")}</h2>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-left text-slate-700">
            <li>{t("success.next1")}</li>
            <li>{t("success.next2")}</li>
            <li>{t("success.next3")}</li>
          </ol>
          <div className="mt-8 flex flex-col gap-3">
            {chat && (
              <Button asChild size="lg" className="bg-green-700 hover:bg-green-800">
                <a href={chat} target="_blank" rel="noreferrer">
                  {t("success.startChat")}
                </a>
              </Button>
            )}
            <Button asChild variant="secondary">
              <Link to="/dashboard">{t("success.dashboard")}</Link>
            </Button>
          </div>
          <p className="mt-6 text-sm text-slate-500">{t("success.support")}</p>
        </section>
      </div>
    </PageShell>
  );
}
