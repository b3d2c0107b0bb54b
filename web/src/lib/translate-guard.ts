// Browser auto-translation (Chrome's Google Translate, Edge's translator) rewrites text nodes under
// React's feet: React then calls removeChild/insertBefore on nodes that moved into the
// translator's <font> wrappers and the page crashes ("Failed to execute 'removeChild' on 'Node'").
// The app translates itself, so index.html asks translators to stay away (translate="no",
// <meta name="google" content="notranslate">). For translators that ignore that, this guard
// checks on start and every 3 s whether the page has been translated, and contains the
// DOM errors translation causes: a removal of a node that is no longer the parent's child, or an
// insertion before such a node, is answered as the DOM would have without the translator.

export const RECHECK_MS = 3_000;

/** Whether a translator has rewritten the page. */
export function isAutoTranslated(doc: Document = document): boolean {
  const html = doc.documentElement;
  return (
    html.classList.contains("translated-ltr") ||
    html.classList.contains("translated-rtl") ||
    html.hasAttribute("_msttexthash") ||
    doc.querySelector("font[style*='vertical-align: inherit']") !== null
  );
}

let patched = false;

/** Makes removeChild and insertBefore tolerate nodes a translator moved. Idempotent. */
export function containTranslationErrors(): void {
  if (patched || typeof Node === "undefined") return;
  patched = true;
  const removeChild = Node.prototype.removeChild;
  Node.prototype.removeChild = function <T extends Node>(this: Node, child: T): T {
    if (child.parentNode !== this) {
      // Moved into a translator's wrapper: take it out from where it is now.
      child.parentNode?.removeChild(child);
      return child;
    }
    return removeChild.call(this, child) as T;
  };
  const insertBefore = Node.prototype.insertBefore;
  Node.prototype.insertBefore = function <T extends Node>(this: Node, node: T, reference: Node | null): T {
    if (reference && reference.parentNode !== this) {
      return insertBefore.call(this, node, null) as T;
    }
    return insertBefore.call(this, node, reference) as T;
  };
}

/** Starts the guard: errors contained from the start, the page marked when it gets translated. */
export function startTranslateGuard(doc: Document = document): () => void {
  containTranslationErrors();
  const check = () => {
    if (isAutoTranslated(doc)) doc.documentElement.dataset.autoTranslated = "true";
  };
  check();
  const timer = setInterval(check, RECHECK_MS);
  return () => clearInterval(timer);
}
