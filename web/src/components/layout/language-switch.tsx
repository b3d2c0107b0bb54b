import { Languages } from "lucide-react";
import { useTranslation } from "react-i18next";

import { changeLanguage, currentLanguage } from "@/lib/i18n";
import { LANGUAGES, nextLanguage } from "@/lib/language";

/** Cycles between pt-BR and English, saving the choice. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n);
  const next = nextLanguage(language);
  return (
    <button
      type="button"
      onClick={() => void changeLanguage(i18n, next)}
      aria-label={t("language.switchTo", { language: LANGUAGES[next].nativeName })}
      className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100"
      translate="no"
    >
      <Languages aria-hidden="true" className="h-4 w-4" />
      <span>{language === "pt-BR" ? "PT" : "EN"}</span>
    </button>
  );
}
