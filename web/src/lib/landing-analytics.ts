// The landing page's A/B funnel as the browser reports it: a random visitor id kept in
// localStorage (nothing personal), the variant the visitor saw, and one event per page view sent
// to the public tracking call over plain REST (the landing page carries no gRPC-Web client).
// Reporting never gets in the visitor's way: failures are ignored.

import { useEffect } from "react";

import { restCall } from "./rest";

const VISITOR_KEY = "socioVisitorId";
const VARIANT_KEY = "socioLandingVariant";

export type HeroVariant = "A" | "B";

/** `?variant=B` picks the second hero; anything else is A. */
export function heroVariant(value: string | null): HeroVariant {
  return value === "B" ? "B" : "A";
}

function visitorId(): string {
  let id = localStorage.getItem(VISITOR_KEY);
  if (!id || !/^[A-Za-z0-9-]{8,64}$/.test(id)) {
    id = crypto.randomUUID();
    localStorage.setItem(VISITOR_KEY, id);
  }
  return id;
}

/** The variant this browser last saw on the landing page, if it saw one. */
export function seenVariant(): HeroVariant | null {
  const value = localStorage.getItem(VARIANT_KEY);
  return value === "A" || value === "B" ? value : null;
}

/** Reports a landing view (remembering the variant) or a checkout start, once per mount. */
export function useTrackEvent(kind: "landingView" | "checkoutStart", variant: HeroVariant | null) {
  useEffect(() => {
    if (!variant) return;
    try {
      if (kind === "landingView") localStorage.setItem(VARIANT_KEY, variant);
      const body = { kind: kind === "landingView" ? "landing_view" : "checkout_start", variant, visitorId: visitorId() };
      restCall("/api/analytics/events", { method: "POST", language: "pt-BR", keepalive: true, body: JSON.stringify(body) }).catch(() => {});
    } catch {
      // Storage may be unavailable (private modes); the page works all the same.
    }
  }, [kind, variant]);
}
