// The two languages say the same things: every catalogue exists in both, with the same keys (plural
// forms counted as their key, since Portuguese and English need the same ones here) and the same
// {{placeholders}} in each text. A key added in one language only fails here, not on a page.

import { describe, expect, it } from "vitest";

const portuguese = import.meta.glob<Record<string, unknown>>("./pt-BR/*.json", { eager: true, import: "default" });
const english = import.meta.glob<Record<string, unknown>>("./en/*.json", { eager: true, import: "default" });

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every text of a catalogue by its path ("results.saved"), lists by position. */
function texts(value: unknown, path = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === "string") out.set(path, value);
  else if (Array.isArray(value)) value.forEach((item, i) => texts(item, `${path}[${i}]`).forEach((v, k) => out.set(k, v)));
  else if (value && typeof value === "object")
    for (const [key, item] of Object.entries(value)) texts(item, path ? `${path}.${key}` : key).forEach((v, k) => out.set(k, v));
  return out;
}

const keys = (catalogue: unknown) => [...new Set([...texts(catalogue).keys()].map((k) => k.replace(PLURAL, "")))].sort();
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
const name = (path: string) => path.split("/").pop();

describe("the two languages", () => {
  it("have the same catalogues", () => {
    expect(Object.keys(portuguese).map(name).sort()).toEqual(Object.keys(english).map(name).sort());
  });

  for (const [path, catalogue] of Object.entries(portuguese)) {
    const other = english[path.replace("./pt-BR/", "./en/")];
    it(`have the same keys in ${name(path)}`, () => {
      expect(keys(catalogue)).toEqual(keys(other));
    });

    it(`fill the same placeholders in ${name(path)}`, () => {
      const theirs = texts(other);
      const differ = [...texts(catalogue)]
        .filter(([key, text]) => {
          const match = theirs.get(key) ?? theirs.get(key.replace(PLURAL, "_other"));
          return match !== undefined && placeholders(text).join() !== placeholders(match).join();
        })
        .map(([key]) => key);
      expect(differ).toEqual([]);
    });
  }
});
