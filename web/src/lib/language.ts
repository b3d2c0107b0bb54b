// The app's language rules: the stored choice first, defaulting to pt-BR; any
// tag starting with "pt" is pt-BR and with "en" is English; values that look like script injection
// are discarded; the choice is saved under both storage keys, sets the page language and is
// broadcast to whoever listens.

export const SUPPORTED_LANGUAGES = ["pt-BR", "en"] as const;
export type AppLanguage = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: AppLanguage = "pt-BR";

export const LANGUAGE_STORAGE_KEY = "i18nextLng";
export const PREFERENCE_STORAGE_KEY = "userLanguagePreference";
export const LANGUAGE_CHANGE_EVENT = "socio:languagechange";

/** Metadata the language switch shows. */
export const LANGUAGES: Record<AppLanguage, { name: string; nativeName: string; flag: string }> = {
  "pt-BR": { name: "Portuguese (Brazil)", nativeName: "Português", flag: "🇧🇷" },
  en: { name: "English", nativeName: "English", flag: "🇺🇸" },
};

const INJECTION = /[<>"'`;(){}\\]|script|javascript:|data:|on\w+\s*=/i;

/** True for values no language tag would ever contain. */
export function looksLikeInjection(value: string): boolean {
  return value.length > 35 || INJECTION.test(value);
}

/** Maps a tag to one of ours; null when it is not ours or not safe. */
export function normalizeLanguage(value: string | null | undefined): AppLanguage | null {
  if (!value) return null;
  const tag = value.trim();
  if (tag === "" || looksLikeInjection(tag)) return null;
  const lower = tag.toLowerCase();
  if (lower.startsWith("pt")) return "pt-BR";
  if (lower.startsWith("en")) return "en";
  return null;
}

function readStorage(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

/** The language to start with: the stored preference, else pt-BR. Unsafe stored values are removed. */
export function detectLanguage(storage: Storage = window.localStorage): AppLanguage {
  for (const key of [PREFERENCE_STORAGE_KEY, LANGUAGE_STORAGE_KEY]) {
    const stored = readStorage(storage, key);
    const language = normalizeLanguage(stored);
    if (language) return language;
    if (stored !== null) {
      try {
        storage.removeItem(key);
      } catch {
        // storage may be unavailable (private mode); the default applies
      }
    }
  }
  return DEFAULT_LANGUAGE;
}

/** Saves the choice, sets `<html lang>` and tells listeners. */
export function persistLanguage(language: AppLanguage, storage: Storage = window.localStorage): void {
  try {
    storage.setItem(LANGUAGE_STORAGE_KEY, language);
    storage.setItem(PREFERENCE_STORAGE_KEY, language);
  } catch {
    // the choice still applies for this visit
  }
  document.documentElement.lang = language;
  window.dispatchEvent(new CustomEvent<AppLanguage>(LANGUAGE_CHANGE_EVENT, { detail: language }));
}

/** The other language: the switch cycles between the two. */
export function nextLanguage(language: AppLanguage): AppLanguage {
  return language === "pt-BR" ? "en" : "pt-BR";
}
