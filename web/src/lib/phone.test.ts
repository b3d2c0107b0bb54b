import { describe, expect, it } from "vitest";

import { formatPhone, normalizePhone } from "./phone";

describe("phone numbers", () => {
  it("keeps international numbers and strips formatting", () => {
    expect(normalizePhone("+55 (11) 98765-4321")).toBe("+5511987654321");
    expect(normalizePhone("+1 415 555 0100")).toBe("+14155550100");
  });

  it("gives 10 or 11 digits typed without + the Brazilian country code", () => {
    expect(normalizePhone("(11) 98765-4321")).toBe("+5511987654321");
    expect(normalizePhone("11 3456-7890")).toBe("+551134567890");
  });

  it("adds + to full numbers typed without it", () => {
    expect(normalizePhone("5511987654321")).toBe("+5511987654321");
    expect(normalizePhone("")).toBe("");
  });

  it("shows Brazilian numbers as people write them, (XX) XXXXX-XXXX, and other numbers as they are", () => {
    expect(formatPhone("+5511987654321")).toBe("(11) 98765-4321");
    expect(formatPhone("11987654321")).toBe("(11) 98765-4321");
    expect(formatPhone("+551134567890")).toBe("(11) 3456-7890");
    expect(formatPhone("+14155550100")).toBe("+14155550100");
  });

  it("shows a mobile WhatsApp delivered without its ninth digit with it, as its owner types it", () => {
    expect(formatPhone("+553187654321")).toBe("(31) 98765-4321");
    expect(formatPhone("553167654321")).toBe("(31) 96765-4321");
  });
});
