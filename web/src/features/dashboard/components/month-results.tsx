import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { MonthResult } from "@/gen/socio/v1/results_pb";
import { capitalizeFirst, formatMonth, formatMonthShort } from "@/lib/dates";
import { fieldViolations, serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL, formatBRLCompact } from "@/lib/money";
import { parseDecimal } from "@/lib/numbers";

import { useRecordMonthResults, useResults } from "../api/use-results";
import { ReminderSwitches } from "./reminder-switches";

/** Last month in the browser's calendar, as `YYYY-MM` (what people record most). */
function lastMonth(): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}`;
}

/** An amount as people write reais ("21.000", "1.234,50", "1234.50"); NaN when it is not one. */
export function parseReais(text: string): number {
  return parseDecimal(text, "pt-BR");
}

const inputClass = "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600";

/** Actual against plan for the last 12 months: a bar per month for the actual, a mark for the plan. */
function ActualAgainstPlan({ months, pick, title, planValue }: { months: MonthResult[]; pick: (m: MonthResult) => number; title: string; planValue: number | undefined }) {
  const { i18n } = useTranslation();
  const language = currentLanguage(i18n);
  const shown = [...months].reverse().slice(-12);
  const values = shown.map(pick);
  const max = Math.max(1, ...values.map(Math.abs), Math.abs(planValue ?? 0));
  const width = 100 / Math.max(1, shown.length);
  const y = (v: number) => 40 - (Math.max(0, v) / max) * 38;
  return (
    <figure className="w-full">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      <svg viewBox="0 0 100 40" preserveAspectRatio="none" className="mt-1 h-28 w-full" role="img" aria-label={title}>
        {shown.map((m, i) => {
          const v = pick(m);
          return (
            <rect key={m.month} x={i * width + width * 0.2} y={y(v)} width={width * 0.6} height={40 - y(v)} className={v < 0 ? "fill-red-500" : "fill-brand-600"}>
              <title>{`${formatMonthShort(m.month, language)}: ${formatBRL(v, language)}`}</title>
            </rect>
          );
        })}
        {planValue !== undefined && <line x1="0" x2="100" y1={y(planValue)} y2={y(planValue)} className="stroke-amber-500" strokeWidth="0.8" strokeDasharray="2 1" vectorEffect="non-scaling-stroke" />}
      </svg>
      <ol className="mt-1 grid text-center text-[10px] leading-tight text-slate-600" style={{ gridTemplateColumns: `repeat(${Math.max(1, shown.length)}, minmax(0, 1fr))` }}>
        {shown.map((m) => (
          <li key={m.month}>
            <span className={pick(m) < 0 ? "block font-semibold text-red-700" : "block font-semibold text-slate-800"}>{formatBRLCompact(pick(m), language)}</span>
            <span className="block">{formatMonthShort(m.month, language)}</span>
          </li>
        ))}
      </ol>
    </figure>
  );
}

/** "Resultados do mês": record a month's revenue, costs and sales, and see them against the plan.
 * `recorded` are the months the dashboard's own read carries: shown at once, before the list with
 * the plan's figures, the biggest gap and the ceiling arrives. */
export function MonthResults({ recorded }: { recorded?: MonthResult[] }) {
  const { t, i18n } = useTranslation("dashboard");
  const language = currentLanguage(i18n);
  const results = useResults();
  const record = useRecordMonthResults();
  const [month, setMonth] = useState(lastMonth);
  const [revenue, setRevenue] = useState("");
  const [costs, setCosts] = useState("");
  const [sales, setSales] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const id = useId();
  const months = results.data?.results ?? recorded ?? [];
  const plan = results.data?.plan;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    const revenueValue = parseReais(revenue);
    const costsValue = parseReais(costs);
    const salesValue = sales.trim() === "" ? 0 : Number(sales);
    if (!Number.isFinite(revenueValue) || revenueValue < 0) local.revenue = t("results.amountError");
    if (!Number.isFinite(costsValue) || costsValue < 0) local.costs = t("results.amountError");
    if (!Number.isInteger(salesValue) || salesValue < 0) local.salesCount = t("results.salesError");
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      await record.mutateAsync({ month, revenue: revenueValue, costs: costsValue, salesCount: salesValue });
      toast.success(t("results.saved"));
      setRevenue("");
      setCosts("");
      setSales("");
    } catch (error) {
      const fields = fieldViolations(error);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else toast.error(serverMessage(error, t("results.failed")));
    }
  }

  /** Puts a saved month back in the form, to correct it (saving the same month replaces it). */
  function edit(m: MonthResult) {
    setMonth(m.month);
    setRevenue(formatAmount(m.revenue));
    setCosts(formatAmount(m.costs));
    setSales(String(m.salesCount));
    setErrors({});
    document.getElementById(`${id}-form`)?.scrollIntoView?.({ block: "nearest" });
    document.getElementById(`${id}-revenue-input`)?.focus();
  }

  const formatAmount = (v: number) => v.toLocaleString(language === "pt-BR" ? "pt-BR" : "en-US", { minimumFractionDigits: 0, maximumFractionDigits: 2 });

  const field = (name: string, label: string, value: string, set: (v: string) => void, inputMode: "decimal" | "numeric") => (
    <label className="block text-sm font-medium">
      {label}
      <input
        id={`${id}-${name}-input`}
        value={value}
        onChange={(e) => set(e.target.value)}
        inputMode={inputMode}
        required={name !== "salesCount"}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}` : undefined}
        className={inputClass}
      />
      {errors[name] && (
        <span id={`${id}-${name}`} className="mt-1 block text-sm text-red-700">
          {errors[name]}
        </span>
      )}
    </label>
  );

  return (
    <Card title={t("results.title")} className="lg:col-span-3">
      <div className="grid gap-6 lg:grid-cols-2">
        <form id={`${id}-form`} onSubmit={(e) => void submit(e)} className="grid content-start items-start gap-3 self-start sm:grid-cols-2" noValidate>
          <label className="block text-sm font-medium">
            {t("results.month")}
            <input type="month" value={month} onChange={(e) => setMonth(e.target.value)} required aria-invalid={errors.month ? true : undefined} aria-describedby={errors.month ? `${id}-month` : undefined} className={inputClass} />
            {errors.month && (
              <span id={`${id}-month`} className="mt-1 block text-sm text-red-700">
                {errors.month}
              </span>
            )}
          </label>
          {field("revenue", t("results.revenue"), revenue, setRevenue, "decimal")}
          {field("costs", t("results.costs"), costs, setCosts, "decimal")}
          {field("salesCount", t("results.sales"), sales, setSales, "numeric")}
          <Button type="submit" className="sm:col-span-2" disabled={record.isPending}>
            {record.isPending ? t("results.saving") : t("results.save")}
          </Button>
          <div className="sm:col-span-2">
            <ReminderSwitches />
          </div>
        </form>
        <div className="space-y-4">
          {months.length === 0 ? (
            <p className="text-sm text-slate-600">{t("results.empty")}</p>
          ) : (
            <>
              {results.data?.biggestGap && <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900">{results.data.biggestGap}</p>}
              {results.data?.ceiling?.closed ? (
                <div role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-900">
                  <p className="font-semibold">
                    {t("results.ceilingPassed", {
                      year: results.data.ceiling.year,
                      revenue: formatBRL(results.data.ceiling.projectedRevenue, language),
                      limit: formatBRL(results.data.ceiling.limit, language),
                    })}
                  </p>
                  <p className="mt-1">{results.data.ceiling.action}</p>
                  <p className="mt-1 text-xs">{results.data.ceiling.rule}</p>
                </div>
              ) : (
                results.data?.ceiling && (
                  <div className={results.data.ceiling.crossingMonth ? "rounded-xl bg-red-50 p-3 text-sm text-red-900" : "rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900"}>
                    <p className="font-semibold">
                      {results.data.ceiling.crossingMonth
                        ? t(results.data.ceiling.passed ? "results.ceilingPassedThisYear" : "results.ceilingCrossing", {
                            projected: formatBRL(results.data.ceiling.projectedRevenue, language),
                            limit: formatBRL(results.data.ceiling.limit, language),
                            month: formatMonth(results.data.ceiling.crossingMonth, language),
                          })
                        : t("results.ceilingWithin", {
                            projected: formatBRL(results.data.ceiling.projectedRevenue, language),
                            limit: formatBRL(results.data.ceiling.limit, language),
                          })}
                    </p>
                    {results.data.ceiling.action && <p className="mt-1">{results.data.ceiling.action}</p>}
                    <p className="mt-1 text-xs">{results.data.ceiling.rule}</p>
                  </div>
                )
              )}
              <ActualAgainstPlan months={months} pick={(m) => m.revenue} title={t("results.revenueChart")} planValue={plan?.revenue} />
              <ActualAgainstPlan months={months} pick={(m) => m.result} title={t("results.resultChart")} planValue={plan?.result} />
              <p className="text-xs text-slate-600">{plan ? t("results.legend", { revenue: formatBRL(plan.revenue, language), result: formatBRL(plan.result, language) }) : t("results.noPlan")}</p>
              <table className="w-full text-left text-sm">
                <caption className="text-left font-medium">{t("results.savedMonths")}</caption>
                <thead className="text-xs text-slate-600">
                  <tr>
                    <th scope="col" className="py-1 pr-2">{t("results.month")}</th>
                    <th scope="col" className="py-1 pr-2 text-right">{t("results.revenueShort")}</th>
                    <th scope="col" className="py-1 pr-2 text-right">{t("results.resultShort")}</th>
                    <th scope="col" className="py-1"><span className="sr-only">{t("results.actions")}</span></th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {months.map((m) => (
                    <tr key={m.month}>
                      <th scope="row" className="py-1 pr-2 font-medium">{capitalizeFirst(formatMonth(m.month, language))}</th>
                      <td className="py-1 pr-2 text-right whitespace-nowrap">{formatBRL(m.revenue, language, { cents: true })}</td>
                      <td className={m.result < 0 ? "py-1 pr-2 text-right whitespace-nowrap text-red-700" : "py-1 pr-2 text-right whitespace-nowrap"}>{formatBRL(m.result, language, { cents: true })}</td>
                      <td className="py-1 text-right">
                        <Button type="button" size="sm" variant="ghost" onClick={() => edit(m)} aria-label={t("results.edit", { month: formatMonth(m.month, language) })}>
                          {t("results.editShort")}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </div>
      </div>
    </Card>
  );
}
