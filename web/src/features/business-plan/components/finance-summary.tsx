import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { type FinanceAnalysis, ScenarioKind } from "@/gen/socio/v1/business_plan_pb";
import { capitalizeFirst, formatMonth } from "@/lib/dates";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL } from "@/lib/money";
import { useResults } from "@/lib/use-results";

/** The 12-month cumulative balance as bars around zero (SVG, no chart library), with its scale,
 * the months under the bars and a sentence saying what it shows. */
function CashFlowChart({ analysis }: { analysis: FinanceAnalysis }) {
  const { t, i18n } = useTranslation("businessPlan");
  const language = currentLanguage(i18n);
  const compact = new Intl.NumberFormat(language === "pt-BR" ? "pt-BR" : "en-US", { style: "currency", currency: "BRL", notation: "compact", maximumSignificantDigits: 3 });
  const values = analysis.cashFlow.map((m) => m.cumulative);
  const max = Math.max(1, ...values.map(Math.abs));
  const left = 64;
  const width = 420;
  const plotHeight = 140;
  const height = plotHeight + 18;
  const zero = plotHeight / 2;
  const bar = (width - left) / Math.max(1, values.length);
  const last = analysis.cashFlow.at(-1);
  const positiveFrom = analysis.cashFlow.find((m) => m.cumulative >= 0)?.month;
  const label = (y: number, value: number) => (
    <text x={left - 6} y={y} textAnchor="end" fontSize={10} fill="#475569">
      {compact.format(value)}
    </text>
  );
  return (
    <figure className="mt-4">
      <figcaption className="text-sm font-medium">{t("finance.chartTitle")}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} className="mt-2 w-full" role="img" aria-label={t("finance.chartTitle")}>
        {label(10, max)}
        {label(zero + 3, 0)}
        {label(plotHeight - 2, -max)}
        <line x1={left} x2={width} y1={zero} y2={zero} stroke="#cbd5e1" />
        {analysis.cashFlow.map((m, i) => {
          const h = (Math.abs(m.cumulative) / max) * (zero - 4);
          const y = m.cumulative >= 0 ? zero - h : zero;
          return (
            <g key={m.month}>
              <rect x={left + i * bar + 3} y={y} width={bar - 6} height={Math.max(1, h)} rx={2} fill={m.cumulative >= 0 ? "#059669" : "#f87171"}>
                <title>{`${t("finance.month", { month: m.month })}: ${formatBRL(m.cumulative, language)}`}</title>
              </rect>
              <text x={left + i * bar + bar / 2} y={height - 3} textAnchor="middle" fontSize={10} fill="#475569">
                {m.month}
              </text>
            </g>
          );
        })}
      </svg>
      {last && (
        <p className="mt-1 text-xs text-slate-600">
          {t("finance.chartAxis")}{" "}
          {positiveFrom === undefined
            ? t("finance.chartNeverPositive", { balance: formatBRL(last.cumulative, language) })
            : t("finance.chartSummary", { balance: formatBRL(last.cumulative, language), month: positiveFrom })}
        </p>
      )}
    </figure>
  );
}

/** The payback period as read: months, "not reached" while the month loses money, or nothing to
 * recover when nothing was invested (never "0 months"). */
function payback(t: TFunction<"businessPlan">, months: number | undefined, investment: number, locale: string): string {
  if (investment <= 0) return t("finance.nothingInvested");
  if (months === undefined) return t("finance.notReached");
  return t("finance.paybackValue", { months: months.toLocaleString(locale, { maximumFractionDigits: 1 }) });
}

const SCENARIO_KEYS: Record<ScenarioKind, string> = {
  [ScenarioKind.UNSPECIFIED]: "realistic",
  [ScenarioKind.PESSIMISTIC]: "pessimistic",
  [ScenarioKind.REALISTIC]: "realistic",
  [ScenarioKind.OPTIMISTIC]: "optimistic",
};

/** Sebrae's three scenarios: sales 20% below, as expected, 20% above. */
function Scenarios({ analysis }: { analysis: FinanceAnalysis }) {
  const { t, i18n } = useTranslation("businessPlan");
  const language = currentLanguage(i18n);
  const locale = language === "pt-BR" ? "pt-BR" : "en-US";
  if (analysis.scenarios.length === 0) return null;
  return (
    // A table wider than a phone scrolls: the region can be reached and scrolled by keyboard, and says so.
    <div className="mt-4 overflow-x-auto" tabIndex={0} role="region" aria-label={t("finance.scenarios.title")}>
      <p className="text-xs text-slate-500 sm:hidden">{t("finance.scrollHint")}</p>
      <table className="w-full text-left text-sm">
        <caption className="text-left font-medium">{t("finance.scenarios.title")}</caption>
        <thead>
          <tr className="text-slate-600">
            <th scope="col" className="py-1 pr-3 font-medium">{t("finance.scenarios.scenario")}</th>
            <th scope="col" className="py-1 pr-3 font-medium">{t("finance.scenarios.sales")}</th>
            <th scope="col" className="py-1 pr-3 font-medium">{t("finance.monthlyResult")}</th>
            <th scope="col" className="py-1 font-medium">{t("finance.payback")}</th>
          </tr>
        </thead>
        <tbody>
          {analysis.scenarios.map((s) => (
            <tr key={s.kind} className="border-t border-brand-100">
              <th scope="row" className="py-1 pr-3 font-semibold">{t(`finance.scenarios.${SCENARIO_KEYS[s.kind]}`)}</th>
              <td className="py-1 pr-3">{Math.round(s.salesPerMonth).toLocaleString(locale)}</td>
              <td className="py-1 pr-3">{formatBRL(s.monthlyResult, language, { cents: true })}</td>
              <td className="py-1">
                {payback(t, s.paybackMonths, analysis.totalInvestment, locale)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The recorded months (the last six) beside what the plan expects a month. */
function Actuals() {
  const { t, i18n } = useTranslation("businessPlan");
  const language = currentLanguage(i18n);
  const results = useResults();
  const months = (results.data?.results ?? []).slice(0, 6);
  const plan = results.data?.plan;
  const brl = (v: number) => formatBRL(v, language);
  const signed = (v: number | undefined) => (v === undefined ? "" : ` (${v > 0 ? "+" : ""}${v.toLocaleString(language === "pt-BR" ? "pt-BR" : "en-US", { maximumFractionDigits: 1 })} %)`);
  return (
    <div className="mt-4">
      <h4 className="text-sm font-medium">{t("finance.actuals.title")}</h4>
      {months.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">
          {t("finance.actuals.empty")}{" "}
          <Link to="/dashboard" className="font-medium text-brand-700 underline">
            {t("finance.actuals.record")}
          </Link>
        </p>
      ) : (
        <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label={t("finance.actuals.caption")}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t("finance.actuals.caption")}</caption>
            <thead>
              <tr className="text-slate-600">
                <th scope="col" className="py-1 pr-3 font-medium">{t("finance.actuals.month")}</th>
                <th scope="col" className="py-1 pr-3 font-medium">{t("finance.actuals.revenue")}</th>
                <th scope="col" className="py-1 font-medium">{t("finance.actuals.result")}</th>
              </tr>
            </thead>
            <tbody>
              {months.map((m) => (
                <tr key={m.month} className="border-t border-brand-100">
                  <th scope="row" className="py-1 pr-3 font-semibold">{capitalizeFirst(formatMonth(m.month, language))}</th>
                  <td className="py-1 pr-3">
                    {brl(m.revenue)}
                    <span className="block text-xs text-slate-600">
                      {plan ? t("finance.actuals.planned", { value: brl(plan.revenue) }) : ""}
                      {signed(m.variance?.revenuePercent)}
                    </span>
                  </td>
                  <td className={m.result < 0 ? "py-1 text-red-700" : "py-1"}>
                    {brl(m.result)}
                    <span className="block text-xs text-slate-600">
                      {plan ? t("finance.actuals.planned", { value: brl(plan.result) }) : ""}
                      {signed(m.variance?.resultPercent)}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** The computed numbers of the finance step. */
export function FinanceSummary({ analysis }: { analysis?: FinanceAnalysis }) {
  const { t, i18n } = useTranslation("businessPlan");
  const language = currentLanguage(i18n);
  if (!analysis) return <p className="mt-4 text-sm text-slate-600">{t("finance.needMore")}</p>;
  const brl = (v: number) => formatBRL(v, language, { cents: true });
  const percent = (v: number | undefined) =>
    v === undefined ? t("finance.notReached") : `${v.toLocaleString(language === "pt-BR" ? "pt-BR" : "en-US", { maximumFractionDigits: 1 })} %`;
  const breakEvenSales = analysis.breakEvenSales === undefined ? undefined : Math.ceil(analysis.breakEvenSales);
  const rows: [string, string][] = [
    [t("finance.taxes"), brl(analysis.monthlyTaxes)],
    ...(analysis.tax?.effectiveRatePercent ? [[t("finance.taxRate"), percent(analysis.tax.effectiveRatePercent)] as [string, string]] : []),
    [t("finance.contributionMargin"), brl(analysis.contributionMargin)],
    [
      t("finance.breakEvenSales"),
      breakEvenSales === undefined
        ? t("finance.notReached")
        : t("finance.breakEvenSalesValue", { count: breakEvenSales, value: breakEvenSales.toLocaleString(language === "pt-BR" ? "pt-BR" : "en-US") }),
    ],
    [t("finance.breakEvenRevenue"), analysis.breakEvenRevenue === undefined ? t("finance.notReached") : brl(analysis.breakEvenRevenue)],
    [t("finance.monthlyResult"), brl(analysis.monthlyResult)],
    [
      t("finance.payback"),
      payback(t, analysis.paybackMonths, analysis.totalInvestment, language === "pt-BR" ? "pt-BR" : "en-US"),
    ],
    [t("finance.profitability"), percent(analysis.profitabilityPercent)],
    [t("finance.return"), analysis.totalInvestment > 0 ? percent(analysis.returnPercentPerMonth) : t("finance.nothingInvested")],
  ];
  return (
    <div className="mt-5 rounded-xl bg-brand-50 p-4">
      <h3 className="font-semibold text-brand-800">{t("finance.title")}</h3>
      <dl className="mt-3 grid gap-2 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      {analysis.tax && (analysis.tax.lines ?? []).length > 1 && (
        <ul aria-label={t("finance.taxLines")} className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
          {analysis.tax.lines.map((line) => (
            <li key={line.code}>
              {line.name}: <span className="font-semibold">{brl(line.amount)}</span>
            </li>
          ))}
        </ul>
      )}
      {analysis.tax?.explanation && <p className="mt-2 text-xs text-slate-600">{analysis.tax.explanation}</p>}
      {analysis.warnings.length > 0 && (
        <div role="status" className="mt-3 rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
          <p className="font-semibold">{t("finance.warningsTitle")}</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {analysis.warnings.map((w) => (
              <li key={w.code}>{w.message}</li>
            ))}
          </ul>
        </div>
      )}
      <Scenarios analysis={analysis} />
      <CashFlowChart analysis={analysis} />
      <Actuals />
    </div>
  );
}
