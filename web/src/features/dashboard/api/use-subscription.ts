import { useMutation, useQuery } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";

import { BillingService } from "@/gen/socio/v1/billing_pb";
import { invalidateSubscription } from "@/lib/query-keys";

/** The caller's subscription and any guarantee refund still to be paid by Pix (`GET /api/subscriptions/status`). */
export function useSubscriptionStatus() {
  return useQuery(BillingService.method.getSubscriptionStatus, {});
}

/** Cancels the caller's subscription (`POST /api/subscriptions/cancel`): refunded within the 7-day guarantee. */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation(BillingService.method.cancelSubscription, {
    onSuccess: () => invalidateSubscription(queryClient),
  });
}

/** The Pix key for a boleto's guarantee refund (`POST /api/subscriptions/refund/pix-key`). */
export function useSetRefundPixKey() {
  const queryClient = useQueryClient();
  return useMutation(BillingService.method.setRefundPixKey, {
    onSuccess: () => invalidateSubscription(queryClient),
  });
}
