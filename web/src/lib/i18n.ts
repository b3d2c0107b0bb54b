// i18next set up with the app's catalogues (one JSON file per language and namespace under
// src/locales) and the language rules of ./language. English is the fallback for a missing key.

import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";

import enCommon from "@/locales/en/common.json";
import ptCommon from "@/locales/pt-BR/common.json";

import { type AppLanguage, detectLanguage, normalizeLanguage, persistLanguage, SUPPORTED_LANGUAGES } from "./language";

/**
 * What every page needs: the shared copy. Each page's own comes with its chunk: the landing page's
 * with it (`registerLandingCatalogues`), the others' with the API layout (`registerPageCatalogues`).
 */
export const resources = {
  "pt-BR": { common: ptCommon },
  en: { common: enCommon },
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
    ns: ["common"],
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

/** Adds catalogues (language → namespace → copy) once; later calls change nothing. */
export function addCatalogues(instance: i18n, catalogues: Record<string, Record<string, object>>): void {
  for (const [language, namespaces] of Object.entries(catalogues)) {
    for (const [namespace, catalogue] of Object.entries(namespaces)) {
      if (!instance.hasResourceBundle(language, namespace)) instance.addResourceBundle(language, namespace, catalogue);
    }
  }
}
