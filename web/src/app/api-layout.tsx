// The API client for every page but the landing page, loaded with the first such page: the
// gRPC-Web transport with the app's interceptors, the query cache and the toasts. One of each for
// the whole visit (module state), so the cache survives moving between pages.

import { TransportProvider } from "@connectrpc/connect-query";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useContext, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type NavigateFunction, Outlet, useNavigate } from "react-router";
import { Toaster } from "sonner";

import { currentLanguage } from "@/lib/i18n";
import { registerPageCatalogues } from "@/lib/page-catalogues";
import { createApiTransport } from "@/lib/transport";

import { type ApiOverrides, ApiOverridesContext } from "./api-context";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    },
  });
}

let shared: ApiOverrides | null = null;
let navigateTo: NavigateFunction | null = null;

function sharedApi(language: () => string): ApiOverrides {
  if (!shared) {
    const queryClient = createQueryClient();
    const transport = createApiTransport({
      getLanguage: language,
      // The session could not be renewed: the tokens are gone; log in again.
      onSessionExpired: () => {
        queryClient.clear();
        void navigateTo?.("/login");
      },
    });
    shared = { transport, queryClient };
  }
  return shared;
}

export function ApiLayout() {
  const overrides = useContext(ApiOverridesContext);
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const [api] = useState(() => {
    registerPageCatalogues(i18n);
    return overrides ?? sharedApi(() => currentLanguage(i18n));
  });
  useEffect(() => {
    navigateTo = navigate;
  }, [navigate]);
  return (
    <TransportProvider transport={api.transport}>
      <QueryClientProvider client={api.queryClient}>
        <Outlet />
        <Toaster richColors closeButton position="top-center" />
      </QueryClientProvider>
    </TransportProvider>
  );
}
