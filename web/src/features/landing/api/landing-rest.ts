// The landing page's calls over plain REST (the landing page carries no gRPC-Web client, to load
// fast): the plans, how to reach us, the newsletter. Shapes as the REST envelope's `data`.

import { useEffect, useState } from "react";

import type { AppLanguage } from "@/lib/language";
import { restCall } from "@/lib/rest";

export interface PlanJson {
  id: "free" | "pro";
  name: string;
  price: number;
  period: string;
  description: string;
  features: string[];
  limitations: string[];
  buttonText: string;
  popular: boolean;
  yearlyPrice: number;
  yearlySavings: number;
}

export interface ContactJson {
  whatsappNumber: string;
  whatsappUrl: string;
  email: string;
}

export interface ProofJson {
  plansCreated: number;
  states: string[];
  testimonials: { name: string; role: string; text: string }[];
}

export type Loaded<T> = { status: "pending" } | { status: "error"; error: unknown } | { status: "success"; data: T };

/** Loads once per key; a new key (e.g. a new language) loads again. */
export function useLoaded<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string; loaded: Loaded<T> }>({ key, loaded: { status: "pending" } });
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ key, loaded: { status: "success", data } }),
      (error: unknown) => current && setState({ key, loaded: { status: "error", error } }),
    );
    return () => {
      current = false;
    };
    // `load` follows from `key`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state.key === key ? state.loaded : { status: "pending" };
}

/** The plans on offer in a language (`GET /api/subscriptions/plans`). */
export function usePlans(language: AppLanguage) {
  return useLoaded(`plans:${language}`, () =>
    restCall<{ plans: PlanJson[] }>(`/api/subscriptions/plans?language=${encodeURIComponent(language)}`, { language }),
  );
}

/** The business's WhatsApp and the support address (`GET /api/contact`). */
export function useContact(language: AppLanguage) {
  return useLoaded("contact", () => restCall<ContactJson>("/api/contact", { language }));
}

/** Signs an address up with consent (`POST /api/newsletter`). */
export function subscribeNewsletter(email: string, consent: boolean, language: AppLanguage) {
  return restCall<object>("/api/newsletter", { method: "POST", language, body: JSON.stringify({ email, consent, language }) });
}

/** What the page may claim: counted figures and the operator's testimonials (`GET /api/landing/proof`). */
export function useProof(language: AppLanguage) {
  return useLoaded(`proof:${language}`, () =>
    restCall<ProofJson>(`/api/landing/proof?language=${encodeURIComponent(language)}`, { language }),
  );
}
