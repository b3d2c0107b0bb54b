import { useState } from "react";
import { createBrowserRouter, RouterProvider } from "react-router";

import { createI18n, currentLanguage } from "@/lib/i18n";
import { createApiTransport } from "@/lib/transport";

import { AppProviders, createQueryClient } from "./providers";
import { routes } from "./routes";

export function App() {
  const [i18n] = useState(() => createI18n());
  const [transport] = useState(() => createApiTransport(() => currentLanguage(i18n)));
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProviders i18n={i18n} transport={transport} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
