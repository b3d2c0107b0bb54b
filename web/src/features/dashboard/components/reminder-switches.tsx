import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";

import { serverMessage } from "@/lib/errors";

import { useReminders, useUpdateReminders } from "../api/use-results";

/** The switches of what Sócio may send without being asked: nothing until the person turns it on. */
export function ReminderSwitches() {
  const { t } = useTranslation("dashboard");
  const reminders = useReminders();
  const update = useUpdateReminders();
  // What the person just chose, shown at once while it is saved (and dropped if it fails).
  const [choosing, setChoosing] = useState<{ monthlyCheckin: boolean; taxReminders: boolean } | null>(null);
  const current = reminders.data?.reminders;
  if (!current) return null;
  const shown = choosing ?? {
    monthlyCheckin: current.monthlyCheckin && !current.stopped,
    taxReminders: current.taxReminders && !current.stopped,
  };

  async function change(next: { monthlyCheckin: boolean; taxReminders: boolean }) {
    setChoosing(next);
    try {
      await update.mutateAsync({ ...next, day: current?.day, hour: current?.hour });
      toast.success(t("reminders.saved"));
    } catch (error) {
      toast.error(serverMessage(error, t("reminders.failed")));
    } finally {
      setChoosing(null);
    }
  }

  const box = (checked: boolean, label: string, onChange: (value: boolean) => void) => (
    <label className="flex items-start gap-2 text-sm">
      <input type="checkbox" className="mt-0.5 h-4 w-4" checked={checked} disabled={update.isPending} onChange={(e) => void onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );

  return (
    <fieldset className="mt-4 space-y-2 rounded-xl bg-slate-50 p-3">
      <legend className="text-sm font-medium">{t("reminders.title")}</legend>
      {box(shown.monthlyCheckin, t("reminders.checkin"), (v) => change({ ...shown, monthlyCheckin: v }))}
      {box(shown.taxReminders, t("reminders.tax"), (v) => change({ ...shown, taxReminders: v }))}
      <p className="text-xs text-slate-600">{current.stopped ? t("reminders.stopped") : t("reminders.note")}</p>
    </fieldset>
  );
}
