import { Check, X } from "lucide-react";
import { Trans, useTranslation } from "react-i18next";

import { buttonClass } from "@/components/ui/button-styles";
import { clsx } from "clsx";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL } from "@/lib/money";
import { TableScroll } from "@/components/ui/table-scroll";

import { usePlans } from "../api/landing-rest";
import { SectionTitle } from "./story-sections";

interface Row {
  label: string;
  traditional: string;
  socio: string;
}

function PriceCard({ name, price, period, text, cta, popular, features, interval }: {
  name: string;
  price: string;
  period: string;
  text: string;
  cta: string;
  popular?: string;
  features: string[];
  interval: "monthly" | "yearly";
}) {
  return (
    <article aria-label={name} className={clsx("relative flex flex-col rounded-2xl bg-white p-6 shadow-sm", popular ? "ring-2 ring-brand-600" : "ring-1 ring-slate-200")}>
      {popular && <span className="absolute -top-3 left-6 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">{popular}</span>}
      <h3 className="text-lg font-semibold">{name}</h3>
      <p className="mt-3 flex flex-wrap items-baseline gap-x-1">
        <span className="text-4xl font-bold tracking-tight">{price}</span>
        <span className="text-slate-600">{period}</span>
      </p>
      <p className="mt-1 text-sm text-brand-700">{text}</p>
      <ul className="mt-5 flex-1 space-y-2 text-sm">
        {features.map((f) => (
          <li key={f} className="flex gap-2">
            <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" />
            {f}
          </li>
        ))}
      </ul>
      <a href={`/checkout?interval=${interval}`} className={buttonClass({ variant: popular ? "primary" : "secondary" }, "mt-6 w-full")}>
        {cta}
      </a>
    </article>
  );
}

/** Pricing: traditional consulting against Sócio, then the monthly and yearly Pro cards (prices from the server). */
export function PricingSection() {
  const { t, i18n } = useTranslation("landing");
  const language = currentLanguage(i18n);
  const plans = usePlans(language);
  const pro = plans.status === "success" ? plans.data.plans.find((p) => p.id === "pro") : undefined;
  const rows = t("pricing.compare.rows", { returnObjects: true }) as Row[];
  const features = t("pricing.features", { returnObjects: true }) as string[];

  return (
    <section id="precos" aria-labelledby="pricing-title" className="scroll-mt-20 bg-white py-20">
      <div className="mx-auto max-w-6xl px-4">
        <SectionTitle id="pricing-title" title={t("pricing.title")} subtitle={t("pricing.subtitle")} />
        <TableScroll label={t("pricing.compare.title")} className="mx-auto mt-12 max-w-4xl rounded-2xl ring-1 ring-slate-200">
          <table className="w-full min-w-[32rem] text-left text-sm">
            <caption className="bg-slate-50 px-4 py-3 text-left font-semibold">{t("pricing.compare.title")}</caption>
            <thead>
              <tr className="border-b border-slate-200">
                <td />
                <th scope="col" className="px-4 py-3 text-slate-600">{t("pricing.compare.traditional")}</th>
                <th scope="col" className="px-4 py-3 text-brand-700" translate="no">{t("pricing.compare.socio")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((r) => (
                <tr key={r.label}>
                  <th scope="row" className="px-4 py-3 font-medium">{r.label}</th>
                  <td className="px-4 py-3 text-slate-600">
                    <X aria-hidden="true" className="mr-1 inline h-4 w-4 text-red-500" />
                    {r.traditional}
                  </td>
                  <td className="px-4 py-3 font-semibold">
                    <Check aria-hidden="true" className="mr-1 inline h-4 w-4 text-brand-700" />
                    {r.socio}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>

        {plans.status === "pending" && (
          <p role="status" className="mt-10 text-center text-slate-500">
            {t("common:loading")}
          </p>
        )}
        {plans.status === "error" && (
          <p role="alert" className="mt-10 text-center text-red-700">
            {t("plans.loadError")}
          </p>
        )}
        {pro && (
          <div className="mx-auto mt-12 grid max-w-4xl gap-6 md:grid-cols-2">
            <PriceCard
              interval="monthly"
              name={t("pricing.monthly.name")}
              price={formatBRL(pro.price, language)}
              period={t("pricing.monthly.period")}
              text={t("pricing.monthly.text")}
              cta={t("pricing.monthly.cta")}
              features={features}
            />
            <PriceCard
              interval="yearly"
              name={t("pricing.yearly.name")}
              price={formatBRL(pro.yearlyPrice, language)}
              period={t("pricing.yearly.period")}
              text={t("pricing.yearly.text", { savings: formatBRL(pro.yearlySavings, language) })}
              cta={t("pricing.yearly.cta")}
              popular={t("pricing.yearly.popular")}
              features={features}
            />
          </div>
        )}
        <p className="mt-8 text-center text-slate-700">
          <Trans t={t} i18nKey="pricing.free" components={{ 1: <a href="/checkout" className="font-semibold text-brand-700 underline" /> }} />
        </p>
      </div>
    </section>
  );
}
