// The landing page's copy in both languages, added to the app's i18next instance when the page
// first renders: it travels in the landing page's chunk, not in the entry every page loads.

import type { i18n } from "i18next";

import { addCatalogues } from "@/lib/i18n";
import enLanding from "@/locales/en/landing.json";
import ptLanding from "@/locales/pt-BR/landing.json";

export function registerLandingCatalogues(instance: i18n): void {
  addCatalogues(instance, { "pt-BR": { landing: ptLanding }, en: { landing: enLanding } });
}
