import { describe, expect, it } from "vitest";

import { formatDecimal, parseDecimal } from "./numbers";

describe("numbers as people write them", () => {
  it.each([
    ["15.000", 15000],
    ["R$ 1.500,50", 1500.5],
    ["19,50", 19.5],
    ["19.5", 19.5],
    ["1500", 1500],
    ["2,5%", 2.5],
    ["1,5 mil", 1500],
    ["R$ 21 mil", 21000],
    ["10k", 10000],
  ])("reads %s typed in Portuguese as %d", (typed, value) => {
    expect(parseDecimal(typed, "pt-BR")).toBe(value);
  });

  it.each([
    ["15,000", 15000],
    ["1,500.50", 1500.5],
    ["19.50", 19.5],
  ])("reads %s typed in English as %d", (typed, value) => {
    expect(parseDecimal(typed, "en")).toBe(value);
  });

  it.each(["muitas", "", "1.2.3,4", "-5", "12abc", "mil"])("refuses %j", (typed) => {
    expect(parseDecimal(typed, "pt-BR")).toBeNaN();
  });

  it("shows amounts back in the reader's form", () => {
    expect(formatDecimal(19.5, "pt-BR", "money")).toBe("19,50");
    expect(formatDecimal(15000, "pt-BR", "money")).toBe("15.000");
    expect(formatDecimal(15000, "en", "money")).toBe("15,000");
    expect(formatDecimal(2.5, "pt-BR", "percent")).toBe("2,5");
    expect(formatDecimal(1200, "pt-BR", "count")).toBe("1.200");
  });
});
