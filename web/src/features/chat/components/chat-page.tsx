import { Code, ConnectError } from "@connectrpc/connect";
import { Send } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { toast } from "sonner";

import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import { WhatsAppText } from "@/components/ui/whatsapp-text";
import { type ChatMessage, ChatMessageType } from "@/gen/socio/v1/common_pb";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/dates";
import { serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";

import { useChatHistory, useSendMessage } from "../api/use-chat";

const MAX_CHARS = 4096;

function Bubble({ mine, label, time, children }: { mine: boolean; label: string; time?: string; children: React.ReactNode }) {
  return (
    <li className={cn("max-w-[85%] rounded-2xl px-4 py-2 shadow-sm", mine ? "ml-auto bg-[#d9fdd3]" : "bg-white")}>
      <p className="text-xs font-semibold text-slate-600">
        {label}
        {time && <> · <time>{time}</time></>}
      </p>
      <div className="mt-1 whitespace-pre-wrap break-words">{children}</div>
    </li>
  );
}

/** `/chat`: the same conversation as on WhatsApp, with the consultant's answers streamed in. */
export function ChatPage() {
  const { t, i18n } = useTranslation("chat");
  const language = currentLanguage(i18n);
  const history = useChatHistory();
  const { send, sending, exchange } = useSendMessage();
  const [text, setText] = useState("");
  const [proOnly, setProOnly] = useState(false);
  const end = useRef<HTMLDivElement>(null);

  const messages: ChatMessage[] = [...(history.data?.pages ?? [])].reverse().flatMap((page) => page.messages);
  const known = new Set(messages.map((m) => m.id));

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [messages.length, exchange?.partial, exchange?.answer]);

  async function submit(event?: React.FormEvent) {
    event?.preventDefault();
    const message = text.trim();
    if (!message || sending) return;
    setText("");
    try {
      await send(message);
    } catch (error) {
      setText(message);
      if (error instanceof ConnectError && error.code === Code.FailedPrecondition) setProOnly(true);
      else toast.error(t("sendFailed"), { description: serverMessage(error, "") || undefined });
    }
  }

  const label = (m: ChatMessage) => (m.type === ChatMessageType.USER ? t("you") : t("consultant"));

  return (
    <PageShell>
      <div className="mx-auto flex max-w-3xl flex-col px-4 py-8">
        <header className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h1 className="text-2xl font-bold">{t("title")}</h1>
            <p className="text-slate-600">{t("subtitle")}</p>
          </div>
          <Button asChild variant="secondary" size="sm">
            <Link to="/dashboard">{t("back")}</Link>
          </Button>
        </header>

        <section aria-label={t("conversation")} className="mt-6 flex-1 rounded-2xl bg-[#efeae2] p-4 ring-1 ring-slate-200">
          {history.hasNextPage && (
            <div className="mb-3 text-center">
              <Button size="sm" variant="secondary" disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
                {t("older")}
              </Button>
            </div>
          )}
          {history.isPending && <p role="status" className="py-10 text-center text-slate-600">{t("loading", { ns: "common" })}</p>}
          {history.isError && (
            <p role="alert" className="py-10 text-center text-red-700">
              {t("loadFailed")}
            </p>
          )}
          {history.isSuccess && messages.length === 0 && !exchange && <p className="py-10 text-center text-slate-600">{t("empty")}</p>}
          <ol className="space-y-3" aria-live="polite">
            {messages.map((m) => (
              <Bubble key={m.id} mine={m.type === ChatMessageType.USER} label={label(m)} time={formatDateTime(m.timestamp, language)}>
                <WhatsAppText text={m.content} />
              </Bubble>
            ))}
            {exchange && !(exchange.question && known.has(exchange.question.id)) && (
              <Bubble mine label={t("you")} time={exchange.question ? formatDateTime(exchange.question.timestamp, language) : undefined}>
                {exchange.question?.content ?? exchange.pendingText}
              </Bubble>
            )}
            {exchange && !(exchange.answer && known.has(exchange.answer.id)) && (
              <Bubble mine={false} label={t("consultant")} time={exchange.answer ? formatDateTime(exchange.answer.timestamp, language) : undefined}>
                {exchange.partial || exchange.answer ? (
                  <WhatsAppText text={exchange.answer?.content ?? exchange.partial} />
                ) : (
                  <span className="text-slate-500">{t("thinking")}</span>
                )}
              </Bubble>
            )}
          </ol>
          <div ref={end} />
        </section>

        {proOnly ? (
          <p role="alert" className="mt-4 rounded-2xl bg-amber-50 p-4 text-amber-900 ring-1 ring-amber-200">
            {t("proOnly")}{" "}
            <Link to="/checkout" className="font-semibold underline">
              {t("upgrade")}
            </Link>
          </p>
        ) : (
          <form onSubmit={(e) => void submit(e)} className="mt-4 flex items-end gap-2">
            <label className="flex-1">
              <span className="sr-only">{t("message")}</span>
              <textarea
                value={text}
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && !e.shiftKey) {
                    e.preventDefault();
                    void submit();
                  }
                }}
                rows={2}
                maxLength={MAX_CHARS}
                placeholder={t("placeholder")}
                className="w-full resize-none rounded-2xl border border-slate-300 px-4 py-3 focus:border-brand-600"
              />
            </label>
            <Button type="submit" disabled={sending || !text.trim()} aria-label={t("send")}>
              <Send aria-hidden="true" className="h-4 w-4" />
              <span className="hidden sm:inline">{sending ? t("sending") : t("send")}</span>
            </Button>
          </form>
        )}
      </div>
    </PageShell>
  );
}
