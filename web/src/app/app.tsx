import { useState } from "react";
import { createBrowserRouter, RouterProvider } from "react-router";

import { createI18n, currentLanguage } from "@/lib/i18n";
import { createApiTransport } from "@/lib/transport";

import { AppProviders, createQueryClient } from "./providers";
import { routes } from "./routes";

function createApp() {
  const i18n = createI18n();
  const router = createBrowserRouter(routes);
  const queryClient = createQueryClient();
  const transport = createApiTransport({
    getLanguage: () => currentLanguage(i18n),
    // The session could not be renewed: the tokens are gone; log in again.
    onSessionExpired: () => {
      queryClient.clear();
      void router.navigate("/login");
    },
  });
  return { i18n, router, queryClient, transport };
}

export function App() {
  const [{ i18n, router, queryClient, transport }] = useState(createApp);
  return (
    <AppProviders i18n={i18n} transport={transport} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
