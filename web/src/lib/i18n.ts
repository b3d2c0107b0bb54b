// i18next set up with the app's catalogues (one JSON file per language and namespace under
// src/locales) and the language rules of ./language. English is the fallback for a missing key.

import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";

import enAdmin from "@/locales/en/admin.json";
import enAuth from "@/locales/en/auth.json";
import enBilling from "@/locales/en/billing.json";
import enChat from "@/locales/en/chat.json";
import enBusinessPlan from "@/locales/en/businessPlan.json";
import enCommon from "@/locales/en/common.json";
import enDashboard from "@/locales/en/dashboard.json";
import enLanding from "@/locales/en/landing.json";
import enWhatsappDev from "@/locales/en/whatsappDev.json";
import ptAdmin from "@/locales/pt-BR/admin.json";
import ptAuth from "@/locales/pt-BR/auth.json";
import ptBilling from "@/locales/pt-BR/billing.json";
import ptChat from "@/locales/pt-BR/chat.json";
import ptBusinessPlan from "@/locales/pt-BR/businessPlan.json";
import ptCommon from "@/locales/pt-BR/common.json";
import ptDashboard from "@/locales/pt-BR/dashboard.json";
import ptLanding from "@/locales/pt-BR/landing.json";
import ptWhatsappDev from "@/locales/pt-BR/whatsappDev.json";

import { type AppLanguage, detectLanguage, normalizeLanguage, persistLanguage, SUPPORTED_LANGUAGES } from "./language";

export const resources = {
  "pt-BR": {
    common: ptCommon,
    admin: ptAdmin,
    auth: ptAuth,
    billing: ptBilling,
    chat: ptChat,
    businessPlan: ptBusinessPlan,
    dashboard: ptDashboard,
    landing: ptLanding,
    whatsappDev: ptWhatsappDev,
  },
  en: {
    common: enCommon,
    admin: enAdmin,
    auth: enAuth,
    billing: enBilling,
    chat: enChat,
    businessPlan: enBusinessPlan,
    dashboard: enDashboard,
    landing: enLanding,
    whatsappDev: enWhatsappDev,
  },
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
    ns: ["common", "admin", "auth", "billing", "chat", "businessPlan", "dashboard", "landing", "whatsappDev"],
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
