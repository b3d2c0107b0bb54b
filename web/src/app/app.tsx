import type { i18n } from "i18next";
import { useState } from "react";
import { createBrowserRouter, RouterProvider } from "react-router";

import { AppProviders } from "./providers";
import { routes } from "./routes";

/** Every page behind the router; `/` too when reached from another page of the app. */
export function App({ i18n }: { i18n: i18n }) {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProviders i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
