// Numbers as people write and read them: "1.500", "19,50" and "R$ 2.000,00" in Portuguese,
// "1,500" and "19.50" in English — typed either way, shown back in the reader's own form.

/** A number typed in the language's form (a currency sign, % and spaces allowed, thousands as
 * "mil" or "k"); NaN when it is not one. */
export function parseDecimal(text: string, language: string): number {
  // "1,5 mil", "21 mil", "10k": thousands said in words, as the chat reads them too.
  const thousands = /^(.*\d)\s*(mil|k)$/i.exec(text.trim());
  if (thousands) return parseDecimal(thousands[1] ?? "", language) * 1000;
  const clean = text.replace(/R\$|\s|%/g, "");
  const [group, mark] = language.startsWith("en") ? [",", "."] : [".", ","];
  const grouped = new RegExp(`^\\d{1,3}(\\${group}\\d{3})+(\\${mark}\\d+)?$`);
  let normalised: string;
  if (grouped.test(clean)) {
    // "15.000", "1.500,50" (or "15,000", "1,500.50"): the groups go, the decimal mark is a point.
    normalised = clean.split(group).join("").replace(mark, ".");
  } else {
    // One separator and no grouping: it is the decimal mark ("19,50", "19.5").
    const separators = clean.match(/[.,]/g) ?? [];
    normalised = separators.length <= 1 ? clean.replace(",", ".") : clean;
  }
  return /^\d+(\.\d+)?$/.test(normalised) ? Number(normalised) : Number.NaN;
}

/** A number in the reader's form, money with centavos when it has them ("19,50", "15.000"). */
export function formatDecimal(value: number, language: string, kind: "money" | "percent" | "count"): string {
  const cents = kind === "money" && !Number.isInteger(value);
  return new Intl.NumberFormat(language.startsWith("en") ? "en-US" : "pt-BR", {
    minimumFractionDigits: cents ? 2 : 0,
    maximumFractionDigits: kind === "count" ? 0 : 2,
  }).format(value);
}
