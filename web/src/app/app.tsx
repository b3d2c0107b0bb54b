import { useState } from "react";
import { createBrowserRouter, RouterProvider } from "react-router";

import { createI18n } from "@/lib/i18n";

import { AppProviders } from "./providers";
import { routes } from "./routes";

function createApp() {
  return { i18n: createI18n(), router: createBrowserRouter(routes) };
}

export function App() {
  const [{ i18n, router }] = useState(createApp);
  return (
    <AppProviders i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
