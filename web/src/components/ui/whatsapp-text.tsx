// WhatsApp's own text formatting shown as it looks on the phone: *bold*, _italic_, ~strike~ and
// clickable links. Built from React elements, so nothing in the text is ever read as HTML.

import { Fragment, type ReactNode } from "react";

const URL_PATTERN = /(https?:\/\/[^\s]+)/g;
const MARKUP = /(\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~)/g;

function formatted(text: string): ReactNode[] {
  return text.split(MARKUP).map((part, i) => {
    const inner = part.slice(1, -1);
    if (part.length > 2 && part.startsWith("*") && part.endsWith("*")) return <strong key={i}>{inner}</strong>;
    if (part.length > 2 && part.startsWith("_") && part.endsWith("_")) return <em key={i}>{inner}</em>;
    if (part.length > 2 && part.startsWith("~") && part.endsWith("~")) return <s key={i}>{inner}</s>;
    return part;
  });
}

/** A bold marker whose pair was cut off (a preview ends mid-bold): dropped, never shown. */
const LONE_MARKER = /(^|\s)\*(?=\S)|(?<=\S)\*(?=\s|$)/g;

/** The formatting alone, for a preview of a message (no links inside a clamped line); a marker
 * the preview cut from its pair is left out. */
export function WhatsAppMarkup({ text }: { text: string }) {
  return <>{formatted(text).map((part) => (typeof part === "string" ? part.replace(LONE_MARKER, "$1") : part))}</>;
}

export function WhatsAppText({ text }: { text: string }) {
  return (
    <>
      {text.split(URL_PATTERN).map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} className="break-all text-sky-700 underline" target="_blank" rel="noreferrer">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{formatted(part)}</Fragment>
        ),
      )}
    </>
  );
}
