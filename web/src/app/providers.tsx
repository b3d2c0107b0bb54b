import type { i18n } from "i18next";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";

import { type ApiOverrides, ApiOverridesContext } from "./api-context";

/**
 * Language for everything below. The API client (gRPC-Web transport, query cache, toasts) is
 * provided by the lazily loaded `ApiLayout` around every page but the landing page, so the landing
 * page loads without it; tests may hand it their own transport and cache.
 */
export function AppProviders({ i18n, api = null, children }: { i18n: i18n; api?: ApiOverrides | null; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ApiOverridesContext.Provider value={api}>{children}</ApiOverridesContext.Provider>
    </I18nextProvider>
  );
}
