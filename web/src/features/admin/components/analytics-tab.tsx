import { useState } from "react";
import { useTranslation } from "react-i18next";

import { BarChart } from "@/components/ui/bar-chart";
import { Card } from "@/components/ui/card";
import type { BillableDay, DailyCount } from "@/gen/socio/v1/admin_pb";
import { formatDateTime, formatDecimal } from "@/lib/dates";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL } from "@/lib/money";
import { formatPhone } from "@/lib/phone";
import { TableScroll } from "@/components/ui/table-scroll";

import { useAnalytics, useFailedMessages } from "../api/use-admin";

const RANGES = [7, 30, 90] as const;

const CATEGORIES = ["marketing", "utility", "authentication", "service"] as const;

/** A day's billable messages, all categories. */
const billable = (day: BillableDay) => day.marketing + day.utility + day.authentication + day.service;

/** The landing page's A/B funnel, messages per day, failed WhatsApp sends and what WhatsApp costs. */
export function AnalyticsTab() {
  const { t, i18n } = useTranslation("admin");
  const language = currentLanguage(i18n);
  const [days, setDays] = useState<number>(30);
  const analytics = useAnalytics(days);
  const failures = useFailedMessages();
  const data = analytics.data;
  const total = (counts: DailyCount[]) => counts.reduce((sum, c) => sum + c.count, 0);
  const points = (counts: DailyCount[]) => counts.map((c) => ({ label: c.day, value: c.count }));
  const rate = (part: number, whole: number) => (whole > 0 ? `${formatDecimal((part * 100) / whole, language)}%` : "–");

  return (
    <div className="space-y-6">
      <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
        {t("analytics.range")}
        <select value={days} onChange={(e) => setDays(Number(e.target.value))} className="h-10 rounded-xl border border-slate-300 bg-white px-3">
          {RANGES.map((n) => (
            <option key={n} value={n}>
              {t("analytics.days", { count: n })}
            </option>
          ))}
        </select>
      </label>
      {analytics.isPending && <p className="text-slate-600">{t("loading", { ns: "common" })}</p>}
      {analytics.isError && (
        <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
          {t("analytics.loadFailed")}
        </p>
      )}
      {data && (
        <>
          <Card title={t("analytics.funnel")}>
            <TableScroll label={t("analytics.funnelTable")}>
              <table className="w-full min-w-[32rem] text-left text-sm">
                <thead className="text-xs tracking-wide text-slate-600 uppercase">
                  <tr>
                    <th scope="col" className="py-2">{t("analytics.variant")}</th>
                    <th scope="col" className="py-2">{t("analytics.landingViews")}</th>
                    <th scope="col" className="py-2">{t("analytics.checkoutStarts")}</th>
                    <th scope="col" className="py-2">{t("analytics.proConversions")}</th>
                    <th scope="col" className="py-2">{t("analytics.conversion")}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {data.funnel.map((row) => (
                    <tr key={row.variant}>
                      <th scope="row" className="py-2 font-semibold">{row.variant}</th>
                      <td className="py-2 tabular-nums">{row.landingViews}</td>
                      <td className="py-2 tabular-nums">
                        {row.checkoutStarts} <span className="text-slate-500">({rate(row.checkoutStarts, row.landingViews)})</span>
                      </td>
                      <td className="py-2 tabular-nums">{row.proConversions}</td>
                      <td className="py-2 tabular-nums">{rate(row.proConversions, row.landingViews)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <p className="mt-3 text-sm text-slate-700">{t("analytics.proElsewhere", { count: data.proConversionsElsewhere })}</p>
          </Card>
          <Card title={t("analytics.costs.title")}>
            <dl className="grid gap-4 sm:grid-cols-3">
              <div>
                <dt className="text-sm text-slate-600">{t("analytics.costs.billable")}</dt>
                <dd className="text-2xl font-bold tabular-nums">{data.billableMessages}</dd>
              </div>
              <div>
                <dt className="text-sm text-slate-600">{t("analytics.costs.total")}</dt>
                <dd className="text-2xl font-bold tabular-nums">{formatBRL(data.estimatedCostBrl, language, { cents: true })}</dd>
              </div>
              <div>
                <dt className="text-sm text-slate-600">{t("analytics.costs.perPerson")}</dt>
                <dd className="text-2xl font-bold tabular-nums">{formatBRL(data.estimatedCostPerPersonMonthBrl, language, { cents: true })}</dd>
              </div>
            </dl>
            <BarChart
              points={data.billableMessagesPerDay.map((d) => ({ label: d.day, value: billable(d) }))}
              title={t("analytics.chartLabel", { title: t("analytics.costs.billable"), total: data.billableMessages })}
            />
            <TableScroll label={t("analytics.costs.table")}>
              <table className="w-full min-w-[32rem] text-left text-sm">
                <thead className="text-xs tracking-wide text-slate-600 uppercase">
                  <tr>
                    <th scope="col" className="py-2">{t("analytics.costs.category")}</th>
                    <th scope="col" className="py-2">{t("analytics.costs.messages")}</th>
                    <th scope="col" className="py-2">{t("analytics.costs.rate")}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {CATEGORIES.map((category) => (
                    <tr key={category}>
                      <th scope="row" className="py-2 font-medium">{t(`analytics.costs.categories.${category}`)}</th>
                      <td className="py-2 tabular-nums">{data.billableMessagesPerDay.reduce((sum, d) => sum + d[category], 0)}</td>
                      <td className="py-2 tabular-nums">{formatBRL(data.rates?.[category] ?? 0, language, { cents: true })}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <p className="mt-2 text-xs text-slate-600">{t("analytics.costs.note")}</p>
          </Card>
          <Card title={t("analytics.reminders.title")}>
            <dl className="grid gap-4 sm:grid-cols-4">
              {(["checkinsSent", "checkinsAnswered", "remindersSent", "stopped"] as const).map((key) => (
                <div key={key}>
                  <dt className="text-sm text-slate-600">{t(`analytics.reminders.${key}`)}</dt>
                  <dd className="text-2xl font-bold tabular-nums">{data.reminders?.[key] ?? 0}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-2 text-xs text-slate-600">{t("analytics.reminders.note")}</p>
          </Card>
          <div className="grid gap-6 lg:grid-cols-2">
            <Card title={t("analytics.messagesPerDay")}>
              <p className="text-sm text-slate-600">{t("analytics.total", { count: total(data.messagesPerDay) })}</p>
              <BarChart
                points={points(data.messagesPerDay)}
                title={t("analytics.chartLabel", { title: t("analytics.messagesPerDay"), total: total(data.messagesPerDay) })}
              />
            </Card>
            <Card title={t("analytics.failedSends")}>
              <p className="text-sm text-slate-600">{t("analytics.total", { count: total(data.failedSendsPerDay) })}</p>
              <BarChart
                points={points(data.failedSendsPerDay)}
                title={t("analytics.chartLabel", { title: t("analytics.failedSends"), total: total(data.failedSendsPerDay) })}
                barClassName="fill-red-500"
              />
              <h3 className="mt-4 text-sm font-semibold">{t("analytics.recentFailures")}</h3>
              {failures.data && failures.data.messages.length === 0 && <p className="mt-1 text-sm text-slate-600">{t("analytics.noFailures")}</p>}
              <ul className="mt-2 space-y-2 text-sm">
                {failures.data?.messages.map((f) => (
                  <li key={f.id} className="rounded-lg bg-red-50 p-2">
                    <p className="font-medium">
                      {formatPhone(f.phoneNumber)} · <time>{formatDateTime(f.failedAt, language)}</time>
                    </p>
                    <p className="truncate text-slate-700">{f.content}</p>
                    <p className="text-xs text-red-800">{f.error}</p>
                  </li>
                ))}
              </ul>
            </Card>
          </div>
        </>
      )}
    </div>
  );
}
