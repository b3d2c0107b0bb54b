import { Fragment, type ReactNode } from "react";

const URL_PATTERN = /(https?:\/\/[^\s]+)/g;
const BOLD_PATTERN = /\*([^*\n]+)\*/g;

function bold(text: string, keyPrefix: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(BOLD_PATTERN)) {
    nodes.push(text.slice(last, match.index));
    nodes.push(<strong key={`${keyPrefix}-b${match.index}`}>{match[1]}</strong>);
    last = match.index + match[0].length;
  }
  nodes.push(text.slice(last));
  return nodes;
}

/** WhatsApp's light formatting: *bold* and clickable links. Never renders HTML from the text. */
export function WhatsAppText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} className="break-all text-sky-700 underline" target="_blank" rel="noreferrer">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{bold(part, String(i))}</Fragment>
        ),
      )}
    </>
  );
}
