import { CheckCircle2 } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { buttonClass } from "@/components/ui/button-styles";
import { heroVariant, useTrackEvent } from "@/lib/landing-analytics";

import { registerLandingCatalogues } from "../landing-catalogues";

import { LandingFooter } from "./landing-footer";
import { LandingHeader } from "./landing-header";
import { PricingSection } from "./pricing-section";
import { Results, Testimonials } from "./social-proof";
import { StickyCta } from "./sticky-cta";
import { Demo, Guarantee, HowItWorks, WhyUs } from "./story-sections";

/**
 * `/`: the whole story in the spec's order; `?variant=B` in `search` (the address's query) picks
 * the second hero. Its links are plain links: the page runs without the app's router.
 */
export function LandingPage({ search }: { search: string }) {
  const { i18n } = useTranslation();
  useState(() => registerLandingCatalogues(i18n)); // before anything below asks for the copy
  return <LandingStory search={search} />;
}

function LandingStory({ search }: { search: string }) {
  const { t } = useTranslation("landing");
  const variant = heroVariant(new URLSearchParams(search).get("variant"));
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
              <a href="/checkout" className={buttonClass({ size: "lg" })}>
                {t("hero.cta")}
              </a>
              <a href="/login" className={buttonClass({ size: "lg", variant: "secondary" })}>
                {t("hero.secondary")}
              </a>
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
        <section aria-labelledby="closing-title" className="surface-dark bg-brand-700 py-20 text-center text-white">
          <div className="mx-auto max-w-3xl px-4">
            <h2 id="closing-title" className="text-3xl font-bold sm:text-4xl">
              {t("closing.title")}
            </h2>
            <p className="mt-4 text-lg text-brand-50">{t("closing.text")}</p>
            <a href="/checkout" className={buttonClass({ size: "lg", variant: "secondary" }, "mt-8")}>
              {t("closing.cta")}
            </a>
          </div>
        </section>
      </main>
      <LandingFooter />
      <StickyCta hero={hero} />
    </div>
  );
}
