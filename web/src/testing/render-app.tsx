// Renders the app's real routes in a memory router with an in-memory, fully typed API server built
// from the generated code (no hand-written fetch mocks).

import { createRouterTransport, type ConnectRouter } from "@connectrpc/connect";
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";

import { AppProviders, createQueryClient } from "@/app/providers";
import { routes } from "@/app/routes";
import { createI18n, currentLanguage } from "@/lib/i18n";
import type { AppLanguage } from "@/lib/language";
import { apiInterceptors } from "@/lib/transport";

export function renderApp(path: string, options: { language?: AppLanguage; api?: (router: ConnectRouter) => void } = {}) {
  const i18n = createI18n(options.language ?? "pt-BR");
  const transport = createRouterTransport(options.api ?? (() => {}), {
    transport: { interceptors: apiInterceptors(() => currentLanguage(i18n)) },
  });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders i18n={i18n} transport={transport} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, i18n };
}
