import { Languages } from "lucide-react";
import { useTranslation } from "react-i18next";

import { changeLanguage, currentLanguage } from "@/lib/i18n";
import { LANGUAGES, nextLanguage } from "@/lib/language";

/** Cycles between pt-BR and English, saving the choice. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n);
  const next = nextLanguage(language);
  const shown = language === "pt-BR" ? "PT" : "EN";
  return (
    <button
      type="button"
      onClick={() => void changeLanguage(i18n, next)}
      // The name starts with what the button shows, so voice control users can say it too.
      aria-label={`${shown} – ${t("language.switchTo", { language: LANGUAGES[next].nativeName })}`}
      className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100"
      translate="no"
    >
      <Languages aria-hidden="true" className="h-4 w-4" />
      <span>{shown}</span>
    </button>
  );
}
