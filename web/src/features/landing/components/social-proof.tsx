import { Lock, ShieldCheck, Star } from "lucide-react";
import { useTranslation } from "react-i18next";

import { currentLanguage } from "@/lib/i18n";

import { useProof } from "../api/landing-rest";
import { SectionTitle } from "./story-sections";

interface Quote {
  name: string;
  role: string;
  text: string;
}

function Quotes({ quotes }: { quotes: Quote[] }) {
  const { t } = useTranslation("landing");
  return (
    <ul className="mt-12 grid gap-6 md:grid-cols-3">
      {quotes.map((q) => (
        <li key={q.name}>
          <figure className="flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <p className="flex gap-0.5 text-amber-500" role="img" aria-label={t("rating")}>
              {Array.from({ length: 5 }, (_, i) => (
                <Star key={i} aria-hidden="true" className="h-4 w-4 fill-current" />
              ))}
            </p>
            <blockquote className="mt-3 flex-1 text-slate-800">“{q.text}”</blockquote>
            <figcaption className="mt-4">
              <span className="block font-semibold">{q.name}</span>
              <span className="block text-sm text-slate-600">{q.role}</span>
            </figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}

function Stats({ stats }: { stats: { value: string; label: string }[] }) {
  return (
    <dl className="mt-12 grid grid-cols-2 gap-6 text-center md:grid-flow-col md:auto-cols-fr md:grid-cols-none">
      {stats.map((s) => (
        <div key={s.label} className="flex flex-col-reverse">
          <dt className="text-sm text-slate-600">{s.label}</dt>
          <dd className="text-3xl font-extrabold text-brand-700">{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** How many quotes the first block shows; the rest go to the second. */
const FIRST_QUOTES = 3;

/**
 * Testimonials and figures, only with a source (CDC art. 37): the quotes the operator configured
 * and the figures the product counts (plans created, states by area code); a figure of 0 is not
 * shown. The trust seals are the product's own terms.
 */
export function Testimonials() {
  const { t, i18n } = useTranslation("landing");
  const language = currentLanguage(i18n);
  const loaded = useProof(language);
  const proof = loaded.status === "success" ? loaded.data : null;
  const seals = t("testimonials.seals", { returnObjects: true }) as string[];
  const quotes = proof?.testimonials.slice(0, FIRST_QUOTES) ?? [];
  const stats = [
    ...(proof && proof.plansCreated > 0
      ? [{ value: proof.plansCreated.toLocaleString(language), label: t("testimonials.plansCreated", { count: proof.plansCreated }) }]
      : []),
    ...(proof && proof.states.length > 0
      ? [{ value: String(proof.states.length), label: t("testimonials.states", { count: proof.states.length }) }]
      : []),
    { value: t("testimonials.alwaysOnValue"), label: t("testimonials.alwaysOn") },
  ];
  return (
    <section id="depoimentos" aria-labelledby="testimonials-title" className="scroll-mt-20 bg-slate-50 py-20">
      <div className="mx-auto max-w-6xl px-4">
        <SectionTitle id="testimonials-title" title={quotes.length > 0 ? t("testimonials.title") : t("testimonials.trustTitle")} />
        {quotes.length > 0 && <Quotes quotes={quotes} />}
        <Stats stats={stats} />
        <ul className="mt-10 flex flex-wrap justify-center gap-3">
          {seals.map((seal, i) => (
            <li key={seal} className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-medium ring-1 ring-slate-200">
              {i === 0 ? <Lock aria-hidden="true" className="h-4 w-4 text-brand-700" /> : <ShieldCheck aria-hidden="true" className="h-4 w-4 text-brand-700" />}
              {seal}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** The second block of quotes, when the operator configured more than the first shows. */
export function Results() {
  const { t, i18n } = useTranslation("landing");
  const loaded = useProof(currentLanguage(i18n));
  const quotes = loaded.status === "success" ? loaded.data.testimonials.slice(FIRST_QUOTES, FIRST_QUOTES * 2) : [];
  if (quotes.length === 0) return null;
  return (
    <section aria-labelledby="results-title" className="bg-slate-50 py-20">
      <div className="mx-auto max-w-6xl px-4">
        <SectionTitle id="results-title" title={t("testimonials2.title")} />
        <Quotes quotes={quotes} />
      </div>
    </section>
  );
}
