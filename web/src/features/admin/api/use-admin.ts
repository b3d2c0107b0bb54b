// The admin panel's calls (all admin-only on the server): figures, the users directory, one user's
// conversation and plan, the overrides and LGPD actions, and analytics.

import { useMutation, useQuery } from "@connectrpc/connect-query";
import { keepPreviousData } from "@tanstack/react-query";

import { AdminService, SubscriptionFilter } from "@/gen/socio/v1/admin_pb";

import { useReloadAfter } from "./reload-after";

/** The business facts in use, each with its status today (expired ones are still used, said stale). */
export function useFacts() {
  return useQuery(AdminService.method.listFacts, {}, { refetchInterval: 3_600_000 });
}

/** The four stat cards' figures, refetched every 30 s. */
export function useAdminStats() {
  return useQuery(AdminService.method.getAdminStats, {}, { refetchInterval: 30_000 });
}

export const USERS_PAGE_SIZE = 20;

/** A page of users; the previous page stays on screen while the next one loads. */
export function useUsers(filter: SubscriptionFilter, search: string, page: number) {
  return useQuery(
    AdminService.method.listUsers,
    { subscriptionStatus: filter, search, page, limit: USERS_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}

export function useUser(id: string) {
  return useQuery(AdminService.method.getUser, { id });
}

export function useUserPlan(id: string) {
  return useQuery(AdminService.method.getUserBusinessPlan, { id });
}

export const CHAT_PAGE_SIZE = 50;

/** One page of a user's conversation between two optional days (YYYY-MM-DD, inclusive). */
export function useChatHistory(id: string, from: string, to: string, page: number) {
  const day = (value: string) => (value ? { seconds: BigInt(Date.parse(`${value}T00:00:00Z`) / 1000), nanos: 0 } : undefined);
  return useQuery(
    AdminService.method.getChatHistory,
    { id, startDate: day(from), endDate: day(to), page, limit: CHAT_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}


export function useSetSubscription() {
  return useMutation(AdminService.method.setUserSubscription, useReloadAfter());
}

export function useDeleteUser() {
  return useMutation(AdminService.method.deleteUser, useReloadAfter());
}

export function useExportUser() {
  return useMutation(AdminService.method.exportUserData);
}

export function useAnalytics(days: number) {
  return useQuery(AdminService.method.getAnalytics, { days });
}

export function useFailedMessages() {
  return useQuery(AdminService.method.listFailedMessages, { page: 1, limit: 10 });
}

/** Guarantee refunds to pay by hand by Pix (boleto payments): to pay first, then awaiting a key, then paid. */
export function useRefunds() {
  return useQuery(AdminService.method.listRefunds, {}, { refetchInterval: 60_000 });
}

/** Records a refund paid by Pix; the person is told on WhatsApp. */
export function useMarkRefundPaid() {
  return useMutation(AdminService.method.markRefundPaid, useReloadAfter());
}
