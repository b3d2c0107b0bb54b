// The web chat: the conversation's history (the same as on WhatsApp) and sending a message with
// the consultant's answer streamed back (server streaming over gRPC-Web).

import { createClient } from "@connectrpc/connect";
import { useInfiniteQuery, useTransport } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";

import type { ChatMessage } from "@/gen/socio/v1/common_pb";
import { ConsultantService } from "@/gen/socio/v1/consultant_pb";
import { invalidateConversation } from "@/lib/query-keys";

export const CHAT_PAGE_SIZE = 30;

/** The conversation, newest page first; older pages load on demand. */
export function useChatHistory() {
  return useInfiniteQuery(
    ConsultantService.method.listChatMessages,
    { page: 1, limit: CHAT_PAGE_SIZE },
    {
      pageParamKey: "page",
      getNextPageParam: (last, pages) => (pages.length < last.totalPages ? pages.length + 1 : undefined),
    },
  );
}

export interface Exchange {
  /** The user's message as stored (absent until the server confirms it). */
  question: ChatMessage | null;
  pendingText: string;
  /** The answer so far while it streams. */
  partial: string;
  answer: ChatMessage | null;
}

/** Sends one message at a time and follows the streamed answer. */
export function useSendMessage() {
  const transport = useTransport();
  const queryClient = useQueryClient();
  const [exchange, setExchange] = useState<Exchange | null>(null);
  const [sending, setSending] = useState(false);

  const send = useCallback(
    async (text: string) => {
      const client = createClient(ConsultantService, transport);
      setSending(true);
      let current: Exchange = { question: null, pendingText: text, partial: "", answer: null };
      setExchange(current);
      try {
        for await (const response of client.chat({ text })) {
          const event = response.event;
          if (event.case === "userMessage") current = { ...current, question: event.value };
          else if (event.case === "delta") current = { ...current, partial: current.partial + event.value };
          else if (event.case === "reply") current = { ...current, answer: event.value };
          setExchange(current);
        }
        await invalidateConversation(queryClient);
        setExchange(null);
      } catch (error) {
        setExchange(null);
        throw error;
      } finally {
        setSending(false);
      }
    },
    [transport, queryClient],
  );

  return { send, sending, exchange };
}
