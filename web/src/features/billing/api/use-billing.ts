// The billing pages' calls: the plans, a checkout, what became of it, the sandbox's payment page,
// and who is buying (the logged-in person, and their dashboard's WhatsApp link after paying).

import { useMutation, useQuery } from "@connectrpc/connect-query";

import { AuthService } from "@/gen/socio/v1/auth_pb";
import { BillingService } from "@/gen/socio/v1/billing_pb";
import { DashboardService } from "@/gen/socio/v1/dashboard_pb";
import type { AppLanguage } from "@/lib/language";

/** The plans on offer in a language (`GET /api/subscriptions/plans`). */
export function usePlans(language: AppLanguage) {
  return useQuery(BillingService.method.listPlans, { language });
}

/** Starts a checkout (`POST /api/subscriptions/checkout`). */
export function useCreateCheckout() {
  return useMutation(BillingService.method.createCheckout);
}

/** The logged-in person, when a token is there (`GET /api/auth/me`); an ended session is an error. */
export function useBuyer(enabled: boolean) {
  return useQuery(AuthService.method.getMe, {}, { enabled, retry: false });
}

/** The Pro person's dashboard (its WhatsApp link), read only once they are Pro. */
export function useProDashboard(enabled: boolean) {
  return useQuery(DashboardService.method.getDashboard, {}, { enabled });
}

/** What became of a checkout, asked every `everyMs` while it is still open, `polls` times at most. */
export function useCheckoutResult(sessionId: string, everyMs: number, polls: number) {
  return useQuery(
    BillingService.method.getCheckoutResult,
    { sessionId },
    {
      retry: false,
      refetchInterval: (query) => (query.state.data?.state === "open" && query.state.dataUpdateCount < polls ? everyMs : false),
    },
  );
}

/** The sandbox provider's checkout session, for its test payment page. */
export function useSandboxCheckout(sessionId: string) {
  return useQuery(BillingService.method.getSandboxCheckout, { sessionId }, { retry: false });
}

/** Pays or abandons a sandbox checkout. */
export function useCompleteSandboxCheckout() {
  return useMutation(BillingService.method.completeSandboxCheckout);
}
