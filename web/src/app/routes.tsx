// Every route of spec §2, each page loaded on demand (route-level code splitting). Paths the app
// does not know render the 404 page.

import type { RouteObject } from "react-router";

import { NotFoundPage } from "./routes/not-found";

const upcoming = (page: import("./routes/upcoming").UpcomingPageKey) => async () => {
  const { UpcomingPage } = await import("./routes/upcoming");
  return { Component: () => <UpcomingPage page={page} /> };
};

export const routes: RouteObject[] = [
  {
    path: "/",
    lazy: async () => {
      const { LandingPage } = await import("@/features/landing/components/landing-page");
      return { Component: LandingPage };
    },
  },
  { path: "/checkout", lazy: upcoming("checkout") },
  { path: "/checkout/:phoneNumber", lazy: upcoming("checkout") },
  { path: "/login", lazy: upcoming("login") },
  { path: "/success", lazy: upcoming("success") },
  { path: "/dashboard", lazy: upcoming("dashboard") },
  { path: "/business-plan", lazy: upcoming("businessPlan") },
  { path: "/admin", lazy: upcoming("admin") },
  {
    // Development mode's WhatsApp simulator (the server offers its API only in dev mode).
    path: "/dev/whatsapp",
    lazy: async () => {
      const { SimulatorPage } = await import("@/features/whatsapp-dev/components/simulator-page");
      return { Component: SimulatorPage };
    },
  },
  { path: "*", Component: NotFoundPage },
];
