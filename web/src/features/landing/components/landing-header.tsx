import { Mail, Menu, MessageCircle, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { LanguageSwitch } from "@/components/layout/language-switch";
import { buttonClass } from "@/components/ui/button-styles";
import { currentLanguage } from "@/lib/i18n";

import { useContact } from "../api/landing-rest";

const ANCHORS = [
  ["como-funciona", "features"],
  ["por-que", "why"],
  ["depoimentos", "testimonials"],
  ["precos", "pricing"],
] as const;

/** The top bar (contact, language) and the sticky header with the page's anchors and a phone menu. */
export function LandingHeader() {
  const { t, i18n } = useTranslation("landing");
  const loaded = useContact(currentLanguage(i18n));
  const contact = loaded.status === "success" ? loaded.data : null;
  const [open, setOpen] = useState(false);

  return (
    <>
      <aside aria-label={t("topBar.contact")} className="surface-dark bg-brand-700 text-sm text-white">
        <div className="mx-auto flex h-10 max-w-6xl items-center justify-between gap-4 px-4">
          <p className="flex min-w-0 items-center gap-4">
            {contact?.whatsappUrl && (
              <a href={contact.whatsappUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1.5 hover:underline">
                <MessageCircle aria-hidden="true" className="h-4 w-4" />
                <span className="truncate" translate="no">
                  {t("topBar.whatsapp", { number: contact.whatsappNumber })}
                </span>
              </a>
            )}
            {contact?.email && (
              <a href={`mailto:${contact.email}`} className="hidden items-center gap-1.5 hover:underline sm:inline-flex" translate="no">
                <Mail aria-hidden="true" className="h-4 w-4" />
                {contact.email}
              </a>
            )}
          </p>
          <div className="[&_button]:text-white [&_button:hover]:bg-brand-800">
            <LanguageSwitch />
          </div>
        </div>
      </aside>
      <header className="sticky top-0 z-30 border-b border-slate-200/70 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <a href="/" className="flex items-center gap-2 text-xl font-bold text-brand-700" translate="no">
            <span aria-hidden="true" className="grid h-8 w-8 place-items-center rounded-lg bg-brand-700 text-white">
              S
            </span>
            {t("appName", { ns: "common" })}
          </a>
          <nav aria-label={t("nav.sections")} className="hidden items-center gap-6 text-sm font-medium text-slate-700 md:flex">
            {ANCHORS.map(([id, key]) => (
              <a key={id} href={`#${id}`} className="hover:text-brand-700">
                {t(`nav.${key}`)}
              </a>
            ))}
          </nav>
          <div className="flex items-center gap-2">
            <span className="hidden sm:contents">
              <a href="/login" className={buttonClass({ variant: "ghost", size: "sm" })}>
                {t("nav.signIn", { ns: "common" })}
              </a>
            </span>
            <a href="/checkout" className={buttonClass({ size: "sm" })}>
              {t("nav.getStarted", { ns: "common" })}
            </a>
            <button
              type="button"
              className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 md:hidden"
              aria-expanded={open}
              aria-controls="landing-menu"
              aria-label={open ? t("nav.closeMenu") : t("nav.menu")}
              onClick={() => setOpen(!open)}
            >
              {open ? <X aria-hidden="true" className="h-5 w-5" /> : <Menu aria-hidden="true" className="h-5 w-5" />}
            </button>
          </div>
        </div>
        {open && (
          <nav id="landing-menu" aria-label={t("nav.sections")} className="border-t border-slate-200 bg-white px-4 py-3 md:hidden">
            <ul className="space-y-1">
              {ANCHORS.map(([id, key]) => (
                <li key={id}>
                  <a href={`#${id}`} onClick={() => setOpen(false)} className="block rounded-lg px-3 py-2 font-medium hover:bg-slate-100">
                    {t(`nav.${key}`)}
                  </a>
                </li>
              ))}
              <li>
                <a href="/login" className="block rounded-lg px-3 py-2 font-medium hover:bg-slate-100">
                  {t("nav.signIn", { ns: "common" })}
                </a>
              </li>
            </ul>
          </nav>
        )}
      </header>
    </>
  );
}
