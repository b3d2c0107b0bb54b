import { CheckCircle2 } from "lucide-react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";

import { Button } from "@/components/ui/button";
import { heroVariant, useTrackEvent } from "@/lib/landing-analytics";

import { LandingFooter } from "./landing-footer";
import { LandingHeader } from "./landing-header";
import { PricingSection } from "./pricing-section";
import { Results, Testimonials } from "./social-proof";
import { StickyCta } from "./sticky-cta";
import { Demo, Guarantee, HowItWorks, WhyUs } from "./story-sections";

/** `/`: the whole story in the spec's order; `?variant=B` picks the second hero. */
export function LandingPage() {
  const { t } = useTranslation("landing");
  const [params] = useSearchParams();
  const variant = heroVariant(params.get("variant"));
  useTrackEvent("landingView", variant);
  const hero = useRef<HTMLElement>(null);
  const trust = t("hero.trust", { returnObjects: true }) as string[];

  return (
    <div className="flex min-h-dvh flex-col">
      <LandingHeader />
      <main id="main" className="flex-1">
        <section ref={hero} aria-labelledby="hero-title" data-variant={variant} className="bg-gradient-to-b from-brand-50 to-white">
          <div className="mx-auto max-w-4xl px-4 py-20 text-center sm:py-28">
            <p className="inline-flex rounded-full bg-white px-4 py-1.5 text-sm font-semibold text-brand-700 shadow-sm ring-1 ring-brand-200">{t("hero.badge")}</p>
            <h1 id="hero-title" className="mt-6 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">
              {t(`hero.${variant}.title`)}
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-700">{t(`hero.${variant}.subtitle`)}</p>
            <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/checkout">{t("hero.cta")}</Link>
              </Button>
              <Button asChild size="lg" variant="secondary">
                <Link to="/login">{t("hero.secondary")}</Link>
              </Button>
            </div>
            <ul className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-slate-700">
              {trust.map((item) => (
                <li key={item} className="inline-flex items-center gap-1.5">
                  <CheckCircle2 aria-hidden="true" className="h-4 w-4 text-brand-700" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </section>
        <HowItWorks />
        <WhyUs />
        <Testimonials />
        <Demo />
        <PricingSection />
        <Results />
        <Guarantee />
        <section aria-labelledby="closing-title" className="bg-brand-700 py-20 text-center text-white">
          <div className="mx-auto max-w-3xl px-4">
            <h2 id="closing-title" className="text-3xl font-bold sm:text-4xl">
              {t("closing.title")}
            </h2>
            <p className="mt-4 text-lg text-brand-50">{t("closing.text")}</p>
            <Button asChild size="lg" variant="secondary" className="mt-8">
              <Link to="/checkout">{t("closing.cta")}</Link>
            </Button>
          </div>
        </section>
      </main>
      <LandingFooter />
      <StickyCta hero={hero} />
    </div>
  );
}
