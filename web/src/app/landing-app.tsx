// The landing page on its own, as the browser's first visit to `/` loads it: language and the page,
// no router and no API client (both come with the app, which every other address loads).

import type { i18n } from "i18next";

import { LandingPage } from "@/features/landing/components/landing-page";

import { AppProviders } from "./providers";

export function LandingApp({ i18n, search }: { i18n: i18n; search: string }) {
  return (
    <AppProviders i18n={i18n}>
      <LandingPage search={search} />
    </AppProviders>
  );
}
