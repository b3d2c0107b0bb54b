// WhatsApp's own text formatting shown as it looks on the phone: *bold*, _italic_, ~strike~.
// Built from React elements, so nothing in the text is ever read as HTML.

import type { ReactNode } from "react";

const MARKUP = /(\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~)/g;

export function WhatsAppText({ text }: { text: string }) {
  const parts: ReactNode[] = text.split(MARKUP).map((part, i) => {
    const inner = part.slice(1, -1);
    if (part.length > 2 && part.startsWith("*") && part.endsWith("*")) return <strong key={i}>{inner}</strong>;
    if (part.length > 2 && part.startsWith("_") && part.endsWith("_")) return <em key={i}>{inner}</em>;
    if (part.length > 2 && part.startsWith("~") && part.endsWith("~")) return <s key={i}>{inner}</s>;
    return part;
  });
  return <>{parts}</>;
}
