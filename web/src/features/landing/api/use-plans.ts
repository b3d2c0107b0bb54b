import { useQuery } from "@connectrpc/connect-query";

import { BillingService } from "@/gen/socio/v1/billing_pb";
import type { AppLanguage } from "@/lib/language";

/** The plans on offer, in the given language (`GET /api/subscriptions/plans`). */
export function usePlans(language: AppLanguage) {
  return useQuery(BillingService.method.listPlans, { language });
}
