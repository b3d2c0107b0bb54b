// Every route of the product, each page loaded on demand (route-level code splitting), the
// logged-in pages under one guarded layout and /admin under the admin layout. Paths the app does not
// know render the 404 page. Every page but the landing page sits under the API layout, which
// brings the gRPC-Web client: the landing page loads without it.

import { type RouteObject, useLocation } from "react-router";

/** A legal page (privacy policy, terms of use, the LGPD rights), loaded on demand. */
function legal(document: "privacy" | "terms" | "lgpd") {
  return async () => {
    const { LegalPage } = await import("@/features/legal/components/legal-page");
    return {
      Component: function RoutedLegalPage() {
        return <LegalPage document={document} />;
      },
    };
  };
}

const checkout = async () => {
  const { CheckoutPage } = await import("@/features/billing/components/checkout-page");
  return { Component: CheckoutPage };
};

/** Shown while the first page's code loads. */
function Loading() {
  return (
    <p role="status" className="py-24 text-center text-slate-600">
      Carregando...
    </p>
  );
}

/** `/` reached from another page (a first visit to `/` loads the landing page without the router). */
const landing: RouteObject = {
  path: "/",
  lazy: async () => {
    const { LandingPage } = await import("@/features/landing/components/landing-page");
    return {
      Component: function RoutedLandingPage() {
        return <LandingPage search={useLocation().search} />;
      },
    };
  },
};

const pages: RouteObject[] = [
  { path: "/checkout", lazy: checkout },
  { path: "/checkout/:phoneNumber", lazy: checkout },
  {
    path: "/checkout/sandbox/:session",
    lazy: async () => {
      const { SandboxPage } = await import("@/features/billing/components/sandbox-page");
      return { Component: SandboxPage };
    },
  },
  {
    path: "/login",
    lazy: async () => {
      const { LoginPage } = await import("@/features/auth/components/login-page");
      return { Component: LoginPage };
    },
  },
  {
    path: "/success",
    lazy: async () => {
      const { SuccessPage } = await import("@/features/billing/components/success-page");
      return { Component: SuccessPage };
    },
  },
  {
    // Every logged-in page sits under one guard.
    lazy: async () => {
      const { LoggedInLayout } = await import("@/features/auth/components/require-auth");
      return { Component: LoggedInLayout };
    },
    children: [
      {
        path: "/dashboard",
        lazy: async () => ({ Component: (await import("@/features/dashboard/components/dashboard-page")).DashboardPage }),
      },
      {
        path: "/business-plan",
        lazy: async () => ({ Component: (await import("@/features/business-plan/components/builder-page")).BuilderPage }),
      },
      {
        path: "/chat",
        lazy: async () => ({ Component: (await import("@/features/chat/components/chat-page")).ChatPage }),
      },
    ],
  },
  {
    lazy: async () => {
      const { AdminLayout } = await import("@/features/auth/components/require-auth");
      return { Component: AdminLayout };
    },
    children: [
      {
        path: "/admin",
        lazy: async () => ({ Component: (await import("@/features/admin/components/admin-page")).AdminPage }),
      },
    ],
  },
  // The legal pages, at their Portuguese and English addresses.
  { path: "/privacidade", lazy: legal("privacy") },
  { path: "/privacy", lazy: legal("privacy") },
  { path: "/termos", lazy: legal("terms") },
  { path: "/terms", lazy: legal("terms") },
  { path: "/lgpd", lazy: legal("lgpd") },
  { path: "/gdpr", lazy: legal("lgpd") },
  {
    // Development mode's WhatsApp simulator (the server offers its API only in dev mode).
    path: "/dev/whatsapp",
    lazy: async () => {
      const { SimulatorPage } = await import("@/features/whatsapp-dev/components/simulator-page");
      return { Component: SimulatorPage };
    },
  },
  {
    path: "*",
    lazy: async () => {
      const { NotFoundPage } = await import("./routes/not-found");
      return { Component: NotFoundPage };
    },
  },
];

const withApi: RouteObject = {
  lazy: async () => {
    const { ApiLayout } = await import("./api-layout");
    return { Component: ApiLayout };
  },
  children: pages,
};

export const routes: RouteObject[] = [{ HydrateFallback: Loading, children: [landing, withApi] }];
