import { FileText, SendHorizontal, Smartphone } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import { currentLanguage } from "@/lib/i18n";
import { RestError } from "@/lib/rest";

import { simulatedBsuid, useOutbox, useSendAsUser } from "../api/simulator";
import { WhatsAppText } from "@/components/ui/whatsapp-text";

interface Bubble {
  from: "user" | "product";
  text: string;
  at: string;
  kind?: string;
  document?: { fileName: string; url: string } | null;
  choices?: { id: string; title: string }[];
  /** A sent message: how many of our messages the chat held when it was sent (what came after it
   * answers it, whatever the two clocks say). */
  after?: number;
}

/**
 * The chat in the order things happened: our messages in the outbox's order, and each message the
 * person sent after the messages that were there when they sent it — so a reply is never shown
 * above the tap that caused it, even when it was written within the same millisecond.
 */
export function inOrder(sent: Bubble[], product: Bubble[]): Bubble[] {
  const before = (b: Bubble) => b.after ?? product.filter((p) => p.at.localeCompare(b.at) <= 0).length;
  const keyed = [
    ...product.map((b, i) => ({ b, key: i, tie: 1 })),
    ...sent.map((b, i) => ({ b, key: before(b) - 0.5, tie: i })),
  ];
  return keyed.sort((x, y) => x.key - y.key || x.tie - y.tie).map((k) => k.b);
}

const IDENTITY_KEY = "socio.devWhatsApp.identity";
const sentKey = (phone: string) => `socio.devWhatsApp.sent.${phone.replace(/\D/g, "")}`;

function readSent(phone: string): Bubble[] {
  try {
    return JSON.parse(window.sessionStorage.getItem(sentKey(phone)) ?? "[]") as Bubble[];
  } catch {
    return [];
  }
}

/** Who the simulator plays: a number, a profile name and, optionally, a WhatsApp username — with
 * the number hidden, as WhatsApp shows people who adopted a username. */
interface Identity {
  phone: string;
  name: string;
  username: string;
  hideNumber: boolean;
}

const DEFAULT_IDENTITY: Identity = { phone: "+55 11 98765-4321", name: "Ana Lima", username: "", hideNumber: false };

function readIdentity(): Identity {
  try {
    return { ...DEFAULT_IDENTITY, ...JSON.parse(window.localStorage.getItem(IDENTITY_KEY) ?? "{}") };
  } catch {
    return DEFAULT_IDENTITY;
  }
}

/** Where messages reach the simulated person: their number, or their business-scoped id. */
function addressOf(identity: Identity): string {
  return identity.hideNumber && identity.username.trim() ? simulatedBsuid(identity.username) : identity.phone;
}

const time = (iso: string, language: string) =>
  new Date(iso).toLocaleTimeString(language === "pt-BR" ? "pt-BR" : "en-US", { hour: "2-digit", minute: "2-digit" });

/** `/dev/whatsapp`: a phone-like chat to talk to the product as any number (dev mode only). */
export function SimulatorPage() {
  const { t, i18n } = useTranslation("whatsappDev");
  const language = currentLanguage(i18n);
  const [identity, setIdentity] = useState(readIdentity);
  const [draft, setDraft] = useState("");
  const address = addressOf(identity);
  const [sent, setSent] = useState<Bubble[]>(() => readSent(address));
  const outbox = useOutbox(address, language);
  const send = useSendAsUser(language);
  const endRef = useRef<HTMLDivElement>(null);

  function changeIdentity(next: Identity) {
    setIdentity(next);
    setSent(readSent(addressOf(next)));
    window.localStorage.setItem(IDENTITY_KEY, JSON.stringify(next));
  }

  const bubbles = useMemo(() => {
    const product: Bubble[] = (outbox.data?.messages ?? []).map((m) => ({ from: "product", text: m.text, at: m.createdAt, kind: m.kind, document: m.document, choices: m.choices }));
    return inOrder(sent, product);
  }, [outbox.data, sent]);
  const waiting = bubbles.length > 0 && bubbles[bubbles.length - 1]?.from === "user";

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: "end" });
  }, [bubbles.length]);

  const notInDevMode = outbox.error instanceof RestError && outbox.error.status === 404;

  /** Sends as the person: typed words, or a tap on answers we offered (as WhatsApp delivers it). */
  async function sendAsPerson(text: string, tap?: { choice: string; list: boolean }) {
    const username = identity.username.trim();
    const who = {
      from: identity.hideNumber && username ? undefined : identity.phone,
      userId: username ? simulatedBsuid(username) : undefined,
      username: username || undefined,
    };
    const bubble: Bubble = { from: "user", text, at: new Date().toISOString(), after: outbox.data?.messages.length ?? 0 };
    await send.mutateAsync({ ...who, name: identity.name, text, ...tap });
    const next = [...readSent(address), bubble];
    window.sessionStorage.setItem(sentKey(address), JSON.stringify(next));
    setSent(next);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    await sendAsPerson(text);
    setDraft("");
  }

  return (
    <PageShell>
      <div className="mx-auto grid max-w-5xl gap-8 px-4 py-10 lg:grid-cols-[1fr_380px]">
        <section aria-labelledby="simulator-title" className="space-y-5">
          <h1 id="simulator-title" className="flex items-center gap-2 text-3xl font-bold">
            <Smartphone aria-hidden="true" className="h-7 w-7 text-brand-600" />
            {t("title")}
          </h1>
          <p className="text-slate-700">{t("intro")}</p>
          {notInDevMode && (
            <p role="alert" className="rounded-xl bg-amber-50 p-4 text-amber-900 ring-1 ring-amber-200">
              {t("devOnly")}
            </p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <label className="block text-sm font-medium">
              {t("phoneLabel")}
              <input
                type="tel"
                value={identity.phone}
                placeholder={t("phonePlaceholder")}
                onChange={(e) => changeIdentity({ ...identity, phone: e.target.value })}
                className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2"
              />
            </label>
            <label className="block text-sm font-medium">
              {t("nameLabel")}
              <input
                value={identity.name}
                placeholder={t("namePlaceholder")}
                maxLength={120}
                onChange={(e) => changeIdentity({ ...identity, name: e.target.value })}
                className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2"
              />
            </label>
            <label className="block text-sm font-medium">
              {t("usernameLabel")}
              <input
                value={identity.username}
                placeholder={t("usernamePlaceholder")}
                maxLength={64}
                onChange={(e) => changeIdentity({ ...identity, username: e.target.value })}
                className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2"
              />
            </label>
            <label className="flex items-center gap-2 self-end pb-2 text-sm font-medium">
              <input
                type="checkbox"
                checked={identity.hideNumber}
                disabled={!identity.username.trim()}
                onChange={(e) => changeIdentity({ ...identity, hideNumber: e.target.checked })}
                className="h-4 w-4"
              />
              {t("hideNumber")}
            </label>
          </div>
        </section>

        <section
          aria-label={t("title")}
          className="flex h-[640px] flex-col overflow-hidden rounded-[2rem] border-8 border-slate-900 bg-[#efeae2] shadow-xl"
        >
          <header className="surface-dark flex items-center gap-3 bg-brand-800 px-4 py-3 text-white">
            <span aria-hidden="true" className="grid h-9 w-9 place-items-center rounded-full bg-white font-bold text-brand-700">
              S
            </span>
            <div>
              <p className="font-semibold" translate="no">
                {t("product")}
              </p>
              <p className="text-xs text-brand-100">
                {identity.hideNumber && identity.username.trim() ? identity.username.trim() : identity.phone}
              </p>
            </div>
          </header>
          <div role="log" aria-live="polite" className="flex-1 space-y-2 overflow-y-auto p-3">
            {bubbles.length === 0 && <p className="mt-10 text-center text-sm text-slate-600">{t("empty")}</p>}
            {bubbles.map((bubble, i) => (
              <div
                key={`${bubble.at}-${i}`}
                data-from={bubble.from}
                className={`max-w-[85%] whitespace-pre-wrap rounded-lg px-3 py-2 text-sm shadow-sm ${
                  bubble.from === "user" ? "ml-auto bg-[#d9fdd3]" : "bg-white"
                }`}
              >
                {bubble.kind === "login_code" && <p className="mb-1 text-xs font-semibold text-brand-700">{t("loginCode")}</p>}
                {bubble.document && (
                  <a
                    href={bubble.document.url}
                    download={bubble.document.fileName}
                    className="mb-2 flex items-center gap-2 rounded-md bg-slate-100 px-3 py-2 font-medium text-ink hover:bg-slate-200"
                  >
                    <FileText aria-hidden="true" className="h-5 w-5 shrink-0 text-red-700" />
                    <span className="break-all">{bubble.document.fileName}</span>
                    <span className="sr-only">{t("download")}</span>
                  </a>
                )}
                <WhatsAppText text={bubble.text} />
                {bubble.choices && bubble.choices.length > 0 && (
                  <div role="group" aria-label={t("choices")} className="mt-2 flex flex-col gap-1 border-t border-slate-200 pt-2">
                    {bubble.choices.map((choice) => (
                      <button
                        key={choice.id}
                        type="button"
                        disabled={send.isPending || i !== bubbles.length - 1}
                        onClick={() => void sendAsPerson(choice.title, { choice: choice.id, list: (bubble.choices?.length ?? 0) > 3 }).catch(() => {})}
                        className="rounded-md py-1 text-center font-medium text-sky-700 hover:bg-slate-50 disabled:text-slate-600"
                      >
                        {choice.title}
                      </button>
                    ))}
                  </div>
                )}
                <p className="mt-1 text-right text-[10px] text-slate-600">
                  <span className="sr-only">{bubble.from === "user" ? t("you") : t("product")} · </span>
                  {time(bubble.at, language)}
                </p>
              </div>
            ))}
            {outbox.data?.typing ? (
              <p data-testid="typing" className="w-fit rounded-lg bg-white px-3 py-2 text-sm italic text-slate-600 shadow-sm">
                {t("typing")}
              </p>
            ) : (
              waiting && <p className="text-xs text-slate-600">{t("waiting")}</p>
            )}
            {outbox.isError && !notInDevMode && <p role="alert" className="text-xs text-red-700">{t("loadError")}</p>}
            <div ref={endRef} />
          </div>
          <form onSubmit={(e) => void submit(e).catch(() => {})} className="flex items-center gap-2 bg-slate-100 p-2">
            <label className="sr-only" htmlFor="simulator-composer">
              {t("composerLabel")}
            </label>
            <input
              id="simulator-composer"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder={t("composerPlaceholder")}
              maxLength={4096}
              autoComplete="off"
              className="min-w-0 flex-1 rounded-full border border-slate-300 bg-white px-4 py-2"
            />
            <Button type="submit" size="sm" disabled={send.isPending || draft.trim() === ""} aria-label={send.isPending ? t("sending") : t("send")} className="rounded-full">
              <SendHorizontal aria-hidden="true" className="h-4 w-4" />
            </Button>
          </form>
          {send.isError && (
            <p role="alert" className="bg-red-50 px-3 py-2 text-xs text-red-800">
              {t("sendError", { message: send.error.message })}
            </p>
          )}
        </section>
      </div>
    </PageShell>
  );
}
