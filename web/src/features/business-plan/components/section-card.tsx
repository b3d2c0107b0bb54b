import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { ChangeSource } from "@/gen/socio/v1/business_plan_pb";
import { FormField } from "@/components/ui/form-field";
import { fieldViolations, serverMessage } from "@/lib/errors";
import { formatDecimal, parseDecimal } from "@/lib/numbers";

import { useSaveStep } from "../api/plan-queries";
import type { Field, SectionSpec } from "./section-fields";

const AUTOSAVE_MS = 800;
const controlClass = "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-600";

function isNumeric(field: Field): field is Field & { kind: "money" | "percent" | "count" } {
  return field.kind === "money" || field.kind === "percent" || field.kind === "count";
}

/** A saved value as the field shows it: numbers in the reader's form ("19,50", "15.000"). */
function display(field: Field, value: JsonValue | undefined, language: string): string {
  if (value === null || value === undefined) return "";
  if (field.kind === "list" && Array.isArray(value)) return value.join(", ");
  if (field.kind === "select" && typeof value === "string" && value.endsWith("_UNSPECIFIED")) return "";
  if (isNumeric(field) && typeof value === "number") return formatDecimal(value, language, field.kind);
  return String(value);
}

/** What a field's text means, or undefined when a number field holds something that is not one. */
function parse(field: Field, raw: string, language: string): JsonValue | undefined {
  switch (field.kind) {
    case "money":
    case "percent":
    case "count": {
      if (raw.trim() === "") return null;
      const n = parseDecimal(raw, language);
      if (Number.isNaN(n)) return undefined;
      return field.kind === "count" ? Math.round(n) : n;
    }
    case "list":
      return raw.split(",").map((s) => s.trim()).filter(Boolean);
    case "select":
      return raw === "" ? null : raw;
    case "text":
    case "textarea":
      return raw;
  }
}

/** The options, with the saved value added when it is no longer offered (an older answer). */
function withCurrent(options: string[], current: string | undefined): string[] {
  return current && !options.includes(current) ? [...options, current] : options;
}

/** One step of the plan as a form that saves itself while the user types. */
export function SectionCard({ spec, data, completed, children }: { spec: SectionSpec; data: JsonObject; completed: boolean; children?: React.ReactNode }) {
  const { t, i18n } = useTranslation("businessPlan");
  const language = i18n.language;
  const save = useSaveStep();
  const [draft, setDraft] = useState<Record<string, string>>(() =>
    Object.fromEntries(spec.fields.map((f) => [f.name, display(f, data[f.name], language)])),
  );
  // The fields whose text is not a number, said next to them; nothing is sent while one is.
  const [typingErrors, setTypingErrors] = useState<Record<string, string>>({});
  const [state, setState] = useState<"idle" | "saving" | "saved" | "error">("idle");
  // The checkbox answers at once; the server's value takes over when it changes.
  const [done, setDone] = useState(completed);
  const [serverDone, setServerDone] = useState(completed);
  if (completed !== serverDone) {
    setServerDone(completed);
    setDone(completed);
  }
  const [error, setError] = useState("");
  // The server's words for the fields it refused ("ideaData.businessIdea" → "businessIdea").
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const pending = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(pending.current), []);

  async function persist(values: Record<string, string>, done?: boolean) {
    const changed: JsonObject = {};
    const wrong: Record<string, string> = {};
    for (const field of spec.fields) {
      const value = parse(field, values[field.name] ?? "", language);
      if (value === undefined) wrong[field.name] = t(`notANumber.${field.kind}`);
      else changed[field.name] = value;
    }
    setTypingErrors(wrong);
    if (Object.keys(wrong).length > 0) {
      setState("idle");
      return;
    }
    setState("saving");
    try {
      await save.mutateAsync({ step: spec.step, data: changed, completed: done, source: ChangeSource.BUILDER });
      setFieldErrors({});
      setState("saved");
    } catch (e) {
      setFieldErrors(Object.fromEntries(Object.entries(fieldViolations(e)).map(([field, message]) => [field.split(".").at(-1) ?? field, message])));
      setError(serverMessage(e, ""));
      setState("error");
    }
  }

  function change(name: string, value: string) {
    const next = { ...draft, [name]: value };
    setDraft(next);
    window.clearTimeout(pending.current);
    pending.current = window.setTimeout(() => void persist(next), AUTOSAVE_MS);
  }

  /** Leaving a number field shows what was typed in the reader's form ("15000" → "15.000"). */
  function tidy(field: Field) {
    if (!isNumeric(field)) return;
    const value = parse(field, draft[field.name] ?? "", language);
    if (typeof value === "number") setDraft((current) => ({ ...current, [field.name]: formatDecimal(value, language, field.kind) }));
  }

  const id = (name: string) => `${spec.key}-${name}`;
  return (
    <section aria-labelledby={`${spec.key}-title`} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${spec.key}-title`} className="text-lg font-semibold">
          {t(`sections.${spec.key}`)}
        </h2>
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            checked={done}
            onChange={(e) => {
              setDone(e.target.checked);
              void persist(draft, e.target.checked);
            }}
            className="h-4 w-4 accent-brand-600"
          />
          {t("stepDone")}
        </label>
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {spec.fields.map((field) => (
          <FormField
            key={field.name}
            id={id(field.name)}
            label={t(`fields.${field.name}`)}
            error={typingErrors[field.name] ?? fieldErrors[field.name]}
            controlClassName={controlClass}
            className={field.kind === "textarea" ? "sm:col-span-2" : undefined}
          >
            {(props) =>
              field.kind === "textarea" ? (
                <textarea {...props} rows={3} maxLength={field.max} value={draft[field.name]} onChange={(e) => change(field.name, e.target.value)} />
              ) : field.kind === "select" ? (
                <select {...props} value={draft[field.name]} onChange={(e) => change(field.name, e.target.value)}>
                  <option value="">{t("options.choose")}</option>
                  {withCurrent(field.options ?? [], draft[field.name]).map((o) => (
                    <option key={o} value={o}>
                      {t(`options.${o}`)}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...props}
                  inputMode={field.kind === "money" || field.kind === "percent" ? "decimal" : field.kind === "count" ? "numeric" : "text"}
                  maxLength={field.max ?? 400}
                  value={draft[field.name]}
                  onChange={(e) => change(field.name, e.target.value)}
                  onBlur={() => tidy(field)}
                />
              )
            }
          </FormField>
        ))}
      </div>
      {children}
      <p className="mt-3 h-5 text-xs text-slate-500" role="status" aria-live="polite">
        {state === "saving" && t("saving")}
        {state === "saved" && t("saved")}
        {state === "error" && <span className="text-red-700">{t("saveFailed", { message: error })}</span>}
      </p>
    </section>
  );
}
