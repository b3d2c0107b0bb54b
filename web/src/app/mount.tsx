// What both pages of the build do first: keep browser translators out, pick the language, and
// render into #root.

import type { i18n } from "i18next";
import { type ReactNode, startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { createI18n } from "@/lib/i18n";
import { startTranslateGuard } from "@/lib/translate-guard";

export function mount(page: (i18n: i18n) => ReactNode): void {
  startTranslateGuard();
  const root = document.getElementById("root");
  if (!root) throw new Error("the page has no #root");
  const app = createRoot(root);
  // Rendered as a transition, React yields to the browser every few milliseconds while it builds
  // the first screen, instead of holding the main thread in one long task.
  startTransition(() => app.render(<StrictMode>{page(createI18n())}</StrictMode>));
}
