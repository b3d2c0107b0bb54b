import { BadgeCheck, Calculator, Check, FileText, Landmark, Megaphone, MessageCircle, ShieldCheck, Sparkles } from "lucide-react";
import { useTranslation } from "react-i18next";

import { buttonClass } from "@/components/ui/button-styles";
import { clsx } from "clsx";

interface Titled {
  title: string;
  text: string;
}

export function SectionTitle({ id, title, subtitle }: { id: string; title: string; subtitle?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 id={id} className="text-3xl font-bold tracking-tight sm:text-4xl">
        {title}
      </h2>
      {subtitle && <p className="mt-3 text-lg text-slate-600">{subtitle}</p>}
    </div>
  );
}

/** How it works: three steps. */
export function HowItWorks() {
  const { t } = useTranslation("landing");
  const steps = t("how.steps", { returnObjects: true }) as Titled[];
  return (
    <section id="como-funciona" aria-labelledby="how-title" className="scroll-mt-20 bg-white py-20">
      <div className="mx-auto max-w-6xl px-4">
        <SectionTitle id="how-title" title={t("how.title")} subtitle={t("how.subtitle")} />
        <ol className="mt-12 grid gap-6 md:grid-cols-3">
          {steps.map((step, i) => (
            <li key={step.title} className="rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
              <span aria-hidden="true" className="grid h-10 w-10 place-items-center rounded-full bg-brand-700 font-bold text-white">
                {i + 1}
              </span>
              <h3 className="mt-4 text-lg font-semibold">{step.title}</h3>
              <p className="mt-2 text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

const BENEFIT_ICONS = [MessageCircle, FileText, Calculator, Landmark, Megaphone, ShieldCheck];

/** Why choose us: six benefits, a sample WhatsApp chat and a sample plan card. */
export function WhyUs() {
  const { t } = useTranslation("landing");
  const benefits = t("why.benefits", { returnObjects: true }) as Titled[];
  const messages = t("why.chat.messages", { returnObjects: true }) as { from: "user" | "ai"; text: string }[];
  const rows = t("why.planCard.rows", { returnObjects: true }) as { label: string; value: string }[];
  return (
    <section id="por-que" aria-labelledby="why-title" className="scroll-mt-20 bg-brand-50/60 py-20">
      <div className="mx-auto max-w-6xl px-4">
        <SectionTitle id="why-title" title={t("why.title")} subtitle={t("why.subtitle")} />
        <div className="mt-12 grid gap-10 lg:grid-cols-2">
          <ul className="grid gap-5 sm:grid-cols-2">
            {benefits.map((b, i) => {
              const Icon = BENEFIT_ICONS[i] ?? Sparkles;
              return (
                <li key={b.title} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
                  <Icon aria-hidden="true" className="h-6 w-6 text-brand-700" />
                  <h3 className="mt-3 font-semibold">{b.title}</h3>
                  <p className="mt-1 text-sm text-slate-700">{b.text}</p>
                </li>
              );
            })}
          </ul>
          <div className="space-y-6">
            <figure aria-label={t("why.chat.label")} className="overflow-hidden rounded-2xl bg-[#efeae2] shadow-md ring-1 ring-slate-200">
              <figcaption className="flex items-center gap-3 bg-[#075e54] px-4 py-3 text-white">
                <span aria-hidden="true" className="grid h-9 w-9 place-items-center rounded-full bg-white/20 font-bold">
                  S
                </span>
                <span>
                  <span className="block font-semibold" translate="no">
                    {t("why.chat.name")}
                  </span>
                  <span className="block text-xs text-white/80">{t("why.chat.status")}</span>
                </span>
              </figcaption>
              <ol className="space-y-2 p-4">
                {messages.map((m) => (
                  <li
                    key={m.text}
                    className={clsx("max-w-[85%] rounded-lg px-3 py-2 text-sm shadow-sm", m.from === "user" ? "ml-auto bg-[#d9fdd3]" : "bg-white")}
                  >
                    {m.text}
                  </li>
                ))}
              </ol>
            </figure>
            <figure aria-label={t("why.planCard.label")} className="rounded-2xl bg-white p-5 shadow-md ring-1 ring-slate-200">
              <figcaption className="flex items-center justify-between gap-3">
                <span className="font-semibold">{t("why.planCard.title")}</span>
                <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">{t("why.planCard.progress")}</span>
              </figcaption>
              <div aria-hidden="true" className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100">
                <div className="h-full w-2/3 rounded-full bg-brand-600" />
              </div>
              <dl className="mt-4 divide-y divide-slate-100 text-sm">
                {rows.map((r) => (
                  <div key={r.label} className="flex justify-between gap-4 py-2">
                    <dt className="text-slate-600">{r.label}</dt>
                    <dd className="font-semibold">{r.value}</dd>
                  </div>
                ))}
              </dl>
            </figure>
          </div>
        </div>
      </div>
    </section>
  );
}

/** From hello to a finished plan: a three-step timeline and a dashboard preview. */
export function Demo() {
  const { t } = useTranslation("landing");
  const timeline = t("demo.timeline", { returnObjects: true }) as (Titled & { when: string })[];
  return (
    <section aria-labelledby="demo-title" className="bg-white py-20">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 lg:grid-cols-2 lg:items-center">
        <div>
          <h2 id="demo-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
            {t("demo.title")}
          </h2>
          <p className="mt-3 text-lg text-slate-600">{t("demo.subtitle")}</p>
          <ol className="mt-8 space-y-6 border-l-2 border-brand-200 pl-6">
            {timeline.map((step) => (
              <li key={step.title} className="relative">
                <span aria-hidden="true" className="absolute top-1 -left-[1.9rem] h-3.5 w-3.5 rounded-full bg-brand-600 ring-4 ring-white" />
                <p className="text-sm font-semibold text-brand-700">{step.when}</p>
                <h3 className="font-semibold">{step.title}</h3>
                <p className="mt-1 text-slate-700">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
        <figure aria-label={t("demo.preview")} className="surface-dark rounded-2xl bg-slate-900 p-6 text-white shadow-lg">
          <figcaption className="text-sm text-slate-300">{t("demo.preview")}</figcaption>
          <div aria-hidden="true" className="mt-4 grid grid-cols-3 gap-3">
            {[100, 100, 67, 33, 0, 0].map((done, i) => (
              <div key={i} className="rounded-lg bg-white/10 p-3">
                <div className="h-1.5 rounded-full bg-white/20">
                  <div className="h-full rounded-full bg-brand-400" style={{ width: `${done}%` }} />
                </div>
                <Check className={clsx("mt-3 h-4 w-4", done === 100 ? "text-brand-400" : "text-white/20")} />
              </div>
            ))}
          </div>
          <p className="mt-5 flex items-center gap-2 text-slate-200">
            <BadgeCheck aria-hidden="true" className="h-5 w-5 text-brand-400" />
            {t("demo.previewText")}
          </p>
        </figure>
      </div>
    </section>
  );
}

/** The 7-day guarantee. */
export function Guarantee() {
  const { t } = useTranslation("landing");
  return (
    <section id="garantia" aria-labelledby="guarantee-title" className="scroll-mt-20 bg-white py-20">
      <div className="mx-auto flex max-w-3xl flex-col items-center rounded-3xl bg-brand-50 px-6 py-12 text-center ring-1 ring-brand-200">
        <ShieldCheck aria-hidden="true" className="h-14 w-14 text-brand-700" />
        <h2 id="guarantee-title" className="mt-4 text-3xl font-bold">
          {t("guarantee.title")}
        </h2>
        <p className="mt-3 max-w-xl text-lg text-slate-700">{t("guarantee.text")}</p>
        <a href="/checkout" className={buttonClass({ size: "lg" }, "mt-8")}>
          {t("guarantee.cta")}
        </a>
      </div>
    </section>
  );
}
