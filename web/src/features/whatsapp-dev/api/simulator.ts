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

export function useOutbox(phone: string, language: string) {
  return useQuery({
    queryKey: ["dev-outbox", phone],
    queryFn: ({ signal }) =>
      restCall<{ messages: OutboxMessage[]; typing: boolean }>(`/api/dev/whatsapp/outbox?phone=${encodeURIComponent(phone)}`, {
        language,
        signal,
      }),
    enabled: phone.replace(/\D/g, "").length >= 8,
    refetchInterval: 1000,
    retry: false,
  });
}

export function useSendAsUser(language: string) {
  return useMutation({
    mutationFn: (message: { from: string; name: string; text: string; choice?: string; list?: boolean }) =>
      restCall<{ messageId: string }>("/api/dev/whatsapp/inbound", {
        method: "POST",
        body: JSON.stringify(message),
        language,
      }),
  });
}
