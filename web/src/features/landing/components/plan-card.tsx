import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { PlanFeatureList } from "@/components/billing/plan-feature-list";
import { Button } from "@/components/ui/button";
import { type PlanOffer, PlanType } from "@/gen/socio/v1/billing_pb";
import { cn } from "@/lib/cn";
import type { AppLanguage } from "@/lib/language";
import { formatBRL } from "@/lib/money";

export function PlanCard({ plan, language }: { plan: PlanOffer; language: AppLanguage }) {
  const { t } = useTranslation("landing");
  return (
    <article
      aria-labelledby={`plan-${plan.id}`}
      className={cn(
        "relative flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200",
        plan.popular && "ring-2 ring-brand-600",
      )}
    >
      {plan.popular && (
        <span className="absolute -top-3 left-6 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
          {t("plans.popular")}
        </span>
      )}
      <h3 id={`plan-${plan.id}`} className="text-lg font-semibold">
        {plan.name}
      </h3>
      <p className="mt-1 text-sm text-slate-600">{plan.description}</p>
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight">{formatBRL(plan.price, language)}</span>
        <span className="text-slate-600">{plan.period}</span>
      </p>
      {plan.yearlyPrice > 0 && (
        <p className="mt-1 text-sm text-brand-700">
          {t("plans.perYear", {
            price: formatBRL(plan.yearlyPrice, language),
            savings: formatBRL(plan.yearlySavings, language),
          })}
        </p>
      )}
      <PlanFeatureList plan={plan} />
      <Button asChild variant={plan.id === PlanType.PRO ? "primary" : "secondary"} className="mt-6 w-full">
        <Link to="/checkout">{plan.buttonText}</Link>
      </Button>
    </article>
  );
}
