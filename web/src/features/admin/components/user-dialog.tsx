import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { Role, SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { capitalizeFirst, formatDate, formatDateTime, formatMonth } from "@/lib/dates";
import { serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL } from "@/lib/money";
import { formatHandle } from "@/lib/phone";

import { useChatHistory, useDeleteUser, useExportUser, useSetSubscription, useUser, useUserPlan } from "../api/use-admin";
import { useTakeOver } from "../api/use-handoffs";
import { ChatBubble } from "./chat-bubble";
import { PLAN_STATUS_KEYS, TierBadge } from "./user-labels";

/** Where a new tab opens (a seam for tests). */
export const exportWindow = { open: (url: string) => window.open(url, "_blank", "noopener") };

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5">{children}</dd>
    </div>
  );
}

/** One user: profile, business plan, the conversation (by dates, 50 a page) and the actions. */
export function UserDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t, i18n } = useTranslation("admin");
  const language = currentLanguage(i18n);
  const details = useUser(id).data;
  const user = details?.user;
  const plan = useUserPlan(id);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [page, setPage] = useState(1);
  const chat = useChatHistory(id, from, to, page);
  const setSubscription = useSetSubscription();
  const deleteUser = useDeleteUser();
  const exportUser = useExportUser();
  const takeOver = useTakeOver();
  const [confirming, setConfirming] = useState(false);
  const busy = setSubscription.isPending || deleteUser.isPending || exportUser.isPending;
  const name = user?.name || user?.phoneNumber || user?.username || "";

  async function setTier(tier: SubscriptionStatus) {
    try {
      await setSubscription.mutateAsync({ id, subscriptionStatus: tier });
      toast.success(tier === SubscriptionStatus.PRO ? t("toast.setPro") : t("toast.setFree"));
    } catch (error) {
      toast.error(t("toast.actionFailed"), { description: serverMessage(error, "") || undefined });
    }
  }

  async function remove() {
    try {
      await deleteUser.mutateAsync({ id });
      toast.success(t("toast.deleted"));
      onClose();
    } catch (error) {
      toast.error(t("toast.actionFailed"), { description: serverMessage(error, "") || undefined });
    }
  }

  async function takeOverConversation() {
    try {
      await takeOver.mutateAsync({ id });
      toast.success(t("handoffs.toast.taken"));
    } catch (error) {
      toast.error(t("toast.actionFailed"), { description: serverMessage(error, "") || undefined });
    }
  }

  async function exportData() {
    try {
      const reply = await exportUser.mutateAsync({ id });
      exportWindow.open(reply.downloadUrl);
      toast.success(t("detail.exportReady"));
    } catch (error) {
      toast.error(t("toast.actionFailed"), { description: serverMessage(error, "") || undefined });
    }
  }

  const messages = chat.data?.messages ?? [];
  const pages = chat.data?.totalPages ?? 0;
  const businessPlan = plan.data?.businessPlan;

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t("detail.title")} description={t("detail.description", { name })} closeLabel={t("detail.close")}>
      {user && (
        <div className="space-y-6">
          <section aria-label={t("detail.profile")}>
            <dl className="grid gap-4 sm:grid-cols-3">
              <Field label={t("users.columns.name")}>{user.name || t("users.unnamed")}</Field>
              <Field label={t("users.columns.phone")}>{formatHandle(user.phoneNumber, user.username)}</Field>
              <Field label={t("users.columns.plan")}>
                <TierBadge user={user} />
              </Field>
              <Field label={t("detail.language")}>{user.language}</Field>
              <Field label={t("detail.role")}>{user.role === Role.ADMIN ? t("detail.roles.admin") : t("detail.roles.user")}</Field>
              <Field label={t("users.columns.messages")}>{user.totalMessages}</Field>
              <Field label={t("users.columns.createdAt")}>{formatDate(user.createdAt, language)}</Field>
              <Field label={t("users.columns.lastActiveAt")}>{user.lastActiveAt ? formatDateTime(user.lastActiveAt, language) : t("users.never")}</Field>
              <Field label="ID">
                <span className="font-mono text-xs break-all">{user.id}</span>
              </Field>
            </dl>
          </section>

          <section aria-label={t("detail.actions")} className="flex flex-wrap gap-2">
            {user.subscriptionStatus === SubscriptionStatus.PRO ? (
              <Button variant="secondary" disabled={busy} onClick={() => void setTier(SubscriptionStatus.FREE)}>
                {t("detail.setFree")}
              </Button>
            ) : (
              <Button disabled={busy} onClick={() => void setTier(SubscriptionStatus.PRO)}>
                {t("detail.setPro")}
              </Button>
            )}
            <Button variant="secondary" disabled={busy || takeOver.isPending} onClick={() => void takeOverConversation()}>
              {t("detail.takeOver")}
            </Button>
            <Button variant="secondary" disabled={busy} onClick={() => void exportData()}>
              {t("detail.export")}
            </Button>
            <Button variant="secondary" disabled={busy} className="text-red-700 ring-red-300 hover:bg-red-50" onClick={() => setConfirming(true)}>
              {t("detail.delete")}
            </Button>
          </section>

          <section aria-label={t("detail.businessPlan")}>
            <h3 className="font-semibold">{t("detail.businessPlan")}</h3>
            {businessPlan ? (
              <p className="mt-1 text-slate-700">
                {t(`users.planStatus.${PLAN_STATUS_KEYS[user.businessPlanStatus]}`)} · {t("detail.progress", { progress: businessPlan.progress })}
              </p>
            ) : (
              plan.isSuccess && <p className="mt-1 text-slate-600">{t("detail.noPlan")}</p>
            )}
          </section>

          {details && details.results.length > 0 && (
            <section aria-label={t("detail.results")}>
              <h3 className="font-semibold">{t("detail.results")}</h3>
              <ul className="mt-1 space-y-1 text-sm text-slate-700">
                {details.results.slice(0, 6).map((m) => (
                  <li key={m.month}>
                    <span className="font-medium">{capitalizeFirst(formatMonth(m.month, language))}</span>
                    {": "}
                    {t("detail.resultLine", {
                      revenue: formatBRL(m.revenue, language),
                      result: formatBRL(m.result, language),
                      planned: m.plan ? formatBRL(m.plan.result, language) : "—",
                    })}
                  </li>
                ))}
              </ul>
            </section>
          )}

          {details?.conversationSummary && (
            <section aria-label={t("detail.summary")}>
              <h3 className="font-semibold">{t("detail.summary")}</h3>
              <p className="mt-1 text-sm text-slate-600">
                {t("detail.summaryHint")}
                {details.summaryUpdatedAt && ` · ${formatDateTime(details.summaryUpdatedAt, language)}`}
              </p>
              <p className="mt-2 whitespace-pre-wrap rounded-xl bg-slate-50 p-3 text-slate-800">{details.conversationSummary}</p>
            </section>
          )}

          <section aria-label={t("detail.chat")}>
            <div className="flex flex-wrap items-end justify-between gap-3">
              <h3 className="font-semibold">{t("detail.chat")}</h3>
              <div className="flex gap-3 text-sm">
                <label className="flex flex-col">
                  {t("detail.from")}
                  <input type="date" value={from} max={to || undefined} onChange={(e) => { setFrom(e.target.value); setPage(1); }} className="rounded-lg border border-slate-300 px-2 py-1" />
                </label>
                <label className="flex flex-col">
                  {t("detail.to")}
                  <input type="date" value={to} min={from || undefined} onChange={(e) => { setTo(e.target.value); setPage(1); }} className="rounded-lg border border-slate-300 px-2 py-1" />
                </label>
              </div>
            </div>
            {chat.isError && (
              <p role="alert" className="mt-3 text-red-700">
                {t("detail.messagesFailed")}
              </p>
            )}
            {chat.isSuccess && messages.length === 0 && <p className="mt-4 text-center text-slate-600">{t("detail.noMessages")}</p>}
            <ol className="mt-3 space-y-2">
              {messages.map((m) => (
                <ChatBubble key={m.id} message={m} person={t("detail.user")} />
              ))}
            </ol>
            {pages > 1 && (
              <div className="mt-3 flex justify-between">
                <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  {t("detail.older")}
                </Button>
                <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  {t("detail.newer")}
                </Button>
              </div>
            )}
          </section>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t("detail.confirmDeleteTitle")}
        description={t("detail.confirmDelete")}
        cancelLabel={t("detail.cancel")}
        confirmLabel={t("detail.confirm")}
        onConfirm={() => void remove()}
      />
    </Dialog>
  );
}
