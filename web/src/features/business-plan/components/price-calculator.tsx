// "Preço de venda": the markup divisor as the owner types — the server's one pricing computation
// (`BusinessPlanService.Price`, with the owner's own taxes and fixed costs from the plan), the
// price's parts as a bar, the warnings, and the prices kept in the plan (its "Formação de preço").
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { FormField } from "@/components/ui/form-field";
import { ChangeSource, PlanStep } from "@/gen/socio/v1/business_plan_pb";
import { fieldViolations, serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL } from "@/lib/money";
import { parseDecimal } from "@/lib/numbers";

import { usePrice, useSaveStep } from "../api/plan-queries";

const DEBOUNCE_MS = 300;
const controlClass = "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-600";
const NUMBERS = ["unitCost", "cardFeePercent", "commissionPercent", "otherVariablePercent", "targetMarginPercent"] as const;
type NumberField = (typeof NUMBERS)[number];
const PART_COLOURS: Record<string, string> = {
  cost: "bg-slate-500",
  tax: "bg-red-500",
  card_fee: "bg-amber-500",
  commission: "bg-orange-500",
  other_variable: "bg-yellow-500",
  fixed_costs: "bg-sky-600",
  margin: "bg-emerald-600",
};

interface PriceInput {
  unitCost: number;
  cardFeePercent?: number;
  commissionPercent?: number;
  otherVariablePercent?: number;
  targetMarginPercent: number;
  includeFixedCosts: boolean;
}

/** What the form says, once the cost and the margin are numbers; null while it cannot be priced. */
function toInput(draft: Record<NumberField, string>, includeFixedCosts: boolean, language: string): PriceInput | null {
  const number = (field: NumberField) => (draft[field].trim() === "" ? undefined : parseDecimal(draft[field], language));
  const values = Object.fromEntries(NUMBERS.map((f) => [f, number(f)])) as Record<NumberField, number | undefined>;
  if (Object.values(values).some((v) => v !== undefined && Number.isNaN(v))) return null;
  if (values.unitCost === undefined || values.targetMarginPercent === undefined) return null;
  return {
    unitCost: values.unitCost,
    cardFeePercent: values.cardFeePercent,
    commissionPercent: values.commissionPercent,
    otherVariablePercent: values.otherVariablePercent,
    targetMarginPercent: values.targetMarginPercent,
    includeFixedCosts,
  };
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function PriceCalculator({ saved }: { saved: JsonValue | undefined }) {
  const { t, i18n } = useTranslation("businessPlan");
  const language = currentLanguage(i18n);
  const [name, setName] = useState("");
  const [draft, setDraft] = useState<Record<NumberField, string>>({ unitCost: "", cardFeePercent: "", commissionPercent: "", otherVariablePercent: "", targetMarginPercent: "" });
  const [includeFixedCosts, setIncludeFixedCosts] = useState(true);
  const [notice, setNotice] = useState("");
  const input = useDebounced(JSON.stringify(toInput(draft, includeFixedCosts, i18n.language)), DEBOUNCE_MS);
  const request = JSON.parse(input) as PriceInput | null;
  const price = usePrice(request);
  const errors = price.error ? fieldViolations(price.error) : {};
  const save = useSaveStep();
  const kept = Array.isArray(saved) ? (saved as JsonObject[]) : [];

  async function keep() {
    if (!request || !name.trim()) {
      setNotice(t("pricing.nameNeeded"));
      return;
    }
    const prices = [...kept, { name: name.trim(), request: { ...request } } as JsonObject];
    try {
      await save.mutateAsync({ step: PlanStep.MARKETING, data: { prices }, source: ChangeSource.BUILDER });
      setNotice(t("pricing.kept", { name: name.trim() }));
    } catch (e) {
      setNotice(serverMessage(e, t("saveFailed")));
    }
  }

  async function forget(index: number) {
    const prices = kept.filter((_, i) => i !== index);
    try {
      await save.mutateAsync({ step: PlanStep.MARKETING, data: { prices }, source: ChangeSource.BUILDER });
    } catch (e) {
      setNotice(serverMessage(e, t("saveFailed")));
    }
  }

  const result = price.data;
  return (
    <section aria-labelledby="price-calculator-title" className="mt-6 rounded-xl bg-slate-50 p-4">
      <h3 id="price-calculator-title" className="text-base font-semibold">{t("pricing.title")}</h3>
      <p className="mt-1 text-sm text-slate-600">{t("pricing.intro")}</p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <FormField id="price-name" label={t("pricing.name")} controlClassName={controlClass}>
          {(control) => <input {...control} value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />}
        </FormField>
        {NUMBERS.map((field) => (
          <FormField key={field} id={`price-${field}`} label={t(`pricing.fields.${field}`)} error={errors[field]} controlClassName={controlClass}>
            {(control) => <input {...control} inputMode="decimal" value={draft[field]} onChange={(e) => setDraft((d) => ({ ...d, [field]: e.target.value }))} />}
          </FormField>
        ))}
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input type="checkbox" checked={includeFixedCosts} onChange={(e) => setIncludeFixedCosts(e.target.checked)} />
          {t("pricing.includeFixedCosts")}
        </label>
      </div>
      <div aria-live="polite" className="mt-4">
        {request === null && <p className="text-sm text-slate-600">{t("pricing.waiting")}</p>}
        {price.error && Object.keys(errors).length === 0 && <p className="text-sm text-red-700">{serverMessage(price.error, t("saveFailed"))}</p>}
        {result && request !== null && !price.error && (
          <div>
            <p className="text-2xl font-bold">
              {t("pricing.result", { price: formatBRL(result.price, language, { cents: true }) })}
            </p>
            {result.taxesOnTop.length > 0 && (
              <p className="text-sm font-medium text-slate-800">
                {t("pricing.onInvoice", {
                  price: formatBRL(result.price, language, { cents: true }),
                  taxes: result.taxesOnTop.map((tax) => `${tax.name} ${formatBRL(tax.amount, language, { cents: true })}`).join(" + "),
                  total: formatBRL(result.invoiceTotal, language, { cents: true }),
                })}
              </p>
            )}
            <div className="mt-2 flex h-6 w-full overflow-hidden rounded-full" role="img" aria-label={result.parts.map((p) => `${p.name} ${formatBRL(p.amount, language, { cents: true })} (${p.percent.toLocaleString(language)} %)`).join(", ")}>
              {result.parts.map((p) => (
                <div key={p.code} className={PART_COLOURS[p.code] ?? "bg-slate-400"} style={{ width: `${p.percent}%` }} title={`${p.name}: ${formatBRL(p.amount, language, { cents: true })}`} />
              ))}
            </div>
            <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
              {result.parts.map((p) => (
                <li key={p.code} className="flex items-center gap-2">
                  <span aria-hidden className={`inline-block h-3 w-3 rounded-sm ${PART_COLOURS[p.code] ?? "bg-slate-400"}`} />
                  {p.name}: {formatBRL(p.amount, language, { cents: true })} ({p.percent.toLocaleString(language)} %)
                </li>
              ))}
            </ul>
            {result.warnings.map((w) => (
              <p key={w} className="mt-2 rounded-lg bg-amber-50 p-2 text-sm text-amber-900">{w}</p>
            ))}
            <p className="mt-2 text-xs text-slate-600">{result.explanation}</p>
            <button type="button" onClick={() => void keep()} disabled={save.isPending} className="mt-3 rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white disabled:opacity-60">
              {t("pricing.keep")}
            </button>
          </div>
        )}
        {notice && <p className="mt-2 text-sm">{notice}</p>}
      </div>
      {kept.length > 0 && (
        <div className="mt-4">
          <h4 className="text-sm font-semibold">{t("pricing.keptTitle")}</h4>
          <ul className="mt-1 space-y-1 text-sm">
            {kept.map((p, i) => (
              <li key={`${String(p.name)}-${i}`} className="flex items-center justify-between gap-2">
                <span>{String(p.name)}</span>
                <button type="button" onClick={() => void forget(i)} className="text-xs text-red-700 underline" aria-label={t("pricing.forget", { name: String(p.name) })}>
                  {t("pricing.forgetShort")}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
