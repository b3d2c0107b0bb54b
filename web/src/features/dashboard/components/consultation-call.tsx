import { PhoneCall } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { fieldViolations, serverMessage } from "@/lib/errors";

import { useConsultationCall } from "../api/use-consultation-call";

/** The quick action that asks for a call with a person from the team, with the times that suit. */
export function ConsultationCall() {
  const { t } = useTranslation("dashboard");
  const request = useConsultationCall();
  const [open, setOpen] = useState(false);
  const [times, setTimes] = useState("");
  const [error, setError] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      const reply = await request.mutateAsync({ preferredTimes: times });
      toast.success(reply.queued ? t("call.queued") : t("call.alreadyQueued"));
      setOpen(false);
      setTimes("");
    } catch (failure) {
      setError(fieldViolations(failure).preferredTimes ?? serverMessage(failure, t("call.failed")));
    }
  }

  if (!open) {
    return (
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <PhoneCall aria-hidden="true" className="h-4 w-4" />
        {t("call.open")}
      </Button>
    );
  }
  return (
    <form onSubmit={(e) => void submit(e)} aria-label={t("call.title")} className="space-y-2 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
      <FormField id="consultation-times" label={t("call.times")} error={error} controlClassName="mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2">
        {(control) => (
          <textarea {...control} rows={2} maxLength={500} value={times} placeholder={t("call.placeholder")} onChange={(e) => setTimes(e.target.value)} />
        )}
      </FormField>
      <p className="text-sm text-slate-600">{t("call.hint")}</p>
      <div className="flex gap-2">
        <Button type="submit" disabled={request.isPending || !times.trim()}>
          {request.isPending ? t("call.sending") : t("call.submit")}
        </Button>
        <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
          {t("call.cancel")}
        </Button>
      </div>
    </form>
  );
}
