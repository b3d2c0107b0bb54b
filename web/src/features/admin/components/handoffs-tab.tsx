import { Headset, Radio, Send } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { type Handoff, HandoffReason, HandoffStatus } from "@/gen/socio/v1/handoff_pb";
import { cn } from "@/lib/cn";
import { fieldViolations, serverMessage } from "@/lib/errors";
import { formatPhone } from "@/lib/phone";

import { adminName, ChatBubble } from "./chat-bubble";
import { useCurrentAdmin, useGiveBack, useHandoffs, useLiveConversation, useSendAsConsultant, useTakeOver } from "../api/use-handoffs";

const REASON_KEYS: Record<HandoffReason, string> = {
  [HandoffReason.UNSPECIFIED]: "asked",
  [HandoffReason.ASKED]: "asked",
  [HandoffReason.CALL]: "call",
  [HandoffReason.ADMIN]: "admin",
};

/** How long someone has waited, in words ("3 min", "2 h"). */
function waited(seconds: bigint, t: (key: string, options?: Record<string, unknown>) => string): string {
  const s = Number(seconds);
  if (s < 60) return t("handoffs.justNow");
  if (s < 3600) return t("handoffs.minutes", { count: Math.floor(s / 60) });
  return t("handoffs.hours", { count: Math.floor(s / 3600) });
}

function QueueEntry({ handoff, selected, onSelect }: { handoff: Handoff; selected: boolean; onSelect: () => void }) {
  const { t } = useTranslation("admin");
  const taken = handoff.status === HandoffStatus.TAKEN;
  const name = handoff.userName || formatPhone(handoff.phoneNumber);
  return (
    <li>
      <button
        type="button"
        aria-pressed={selected}
        onClick={onSelect}
        className={cn(
          "w-full rounded-xl p-3 text-left ring-1 transition-colors",
          selected ? "bg-brand-50 ring-brand-600" : "bg-white ring-slate-200 hover:bg-slate-50",
        )}
      >
        <span className="flex items-center justify-between gap-2">
          <span className="font-semibold">{name}</span>
          <span className={cn("rounded-full px-2 py-0.5 text-xs font-semibold", taken ? "bg-slate-200 text-slate-700" : "bg-amber-100 text-amber-900")}>
            {taken ? t("handoffs.takenBy", { name: adminName(handoff.takenByName) }) : t("handoffs.waitingFor", { time: waited(handoff.waitingSeconds, t) })}
          </span>
        </span>
        <span className="mt-1 block text-sm text-slate-600">
          {formatPhone(handoff.phoneNumber)} · {t(`handoffs.reasons.${REASON_KEYS[handoff.reason]}`)}
        </span>
        {handoff.note && <span className="mt-1 line-clamp-2 block text-sm text-slate-700">“{handoff.note}”</span>}
      </button>
    </li>
  );
}

/** One person's conversation, live, with the composer and the take-over and give-back buttons. */
function ConversationPanel({ id }: { id: string }) {
  const { t } = useTranslation("admin");
  const { view, connected } = useLiveConversation(id);
  const me = useCurrentAdmin().data?.user;
  const take = useTakeOver();
  const giveBack = useGiveBack();
  const send = useSendAsConsultant();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const handoff = view?.handoff;
  const status = handoff?.status ?? HandoffStatus.NONE;
  const mine = status === HandoffStatus.TAKEN && handoff?.takenById === me?.id;
  const someoneElse = status === HandoffStatus.TAKEN && !mine;
  const name = handoff?.userName || formatPhone(handoff?.phoneNumber ?? "");
  const busy = take.isPending || giveBack.isPending;
  const list = useRef<HTMLOListElement>(null);
  const newest = view?.messages.at(-1)?.id;
  // The newest message in sight, as in any chat.
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [newest]);

  async function act(action: "take" | "giveBack") {
    try {
      if (action === "take") await take.mutateAsync({ id });
      else await giveBack.mutateAsync({ id });
      toast.success(action === "take" ? t("handoffs.toast.taken") : t("handoffs.toast.givenBack"));
    } catch (failure) {
      toast.error(t("toast.actionFailed"), { description: serverMessage(failure, "") || undefined });
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      await send.mutateAsync({ id, text });
      setText("");
    } catch (failure) {
      const message = fieldViolations(failure).text ?? serverMessage(failure, t("handoffs.sendFailed"));
      setError(message);
    }
  }

  return (
    <section aria-label={t("handoffs.conversationWith", { name })} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-lg font-semibold">{name}</h3>
          <p className="text-sm text-slate-600">
            {handoff && formatPhone(handoff.phoneNumber)}
            {connected && (
              <span className="ml-2 inline-flex items-center gap-1 text-brand-700">
                <Radio aria-hidden="true" className="h-3.5 w-3.5" />
                {t("handoffs.live")}
              </span>
            )}
          </p>
          <p role="status" className="mt-1 text-sm font-medium text-slate-700">
            {status === HandoffStatus.TAKEN
              ? mine
                ? t("handoffs.state.mine")
                : t("handoffs.state.other", { name: adminName(handoff?.takenByName ?? "") })
              : status === HandoffStatus.WAITING
                ? t("handoffs.state.waiting")
                : t("handoffs.state.ai")}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {!mine && (
            <Button disabled={busy || someoneElse || !view} onClick={() => void act("take")}>
              <Headset aria-hidden="true" className="h-4 w-4" />
              {t("handoffs.take")}
            </Button>
          )}
          {status !== HandoffStatus.NONE && (
            <Button variant="secondary" disabled={busy || someoneElse} onClick={() => void act("giveBack")}>
              {t("handoffs.giveBack")}
            </Button>
          )}
        </div>
      </header>

      <ol ref={list} aria-label={t("handoffs.messages")} aria-live="polite" className="mt-4 max-h-[28rem] space-y-2 overflow-y-auto">
        {view && view.messages.length === 0 && <li className="text-center text-slate-600">{t("detail.noMessages")}</li>}
        {view?.messages.map((m) => <ChatBubble key={m.id} message={m} person={name} />)}
      </ol>

      <form onSubmit={(e) => void submit(e)} className="mt-4 space-y-2">
        <FormField
          id="handoff-composer"
          label={t("handoffs.composer")}
          error={error}
          controlClassName="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2"
        >
          {(control) => <textarea {...control} rows={3} value={text} maxLength={4096} onChange={(e) => setText(e.target.value)} />}
        </FormField>
        {!mine && <p className="text-sm text-slate-600">{t("handoffs.composerHint")}</p>}
        <Button type="submit" disabled={send.isPending || !text.trim() || someoneElse}>
          <Send aria-hidden="true" className="h-4 w-4" />
          {send.isPending ? t("handoffs.sending") : t("handoffs.send")}
        </Button>
      </form>
    </section>
  );
}

/** The "Atendimento" tab: people waiting for a person, and the conversation being answered. */
export function HandoffsTab() {
  const { t } = useTranslation("admin");
  const queue = useHandoffs();
  const [selected, setSelected] = useState<string | null>(null);
  const handoffs = queue.data?.handoffs ?? [];

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
      <section aria-labelledby="handoff-queue" className="space-y-3">
        <div>
          <h2 id="handoff-queue" className="text-lg font-semibold">
            {t("handoffs.queue")}
          </h2>
          {queue.data && <p className="text-sm text-slate-600">{t("handoffs.counts", { waiting: queue.data.waiting, taken: queue.data.taken })}</p>}
        </div>
        {queue.isError && (
          <p role="alert" className="text-red-700">
            {t("handoffs.loadFailed")}
          </p>
        )}
        {queue.isSuccess && handoffs.length === 0 && <p className="text-slate-600">{t("handoffs.empty")}</p>}
        <ul className="space-y-2">
          {handoffs.map((h) => (
            <QueueEntry key={h.userId} handoff={h} selected={selected === h.userId} onSelect={() => setSelected(h.userId)} />
          ))}
        </ul>
      </section>
      {selected ? (
        <ConversationPanel id={selected} />
      ) : (
        <p className="self-center text-center text-slate-600">{t("handoffs.pick")}</p>
      )}
    </div>
  );
}
