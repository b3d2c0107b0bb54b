// The legal pages' addresses in both languages, shared by the pages, the footers and the dashboard.

export const LEGAL_PAGES = {
  privacy: { pt: "/privacidade", en: "/privacy" },
  terms: { pt: "/termos", en: "/terms" },
  lgpd: { pt: "/lgpd", en: "/gdpr" },
} as const;

export type LegalDocument = keyof typeof LEGAL_PAGES;

/** The address of a legal page in the language the person reads. */
export function legalPath(document: LegalDocument, language: string): string {
  return language.startsWith("en") ? LEGAL_PAGES[document].en : LEGAL_PAGES[document].pt;
}
