// The copy of every page but the landing page, in both languages, added to the app's i18next
// instance when the API layout (every page but the landing page) first loads. The landing page adds
// its own the same way, so the entry carries only the shared copy.

import type { i18n } from "i18next";

import { addCatalogues } from "@/lib/i18n";

import enAdmin from "@/locales/en/admin.json";
import enAuth from "@/locales/en/auth.json";
import enBilling from "@/locales/en/billing.json";
import enBusinessPlan from "@/locales/en/businessPlan.json";
import enChat from "@/locales/en/chat.json";
import enDashboard from "@/locales/en/dashboard.json";
import enLegal from "@/locales/en/legal.json";
import enWhatsappDev from "@/locales/en/whatsappDev.json";
import ptAdmin from "@/locales/pt-BR/admin.json";
import ptAuth from "@/locales/pt-BR/auth.json";
import ptBilling from "@/locales/pt-BR/billing.json";
import ptBusinessPlan from "@/locales/pt-BR/businessPlan.json";
import ptChat from "@/locales/pt-BR/chat.json";
import ptDashboard from "@/locales/pt-BR/dashboard.json";
import ptLegal from "@/locales/pt-BR/legal.json";
import ptWhatsappDev from "@/locales/pt-BR/whatsappDev.json";

export const pageCatalogues = {
  "pt-BR": { admin: ptAdmin, auth: ptAuth, billing: ptBilling, businessPlan: ptBusinessPlan, chat: ptChat, dashboard: ptDashboard, legal: ptLegal, whatsappDev: ptWhatsappDev },
  en: { admin: enAdmin, auth: enAuth, billing: enBilling, businessPlan: enBusinessPlan, chat: enChat, dashboard: enDashboard, legal: enLegal, whatsappDev: enWhatsappDev },
} as const;

/** Adds every page's copy but the landing page's. */
export function registerPageCatalogues(instance: i18n): void {
  addCatalogues(instance, pageCatalogues);
}
