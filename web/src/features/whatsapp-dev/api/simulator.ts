// The dev-mode WhatsApp endpoints: what the product sent to a number, and a message as that number.
import { useMutation, useQuery } from "@tanstack/react-query";

import { restCall } from "@/lib/rest";

export interface OutboxMessage {
  to: string;
  text: string;
  kind: string;
  createdAt: string;
  /** A file the product sent (the plan's PDF), to download as the phone would. */
  document?: { fileName: string; url: string } | null;
  /** Answers offered to tap (WhatsApp's reply buttons, or a list beyond three). */
  choices?: { id: string; title: string }[];
}

/** Whether a simulated address is a business-scoped user id (`BR.…`) rather than a number. */
export const isBusinessScoped = (address: string) => /^[A-Z]{2}\./.test(address);

/**
 * A stable business-scoped user id for a simulated username: WhatsApp gives each person one per
 * business (`BR.` and digits), and the simulator keeps the same one for the same username.
 */
export function simulatedBsuid(username: string): string {
  let a = 2166136261;
  let b = 5381;
  for (const c of username.trim().toLowerCase()) {
    a = Math.imul(a ^ c.charCodeAt(0), 16777619) >>> 0;
    b = (Math.imul(b, 33) + c.charCodeAt(0)) >>> 0;
  }
  return `BR.${String(a).padStart(10, "0")}${String(b).padStart(10, "0")}`;
}

/** What the product sent to an address: a number (`+55…`) or a business-scoped user id. */
export function useOutbox(address: string, language: string) {
  const query = isBusinessScoped(address) ? `userId=${encodeURIComponent(address)}` : `phone=${encodeURIComponent(address)}`;
  return useQuery({
    queryKey: ["dev-outbox", address],
    queryFn: ({ signal }) =>
      restCall<{ messages: OutboxMessage[]; typing: boolean }>(`/api/dev/whatsapp/outbox?${query}`, {
        language,
        signal,
      }),
    enabled: isBusinessScoped(address) || address.replace(/\D/g, "").length >= 8,
    refetchInterval: 1000,
    retry: false,
  });
}

export function useSendAsUser(language: string) {
  return useMutation({
    mutationFn: (message: {
      from?: string;
      userId?: string;
      username?: string;
      name: string;
      text: string;
      choice?: string;
      list?: boolean;
    }) =>
      restCall<{ messageId: string }>("/api/dev/whatsapp/inbound", {
        method: "POST",
        body: JSON.stringify(message),
        language,
      }),
  });
}
