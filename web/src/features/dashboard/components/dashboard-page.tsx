import { DollarSign, Download, type LucideIcon, Megaphone, MessageCircle, Scale, Shield, Target, TrendingUp, Users } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { toast } from "sonner";

import { PageLoading } from "@/components/layout/page-loading";
import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { WhatsAppMarkup } from "@/components/ui/whatsapp-text";
import { Role, SubscriptionStatus, MessageType } from "@/gen/socio/v1/common_pb";
import { PlanStep, type PlanStepState } from "@/gen/socio/v1/business_plan_pb";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/dates";
import { serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";
import { formatHandle } from "@/lib/phone";
import { MonthResults } from "./month-results";
import { SubscriptionCard } from "./subscription-card";
import { YourData } from "./your-data";
import { useDownloadPlan } from "@/lib/use-download-plan";
import { usePlanLiveUpdates } from "@/lib/use-plan-live";

import { useDashboard } from "../api/use-dashboard";
import { useUpdateStep } from "../api/use-update-step";
import { ConsultationCall } from "./consultation-call";

const ICONS: Record<string, LucideIcon> = { Target, TrendingUp, DollarSign, Megaphone, Users, Scale };
const STEP_KEYS: Record<PlanStep, string> = {
  [PlanStep.UNSPECIFIED]: "idea",
  [PlanStep.IDEA]: "idea",
  [PlanStep.MARKET]: "market",
  [PlanStep.FINANCE]: "finance",
  [PlanStep.MARKETING]: "marketing",
  [PlanStep.HR]: "hr",
  [PlanStep.LEGAL]: "legal",
};

/** `/dashboard`: who you are, your plan's steps (toggle them), your recent messages and figures. */
export function DashboardPage() {
  const { t, i18n } = useTranslation("dashboard");
  const language = currentLanguage(i18n);
  const dashboard = useDashboard();
  const updateStep = useUpdateStep();
  const plan = useDownloadPlan();
  const live = usePlanLiveUpdates();

  if (dashboard.isPending) {
    return <PageLoading />;
  }
  if (dashboard.isError || !dashboard.data.user) {
    if (dashboard.isError) toast.error(t("toast.error"), { id: "dashboard-load", description: serverMessage(dashboard.error, t("toast.loadFailed")) });
    return (
      <PageShell>
        <p role="alert" className="py-24 text-center text-slate-600">
          {t("noData")}
        </p>
      </PageShell>
    );
  }

  const { user, businessPlan, recentMessages, stats, whatsappUrl } = dashboard.data;
  const progress = businessPlan?.overallProgress ?? 0;
  const isPro = user.subscriptionStatus === SubscriptionStatus.PRO;

  async function toggle(step: PlanStepState) {
    try {
      await updateStep.mutateAsync({ stepId: step.id, completed: !step.completed });
      toast.success(t("toast.stepUpdated"));
    } catch (error) {
      toast.error(t("toast.stepFailed"), { description: serverMessage(error, "") || undefined });
    }
  }

  async function download() {
    try {
      await plan.download("pdf");
    } catch (error) {
      toast.error(t("toast.exportFailed"), { description: serverMessage(error, "") || undefined });
    }
  }

  return (
    <PageShell>
      <div className="mx-auto max-w-6xl space-y-6 px-4 py-10">
        <header className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h1 className="text-3xl font-bold">{t("greeting", { name: user.name.split(" ")[0] || t("fallbackName") })}</h1>
            <p className="mt-1 flex items-center gap-2 text-slate-600">
              <span className="whitespace-nowrap">{formatHandle(user.phoneNumber, user.username)}</span>
              <span className={cn("rounded-full px-2.5 py-0.5 text-xs font-semibold", isPro ? "bg-brand-700 text-white" : "bg-slate-200 text-slate-700")}>
                {isPro ? t("badge.pro") : t("badge.free")}
              </span>
              {live && <span className="text-xs text-brand-700">● {t("live")}</span>}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {user.role === Role.ADMIN && (
              <Button asChild variant="secondary">
                <Link to="/admin">
                  <Shield aria-hidden="true" className="h-4 w-4" />
                  {t("admin")}
                </Link>
              </Button>
            )}
            <Button asChild>
              <a href={whatsappUrl} target="_blank" rel="noreferrer">
                <MessageCircle aria-hidden="true" className="h-4 w-4" />
                {t("openWhatsApp")}
              </a>
            </Button>
          </div>
        </header>

        <div className="grid gap-6 lg:grid-cols-3">
          <Card title={t("plan.title")} className="lg:col-span-2">
            <div className="flex items-center gap-4">
              <div className="h-3 flex-1 overflow-hidden rounded-full bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress} aria-label={t("plan.title")}>
                <div className="h-full rounded-full bg-brand-600 transition-all" style={{ width: `${Math.min(100, Math.max(0, progress))}%` }} />
              </div>
              <span className="font-semibold">{t("plan.progress", { progress })}</span>
            </div>
            <p className="mt-3 text-sm text-slate-600">{t("plan.toggleHint")}</p>
            <ul className="mt-4 grid gap-3 sm:grid-cols-2">
              {businessPlan?.steps.map((step) => {
                const Icon = ICONS[step.icon] ?? Target;
                const key = STEP_KEYS[step.id];
                return (
                  <li key={step.id}>
                    <button
                      type="button"
                      onClick={() => void toggle(step)}
                      disabled={updateStep.isPending}
                      aria-pressed={step.completed}
                      className={cn(
                        "flex w-full items-center gap-3 rounded-xl p-3 text-left ring-1 transition-colors disabled:opacity-60",
                        step.completed ? "bg-brand-50 ring-brand-600" : "bg-white ring-slate-200 hover:bg-slate-50",
                      )}
                    >
                      <Icon aria-hidden="true" className={cn("h-5 w-5", step.completed ? "text-brand-700" : "text-slate-500")} />
                      <span className="flex-1 font-medium">{t(`steps.${key}`)}</span>
                      <span className="text-xs text-slate-600">{step.completed ? t("plan.done") : t("plan.pending")}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
            <dl aria-label={t("plan.analyses")} className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
              <div className="rounded-xl bg-slate-50 p-3">
                <dt className="font-medium">{t("plan.swot")}</dt>
                <dd className="text-slate-600">{t("plan.swotFilled", { count: businessPlan?.analyses?.swotQuadrantsFilled ?? 0 })}</dd>
              </div>
              <div className="rounded-xl bg-slate-50 p-3">
                <dt className="font-medium">{t("plan.scenarios")}</dt>
                <dd className="text-slate-600">{businessPlan?.analyses?.scenariosReady ? t("plan.scenariosReady") : t("plan.scenariosMissing")}</dd>
              </div>
            </dl>
            <Button asChild variant="ghost" className="mt-4">
              <Link to="/business-plan">{t("plan.continue")}</Link>
            </Button>
          </Card>

          <Card title={t("stats.title")}>
            <dl className="space-y-3">
              {[
                [t("stats.messagesThisWeek"), stats?.messagesThisWeek ?? 0],
                [t("stats.daysActive"), stats?.daysActive ?? 0],
                [t("stats.planCompletion"), `${stats?.planCompletion ?? 0}%`],
              ].map(([label, value]) => (
                <div key={String(label)} className="flex items-baseline justify-between">
                  <dt className="text-slate-600">{label}</dt>
                  <dd className="text-2xl font-bold">{value}</dd>
                </div>
              ))}
            </dl>
          </Card>

          <MonthResults recorded={dashboard.data?.results} />

          <Card title={t("messages.title")} className="lg:col-span-2">
            {recentMessages.length === 0 ? (
              <p className="text-slate-600">{t("messages.empty")}</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {recentMessages.map((m) => (
                  <li key={m.id} className="py-3">
                    <p className="flex justify-between text-xs text-slate-500">
                      <span className="font-semibold text-slate-700">{m.type === MessageType.AI ? t("messages.ai") : t("messages.you")}</span>
                      <span>{formatDateTime(m.timestamp, language)}</span>
                    </p>
                    <p className="mt-1 line-clamp-2 text-sm">
                      <WhatsAppMarkup text={m.preview} />
                    </p>
                  </li>
                ))}
              </ul>
            )}
            <Button asChild variant="ghost" className="mt-2">
              <Link to="/chat">{t("messages.viewAll")}</Link>
            </Button>
          </Card>

          <Card title={t("actions.title")}>
            <div className="flex flex-col gap-2">
              <Button asChild variant="secondary">
                <Link to="/business-plan">{t("actions.continuePlan")}</Link>
              </Button>
              <Button variant="secondary" onClick={() => void download()} disabled={plan.isPending}>
                <Download aria-hidden="true" className="h-4 w-4" />
                {plan.isPending ? t("actions.exporting") : t("actions.exportPlan")}
              </Button>
              <Button asChild variant="secondary">
                <Link to="/chat">{t("actions.openChat")}</Link>
              </Button>
              {isPro && <ConsultationCall />}
            </div>
          </Card>

          <SubscriptionCard />
          <YourData />
        </div>
      </div>
    </PageShell>
  );
}
