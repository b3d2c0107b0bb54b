import * as Tabs from "@radix-ui/react-tabs";
import { AlertTriangle, BarChart3, FileText, Headset, MessageSquare, ReceiptText, Shield, Users } from "lucide-react";
import { useTranslation } from "react-i18next";

import { PageShell } from "@/components/layout/page-shell";
import { currentLanguage } from "@/lib/i18n";
import { formatDecimal } from "@/lib/dates";

import { useAdminStats, useFacts } from "../api/use-admin";
import { AnalyticsTab } from "./analytics-tab";
import { HandoffsTab } from "./handoffs-tab";
import { PromptsTab } from "./prompts-tab";
import { RefundsTab } from "./refunds-tab";
import { UsersTab } from "./users-tab";

function StatCard({ icon: Icon, title, value, detail }: { icon: typeof Users; title: string; value: string; detail: string }) {
  return (
    <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center justify-between text-sm font-medium text-slate-600">
        <span>{title}</span>
        <Icon aria-hidden="true" className="h-5 w-5 text-brand-700" />
      </div>
      <p className="mt-2 text-3xl font-bold">{value}</p>
      <p className="mt-1 text-sm text-slate-600">{detail}</p>
    </div>
  );
}

const TAB_CLASS =
  "rounded-lg px-4 py-2 text-sm font-semibold whitespace-nowrap text-slate-600 hover:text-ink data-[state=active]:bg-white data-[state=active]:text-ink data-[state=active]:shadow-sm";

/**
 * A banner while business facts are past their period with nothing newer (the January DAS before
 * the new year's values are published): they are still used and said stale to people, and the
 * admins are told which, and how to publish them.
 */
function ExpiredFactsBanner() {
  const { t } = useTranslation("admin");
  const facts = useFacts().data;
  if (!facts || facts.expired === 0) return null;
  const expired = facts.facts.filter((f) => f.status === "expired");
  return (
    <div role="alert" className="flex items-start gap-3 rounded-2xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-300">
      <AlertTriangle aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
      <div>
        <p className="font-semibold">{t("facts.expiredTitle", { count: facts.expired })}</p>
        <ul className="mt-1 list-disc pl-5 text-sm">
          {expired.map((f) => (
            <li key={f.id}>
              <span className="font-mono">{f.id}</span> — {t("facts.until", { date: f.validUntil })}
            </li>
          ))}
        </ul>
        <p className="mt-1 text-sm">{t("facts.howTo")}</p>
      </div>
    </div>
  );
}

/** `/admin`: the service's figures, the users, human support (handoffs), the consultant's prompts and analytics. */
export function AdminPage() {
  const { t, i18n } = useTranslation("admin");
  const language = currentLanguage(i18n);
  const stats = useAdminStats().data?.stats;
  const proShare = stats && stats.totalUsers > 0 ? (stats.proUsers * 100) / stats.totalUsers : 0;
  const dash = "–";

  return (
    <PageShell>
      <div className="mx-auto max-w-7xl space-y-6 px-4 py-10">
        <header className="flex flex-wrap items-center justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold">{t("title")}</h1>
            <p className="mt-1 text-slate-600">{t("subtitle")}</p>
          </div>
          <span className="inline-flex items-center gap-2 rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-700 ring-1 ring-brand-600">
            <Shield aria-hidden="true" className="h-4 w-4" />
            {t("badge")}
          </span>
        </header>

        <ExpiredFactsBanner />

        <section aria-label={t("stats.label")} className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          <StatCard
            icon={Users}
            title={t("stats.totalUsers")}
            value={stats ? String(stats.totalUsers) : dash}
            detail={t("stats.activeUsers", { count: stats?.activeUsers ?? 0 })}
          />
          <StatCard
            icon={Shield}
            title={t("stats.proUsers")}
            value={stats ? String(stats.proUsers) : dash}
            detail={t("stats.proShare", { share: formatDecimal(proShare, language) })}
          />
          <StatCard
            icon={MessageSquare}
            title={t("stats.totalMessages")}
            value={stats ? String(stats.totalMessages) : dash}
            detail={t("stats.averageMessages", { average: formatDecimal(stats?.averageMessagesPerUser ?? 0, language) })}
          />
          <StatCard
            icon={FileText}
            title={t("stats.plans")}
            value={stats ? String(stats.usersWithBusinessPlans) : dash}
            detail={t("stats.completedPlans", { count: stats?.completedBusinessPlans ?? 0 })}
          />
        </section>

        <Tabs.Root defaultValue="users">
          <Tabs.List aria-label={t("tabs.label")} className="inline-flex max-w-full gap-1 overflow-x-auto rounded-xl bg-slate-100 p-1">
            <Tabs.Trigger value="users" className={TAB_CLASS}>
              {t("tabs.users")}
            </Tabs.Trigger>
            <Tabs.Trigger value="handoffs" className={TAB_CLASS}>
              <Headset aria-hidden="true" className="mr-1 inline h-4 w-4" />
              {t("tabs.handoffs")}
            </Tabs.Trigger>
            <Tabs.Trigger value="prompts" className={TAB_CLASS}>
              {t("tabs.prompts")}
            </Tabs.Trigger>
            <Tabs.Trigger value="refunds" className={TAB_CLASS}>
              <ReceiptText aria-hidden="true" className="mr-1 inline h-4 w-4" />
              {t("tabs.refunds")}
            </Tabs.Trigger>
            <Tabs.Trigger value="analytics" className={TAB_CLASS}>
              <BarChart3 aria-hidden="true" className="mr-1 inline h-4 w-4" />
              {t("tabs.analytics")}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="users" className="mt-6">
            <UsersTab />
          </Tabs.Content>
          <Tabs.Content value="handoffs" className="mt-6">
            <HandoffsTab />
          </Tabs.Content>
          <Tabs.Content value="prompts" className="mt-6">
            <PromptsTab />
          </Tabs.Content>
          <Tabs.Content value="refunds" className="mt-6">
            <RefundsTab />
          </Tabs.Content>
          <Tabs.Content value="analytics" className="mt-6">
            <AnalyticsTab />
          </Tabs.Content>
        </Tabs.Root>
      </div>
    </PageShell>
  );
}
