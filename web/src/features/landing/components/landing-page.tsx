import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";

import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import { currentLanguage } from "@/lib/i18n";
import { heroVariant, useTrackEvent } from "@/lib/landing-analytics";

import { usePlans } from "../api/use-plans";
import { PlanCard } from "./plan-card";

export function LandingPage() {
  const { t, i18n } = useTranslation("landing");
  const language = currentLanguage(i18n);
  const [params] = useSearchParams();
  const variant = heroVariant(params.get("variant"));
  useTrackEvent("landingView", variant);
  const plans = usePlans(language);

  return (
    <PageShell>
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-4xl px-4 py-20 text-center sm:py-28">
          <h1 className="text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">{t(`hero.${variant}.title`)}</h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-700">{t(`hero.${variant}.subtitle`)}</p>
          <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild size="lg">
              <Link to="/checkout">{t("hero.cta")}</Link>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <Link to="/login">{t("hero.secondary")}</Link>
            </Button>
          </div>
        </div>
      </section>

      <section id="precos" aria-labelledby="plans-title" className="mx-auto max-w-5xl px-4 py-16">
        <h2 id="plans-title" className="text-center text-3xl font-bold">
          {t("plans.title")}
        </h2>
        <p className="mt-2 text-center text-slate-600">{t("plans.subtitle")}</p>
        {plans.isPending && (
          <p role="status" className="mt-10 text-center text-slate-500">
            {t("common:loading")}
          </p>
        )}
        {plans.isError && (
          <p role="alert" className="mt-10 text-center text-red-700">
            {t("plans.loadError")}
          </p>
        )}
        {plans.data && (
          <div className="mt-10 grid gap-6 md:grid-cols-2">
            {plans.data.plans.map((plan) => (
              <PlanCard key={plan.id} plan={plan} language={language} />
            ))}
          </div>
        )}
      </section>
    </PageShell>
  );
}
