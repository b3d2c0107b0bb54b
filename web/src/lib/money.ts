// Money is always Brazilian reais (BRL); only the formatting follows the language:
// pt-BR "R$ 100,00", English "R$100.00".

import type { AppLanguage } from "./language";

export function formatBRL(amount: number, language: AppLanguage, options: { cents?: boolean } = {}): string {
  const digits = options.cents === false || Number.isInteger(amount) ? 0 : 2;
  return new Intl.NumberFormat(language === "pt-BR" ? "pt-BR" : "en-US", {
    style: "currency",
    currency: "BRL",
    minimumFractionDigits: options.cents ? 2 : digits,
    maximumFractionDigits: 2,
  }).format(amount);
}

/** Reais in a few characters, for a chart's labels: "R$ 21 mil", "R$ 1,2 mi" / "R$21K". */
export function formatBRLCompact(amount: number, language: AppLanguage): string {
  return new Intl.NumberFormat(language === "pt-BR" ? "pt-BR" : "en-US", {
    style: "currency",
    currency: "BRL",
    notation: "compact",
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(amount);
}
