import { describe, expect, it, vi } from "vitest";

import {
  detectLanguage,
  LANGUAGE_CHANGE_EVENT,
  LANGUAGE_STORAGE_KEY,
  nextLanguage,
  normalizeLanguage,
  persistLanguage,
  PREFERENCE_STORAGE_KEY,
} from "./language";

describe("language rules", () => {
  it("defaults to Brazilian Portuguese when nothing is stored", () => {
    expect(detectLanguage(window.localStorage)).toBe("pt-BR");
  });

  it("maps any pt tag to pt-BR and any en tag to en", () => {
    expect(normalizeLanguage("pt-PT")).toBe("pt-BR");
    expect(normalizeLanguage("pt")).toBe("pt-BR");
    expect(normalizeLanguage("en-GB")).toBe("en");
    expect(normalizeLanguage("de")).toBeNull();
  });

  it("prefers the stored user preference over i18nextLng", () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, "pt-BR");
    window.localStorage.setItem(PREFERENCE_STORAGE_KEY, "en");
    expect(detectLanguage(window.localStorage)).toBe("en");
  });

  it("falls back to pt-BR for an unsupported stored value", () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, "fr");
    expect(detectLanguage(window.localStorage)).toBe("pt-BR");
  });

  it("discards stored values that look like script injection", () => {
    window.localStorage.setItem(PREFERENCE_STORAGE_KEY, "en<script>alert(1)</script>");
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, "javascript:alert(1)");
    expect(detectLanguage(window.localStorage)).toBe("pt-BR");
    expect(window.localStorage.getItem(PREFERENCE_STORAGE_KEY)).toBeNull();
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBeNull();
    expect(normalizeLanguage('en" onload="x')).toBeNull();
  });

  it("saves the choice under both keys, sets the page language and broadcasts it", () => {
    const listener = vi.fn();
    window.addEventListener(LANGUAGE_CHANGE_EVENT, listener);
    persistLanguage("en", window.localStorage);
    window.removeEventListener(LANGUAGE_CHANGE_EVENT, listener);
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe("en");
    expect(window.localStorage.getItem(PREFERENCE_STORAGE_KEY)).toBe("en");
    expect(document.documentElement.lang).toBe("en");
    expect(listener).toHaveBeenCalledOnce();
    expect((listener.mock.calls[0]![0] as CustomEvent).detail).toBe("en");
  });

  it("cycles between the two languages", () => {
    expect(nextLanguage("pt-BR")).toBe("en");
    expect(nextLanguage("en")).toBe("pt-BR");
  });
});
