// Renders the app's real routes in a memory router with an in-memory, fully typed API server built
// from the generated code (no hand-written fetch mocks), through the app's own interceptors; or the
// landing page alone, as a first visit to `/` loads it.

import { createRouterTransport, type ConnectRouter } from "@connectrpc/connect";
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";

import { createQueryClient } from "@/app/api-layout";
import { LandingApp } from "@/app/landing-app";
import { AppProviders } from "@/app/providers";
import { routes } from "@/app/routes";
import { createI18n, currentLanguage } from "@/lib/i18n";
import type { AppLanguage } from "@/lib/language";
import { apiInterceptors, languageInterceptor, refreshWith } from "@/lib/transport";

export function renderApp(path: string, options: { language?: AppLanguage; api?: (router: ConnectRouter) => void } = {}) {
  const i18n = createI18n(options.language ?? "pt-BR");
  const getLanguage = () => currentLanguage(i18n);
  const api = options.api ?? (() => {});
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const plain = createRouterTransport(api, { transport: { interceptors: [languageInterceptor(getLanguage)] } });
  const onSessionExpired = () => void router.navigate("/login");
  const transport = createRouterTransport(api, {
    transport: { interceptors: apiInterceptors({ getLanguage, onSessionExpired }, refreshWith(plain)) },
  });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  const view = render(
    <AppProviders i18n={i18n} api={{ transport, queryClient }}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, i18n };
}

/** The landing page as the entry renders a first visit to `/` (no router); `search` is the query. */
export function renderLanding(search = "", options: { language?: AppLanguage } = {}) {
  const i18n = createI18n(options.language ?? "pt-BR");
  return { ...render(<LandingApp i18n={i18n} search={search} />), i18n };
}
