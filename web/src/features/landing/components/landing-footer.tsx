import { useState } from "react";
import { useTranslation } from "react-i18next";

import { buttonClass } from "@/components/ui/button-styles";
import { currentLanguage } from "@/lib/i18n";
import { RestError } from "@/lib/rest";

import { subscribeNewsletter, useProof } from "../api/landing-rest";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** The newsletter: an address and consent, stored through a real, rate-limited call. */
function Newsletter() {
  const { t, i18n } = useTranslation("landing");
  const language = currentLanguage(i18n);
  const [sending, setSending] = useState(false);
  const [email, setEmail] = useState("");
  const [consent, setConsent] = useState(false);
  const [error, setError] = useState("");
  const [done, setDone] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!EMAIL.test(email.trim())) return setError(t("footer.newsletter.invalid"));
    if (!consent) return setError(t("footer.newsletter.consentRequired"));
    setError("");
    setSending(true);
    try {
      await subscribeNewsletter(email.trim(), consent, language);
      setDone(true);
    } catch (failure) {
      // The server's own localised words when it refused what was sent (an address it cannot
      // accept, too many tries); ours when it could not answer.
      const refused = failure instanceof RestError && (failure.status === 400 || failure.status === 429);
      setError(refused ? failure.message : t("footer.newsletter.failed"));
    } finally {
      setSending(false);
    }
  }

  if (done) {
    return (
      <p role="status" className="rounded-xl bg-brand-600/20 p-4 text-brand-100">
        {t("footer.newsletter.done")}
      </p>
    );
  }
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="newsletter-title" className="space-y-3">
      <h2 id="newsletter-title" className="font-semibold text-white">
        {t("footer.newsletter.title")}
      </h2>
      <p className="text-sm">{t("footer.newsletter.text")}</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label className="flex-1">
          <span className="sr-only">{t("footer.newsletter.label")}</span>
          <input
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder={t("footer.newsletter.placeholder")}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? "newsletter-error" : undefined}
            className="h-11 w-full rounded-xl border border-slate-600 bg-slate-800 px-3 text-white placeholder:text-slate-400"
          />
        </label>
        <button type="submit" disabled={sending} className={buttonClass()}>
          {sending ? t("footer.newsletter.sending") : t("footer.newsletter.submit")}
        </button>
      </div>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} className="mt-0.5 h-4 w-4 accent-brand-600" />
        {t("footer.newsletter.consent")}
      </label>
      {error && (
        <p id="newsletter-error" role="alert" className="text-sm text-red-300">
          {error}
        </p>
      )}
    </form>
  );
}

/** Four link columns, figures, badges, the newsletter and a last call to action. */
export function LandingFooter() {
  const { t, i18n } = useTranslation("landing");
  const language = currentLanguage(i18n);
  const columns = t("footer.columns", { returnObjects: true }) as { title: string; links: [string, string][] }[];
  // Only counted figures (the same `proof` as the testimonials): none is shown before it counts.
  const loaded = useProof(language);
  const proof = loaded.status === "success" ? loaded.data : null;
  const stats = [
    ...(proof && proof.plansCreated > 0 ? [{ value: proof.plansCreated.toLocaleString(language), label: t("footer.plans", { count: proof.plansCreated }) }] : []),
    ...(proof && proof.states.length > 0 ? [{ value: String(proof.states.length), label: t("footer.states", { count: proof.states.length }) }] : []),
  ];
  const badges = t("footer.badges", { returnObjects: true }) as string[];
  return (
    // On phones the sticky call to action covers the bottom of the page: room for it, so the last
    // lines of the footer can be read above it.
    <footer className="surface-dark bg-slate-900 pb-20 text-slate-300 md:pb-0">
      <div className="mx-auto max-w-6xl px-4 py-14">
        <div className="grid gap-10 lg:grid-cols-[1.2fr_2fr]">
          <div className="space-y-5">
            <p className="text-xl font-bold text-white" translate="no">
              {t("appName", { ns: "common" })}
            </p>
            <p>{t("footer.about")}</p>
            {stats.length > 0 && <dl className="flex gap-6">
              {stats.map((s) => (
                <div key={s.label} className="flex flex-col-reverse">
                  <dt className="text-xs">{s.label}</dt>
                  <dd className="text-xl font-bold text-white">{s.value}</dd>
                </div>
              ))}
            </dl>}
            <a href="/checkout" className={buttonClass()}>
              {t("footer.cta")}
            </a>
          </div>
          <div className="grid grid-cols-2 gap-8 sm:grid-cols-3">
            {columns.map((column) => (
              <nav key={column.title} aria-label={column.title}>
                <h2 className="font-semibold text-white">{column.title}</h2>
                <ul className="mt-3 space-y-2 text-sm">
                  {column.links.map(([label, to]) => (
                    <li key={to}>
                      <a href={to.startsWith("/#") ? to.slice(1) : to} className="hover:text-white">
                        {label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            ))}
          </div>
        </div>
        <div className="mt-12 grid gap-8 border-t border-slate-700 pt-10 lg:grid-cols-2">
          <Newsletter />
          <ul className="flex flex-wrap content-start gap-2 lg:justify-end">
            {badges.map((b) => (
              <li key={b} className="rounded-full border border-slate-600 px-3 py-1 text-xs font-semibold">
                {b}
              </li>
            ))}
          </ul>
        </div>
        <div className="mt-10 space-y-2 border-t border-slate-700 pt-6 text-sm">
          <p>{t("footer.disclaimer", { ns: "common" })}</p>
          <p>{t("footer.rights", { ns: "common", year: new Date().getFullYear() })}</p>
        </div>
      </div>
    </footer>
  );
}
