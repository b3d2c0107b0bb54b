// i18next set up with the app's catalogues (one JSON file per language and namespace under
// src/locales) and the language rules of ./language. English is the fallback for a missing key.

import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";

import enCommon from "@/locales/en/common.json";
import enLanding from "@/locales/en/landing.json";
import ptCommon from "@/locales/pt-BR/common.json";
import ptLanding from "@/locales/pt-BR/landing.json";

import { type AppLanguage, detectLanguage, normalizeLanguage, persistLanguage, SUPPORTED_LANGUAGES } from "./language";

/**
 * What the first page needs: the shared copy and the landing page's. The other pages' catalogues
 * come with the API layout's chunk (`registerPageCatalogues`), so the landing page does not carry
 * them.
 */
export const resources = {
  "pt-BR": { common: ptCommon, landing: ptLanding },
  en: { common: enCommon, landing: enLanding },
} as const;

/** Creates and initialises an i18next instance (one for the app, a fresh one per test). */
export function createI18n(language: AppLanguage = detectLanguage()): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: "en",
    supportedLngs: [...SUPPORTED_LANGUAGES],
    defaultNS: "common",
    ns: ["common", "landing"],
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  if (typeof document !== "undefined") document.documentElement.lang = language;
  return instance;
}

/** The instance's language as one of ours. */
export function currentLanguage(instance: i18n): AppLanguage {
  return normalizeLanguage(instance.language) ?? "pt-BR";
}

/** Switches, saves and broadcasts. */
export async function changeLanguage(instance: i18n, language: AppLanguage): Promise<void> {
  await instance.changeLanguage(language);
  persistLanguage(language);
}
