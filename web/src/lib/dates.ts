// Dates as people read them in the app's language.

import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampDate } from "@bufbuild/protobuf/wkt";

import type { AppLanguage } from "./language";

const locale = (language: AppLanguage) => (language === "pt-BR" ? "pt-BR" : "en-US");

/** A timestamp as a short date and time ("21/11/2026, 14:05"); empty when absent. */
export function formatDateTime(ts: Timestamp | undefined, language: AppLanguage): string {
  return ts ? timestampDate(ts).toLocaleString(locale(language), { dateStyle: "short", timeStyle: "short" }) : "";
}

/** A timestamp as a short date ("21/11/2026"); empty when absent. */
export function formatDate(ts: Timestamp | undefined, language: AppLanguage): string {
  return ts ? timestampDate(ts).toLocaleDateString(locale(language), { dateStyle: "short" }) : "";
}

/** A number with one decimal in the app's language ("4,5" / "4.5"). */
export function formatDecimal(value: number, language: AppLanguage): string {
  return value.toLocaleString(locale(language), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A `YYYY-MM` month as people say it ("outubro de 2026" / "October 2026"); the text itself when it is not one. */
export function formatMonth(month: string, language: AppLanguage): string {
  const [year, m] = month.split("-").map(Number);
  if (!year || !m || m < 1 || m > 12) return month;
  return new Date(year, m - 1, 1).toLocaleDateString(locale(language), { month: "long", year: "numeric" });
}

/** The text with its first letter upper-case ("outubro de 2026" → "Outubro de 2026"), for a label. */
export function capitalizeFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const SHORT_MONTHS_PT = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"];

/** A `YYYY-MM` month as a chart's axis says it ("out/2026" / "Oct 2026"); the text itself when it is not one. */
export function formatMonthShort(month: string, language: AppLanguage): string {
  const [year, m] = month.split("-").map(Number);
  if (!year || !m || m < 1 || m > 12) return month;
  if (language === "pt-BR") return `${SHORT_MONTHS_PT[m - 1]}/${year}`;
  return new Date(year, m - 1, 1).toLocaleDateString("en-US", { month: "short", year: "numeric" });
}
