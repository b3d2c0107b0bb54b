import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormField } from "@/components/ui/form-field";
import { Switch } from "@/components/ui/switch";
import type { SystemPrompt } from "@/gen/socio/v1/system_prompt_pb";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/dates";
import { errorInfo, fieldViolations, serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";

import { useActivatePrompt, useCreatePrompt, useDeletePrompt, useSystemPrompts, useUpdatePrompt } from "../api/use-system-prompts";

interface Draft {
  name: string;
  title: string;
  description: string;
  content: string;
  isActive: boolean;
}

const EMPTY: Draft = { name: "", title: "", description: "", content: "", isActive: false };
const LIMITS = { name: 100, title: 200, description: 1000, content: 20_000 } as const;

/** The server's error field (its ErrorInfo reason) or the fallback, as the product's error catalogue asks. */
function failure(error: unknown, fallback: string) {
  return serverMessage(error, "") || errorInfo(error)?.reason || fallback;
}

function PromptForm({ editing, onDone }: { editing: SystemPrompt | null; onDone: () => void }) {
  const { t } = useTranslation("admin");
  const [draft, setDraft] = useState<Draft>(
    editing ? { name: editing.name, title: editing.title, description: editing.description ?? "", content: editing.content, isActive: editing.isActive } : EMPTY,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreatePrompt();
  const update = useUpdatePrompt();
  const saving = create.isPending || update.isPending;

  function validate(): Record<string, string> {
    const found: Record<string, string> = {};
    for (const field of ["name", "title", "content"] as const) {
      if (!draft[field].trim()) found[field] = t("prompts.required");
    }
    for (const field of ["name", "title", "description", "content"] as const) {
      if (!found[field] && draft[field].length > LIMITS[field]) found[field] = t("prompts.tooLong", { max: LIMITS[field] });
    }
    return found;
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const fields = { name: draft.name.trim(), title: draft.title.trim(), description: draft.description.trim() || undefined, content: draft.content, isActive: draft.isActive };
    try {
      if (editing) {
        await update.mutateAsync({ id: editing.id, ...fields });
        toast.success(t("prompts.toast.updated"));
      } else {
        await create.mutateAsync(fields);
        toast.success(t("prompts.toast.created"));
      }
      setDraft(EMPTY);
      onDone();
    } catch (error) {
      setErrors(fieldViolations(error));
      toast.error(failure(error, editing ? t("prompts.toast.updateFailed") : t("prompts.toast.createFailed")));
    }
  }

  const control = (field: keyof typeof LIMITS) => ({
    value: draft[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setDraft({ ...draft, [field]: e.target.value }),
  });
  const fieldProps = (field: keyof typeof LIMITS) => ({
    id: `prompt-${field}`,
    error: errors[field],
    controlClassName: "mt-1 w-full rounded-xl border border-slate-300 px-3 py-2",
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold">{editing ? t("prompts.edit") : t("prompts.create")}</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField {...fieldProps("name")} label={`${t("prompts.name")} *`}>
          {(props) => <input {...props} {...control("name")} placeholder={t("prompts.namePlaceholder")} required />}
        </FormField>
        <FormField {...fieldProps("title")} label={`${t("prompts.titleField")} *`}>
          {(props) => <input {...props} {...control("title")} required />}
        </FormField>
      </div>
      <FormField {...fieldProps("description")} label={t("prompts.description")}>
        {(props) => <textarea {...props} {...control("description")} rows={3} />}
      </FormField>
      <FormField {...fieldProps("content")} label={`${t("prompts.content")} *`}>
        {(props) => <textarea {...props} {...control("content")} rows={15} required className={cn(props.className, "font-mono text-sm")} />}
      </FormField>
      <div className="flex items-center gap-3">
        <Switch id="prompt-active" checked={draft.isActive} onCheckedChange={(isActive) => setDraft({ ...draft, isActive })} label={t("prompts.setActive")} />
        <label htmlFor="prompt-active" className="text-sm font-medium">
          {t("prompts.setActive")}
        </label>
      </div>
      <div className="flex gap-3">
        <Button type="submit" disabled={saving}>
          {saving ? t("prompts.saving") : editing ? t("prompts.save") : t("prompts.createButton")}
        </Button>
        {editing && (
          <Button type="button" variant="secondary" onClick={onDone}>
            {t("prompts.cancelEdit")}
          </Button>
        )}
      </div>
    </form>
  );
}

/** The consultant's system prompts: exactly one active; the active one cannot be deleted. */
export function PromptsTab() {
  const { t, i18n } = useTranslation("admin");
  const language = currentLanguage(i18n);
  const prompts = useSystemPrompts();
  const activate = useActivatePrompt();
  const remove = useDeletePrompt();
  const [editing, setEditing] = useState<SystemPrompt | null>(null);
  const [deleting, setDeleting] = useState<SystemPrompt | null>(null);

  async function makeActive(prompt: SystemPrompt) {
    try {
      await activate.mutateAsync({ id: prompt.id });
      toast.success(t("prompts.toast.activated"));
    } catch (error) {
      toast.error(failure(error, t("prompts.toast.activateFailed")));
    }
  }

  async function confirmDelete(prompt: SystemPrompt) {
    try {
      await remove.mutateAsync({ id: prompt.id });
      toast.success(t("prompts.toast.deleted"));
      if (editing?.id === prompt.id) setEditing(null);
    } catch (error) {
      toast.error(failure(error, t("prompts.toast.deleteFailed")));
    }
  }

  const list = prompts.data?.prompts ?? [];

  return (
    <section aria-label={t("tabs.prompts")} className="space-y-6">
      <PromptForm key={editing?.id ?? "new"} editing={editing} onDone={() => setEditing(null)} />

      <div>
        <h2 className="text-lg font-semibold">{t("prompts.list")}</h2>
        {prompts.isPending && <p className="mt-3 text-slate-600">{t("loading", { ns: "common" })}</p>}
        {prompts.isError && (
          <p role="alert" className="mt-3 rounded-xl bg-red-50 p-4 text-red-800">
            {t("prompts.toast.loadFailed")}
          </p>
        )}
        {prompts.isSuccess && list.length === 0 && <p className="mt-3 text-slate-600">{t("prompts.empty")}</p>}
        <ul className="mt-3 space-y-3">
          {list.map((prompt) => (
            <li key={prompt.id} aria-label={prompt.title} className={cn("rounded-2xl bg-white p-5 shadow-sm ring-1", prompt.isActive ? "ring-brand-600" : "ring-slate-200")}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold">{prompt.title}</span>
                    <span className="font-mono text-xs text-slate-500">{prompt.name}</span>
                    <span className={cn("rounded-full px-2 py-0.5 text-xs font-semibold", prompt.isActive ? "bg-brand-700 text-white" : "bg-slate-200 text-slate-700")}>
                      {prompt.isActive ? t("prompts.active") : t("prompts.inactive")}
                    </span>
                  </p>
                  {prompt.description && <p className="mt-1 text-sm text-slate-700">{prompt.description}</p>}
                  <p className="mt-1 text-xs text-slate-500">
                    {t("prompts.version", { version: prompt.version })} · {t("prompts.updated", { date: formatDateTime(prompt.updatedAt, language) })}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <Switch
                    checked={prompt.isActive}
                    disabled={prompt.isActive || activate.isPending}
                    onCheckedChange={(on) => on && void makeActive(prompt)}
                    label={t("prompts.activeSwitch", { name: prompt.title })}
                  />
                  <Button size="sm" variant="secondary" onClick={() => setEditing(prompt)}>
                    {t("prompts.editButton")}
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={prompt.isActive || remove.isPending}
                    title={prompt.isActive ? t("prompts.deleteDisabled") : undefined}
                    onClick={() => setDeleting(prompt)}
                  >
                    {t("prompts.deleteButton")}
                  </Button>
                </div>
              </div>
              {prompt.isActive && <p className="mt-2 text-xs text-slate-600">{t("prompts.deleteDisabled")}</p>}
              <pre className="mt-3 max-h-32 overflow-hidden rounded-lg bg-slate-50 p-3 text-xs whitespace-pre-wrap text-slate-700">{prompt.content}</pre>
            </li>
          ))}
        </ul>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("prompts.confirmDeleteTitle")}
        description={t("prompts.confirmDelete", { name: deleting?.title ?? "" })}
        cancelLabel={t("prompts.cancel")}
        confirmLabel={t("prompts.confirm")}
        onConfirm={() => deleting && void confirmDelete(deleting)}
      />
    </section>
  );
}
