import { afterEach, describe, expect, it, vi } from "vitest";

import { containTranslationErrors, isAutoTranslated, RECHECK_MS, startTranslateGuard } from "./translate-guard";

afterEach(() => {
  document.documentElement.className = "";
  delete document.documentElement.dataset.autoTranslated;
  vi.useRealTimers();
});

/** What Google Translate does to a text node: wraps it in <font> elements. */
function translate(text: Text) {
  const outer = document.createElement("font");
  const inner = document.createElement("font");
  inner.setAttribute("style", "vertical-align: inherit;");
  text.parentNode?.replaceChild(outer, text);
  outer.appendChild(inner);
  inner.appendChild(text);
  document.documentElement.classList.add("translated-ltr");
}

describe("the auto-translate guard", () => {
  it("lets React remove and insert around nodes a translator moved, instead of crashing", () => {
    const parent = document.createElement("p");
    const text = document.createTextNode("Olá");
    parent.appendChild(text);
    translate(text);
    containTranslationErrors();
    expect(() => parent.removeChild(text)).not.toThrow();
    expect(text.parentNode).toBeNull();
    const span = document.createElement("span");
    const moved = document.createTextNode("x");
    parent.appendChild(moved);
    translate(moved);
    expect(() => parent.insertBefore(span, moved)).not.toThrow();
    expect(span.parentNode).toBe(parent);
  });

  it("notices a translation on start and when it happens later, every 3 seconds", () => {
    vi.useFakeTimers();
    const stop = startTranslateGuard();
    expect(isAutoTranslated()).toBe(false);
    expect(document.documentElement.dataset.autoTranslated).toBeUndefined();
    document.documentElement.classList.add("translated-ltr");
    vi.advanceTimersByTime(RECHECK_MS);
    expect(document.documentElement.dataset.autoTranslated).toBe("true");
    stop();
  });
});
