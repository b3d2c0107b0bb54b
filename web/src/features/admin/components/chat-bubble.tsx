import { useTranslation } from "react-i18next";

import { WhatsAppText } from "@/components/ui/whatsapp-text";
import { type ChatMessage, ChatMessageType } from "@/gen/socio/v1/common_pb";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/dates";
import { currentLanguage } from "@/lib/i18n";
import { formatPhone } from "@/lib/phone";

/** An admin's name as the server gives it, or their number when they have no name. */
export function adminName(name: string): string {
  return name.startsWith("+") ? formatPhone(name) : name;
}

/**
 * One message of a conversation as admins see it: the person's on the left, ours on the right —
 * the consultant's, or a team member's (named, in another colour) — with its time, and a mark
 * when WhatsApp did not deliver it, or when it was never sent (a reminder written before the person
 * said PARAR).
 */
export function ChatBubble({ message, person }: { message: ChatMessage; person: string }) {
  const { t, i18n } = useTranslation("admin");
  const theirs = message.type === ChatMessageType.USER;
  const author = theirs ? person : message.writtenBy ? t("detail.person", { name: adminName(message.writtenBy) }) : t("detail.assistant");
  return (
    <li className={cn("max-w-[85%] rounded-xl px-3 py-2", theirs ? "bg-slate-100" : message.writtenBy ? "ml-auto bg-amber-50" : "ml-auto bg-brand-50")}>
      <p className="text-xs font-semibold text-slate-600">
        {author} · <time>{formatDateTime(message.timestamp, currentLanguage(i18n))}</time>
        {message.status === "failed" && <span className="ml-1 text-red-700">· {t("handoffs.failed")}</span>}
        {message.status === "dropped" && <span className="ml-1 text-slate-600">· {t("handoffs.dropped")}</span>}
      </p>
      <p className="mt-1 whitespace-pre-wrap">
        <WhatsAppText text={message.content} />
      </p>
    </li>
  );
}
