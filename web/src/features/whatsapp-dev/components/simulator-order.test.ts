import { describe, expect, it } from "vitest";

import { inOrder } from "./simulator-page";

describe("the simulator's chat order", () => {
  it("shows a reply below the tap that caused it, even when the reply's clock reads earlier", () => {
    const question = { from: "product" as const, text: "Quer os lembretes?", at: "2026-11-28T10:00:00.000Z" };
    const reply = { from: "product" as const, text: "Combinado!", at: "2026-11-28T10:00:04.990Z" };
    const tap = { from: "user" as const, text: "Sim, quero", at: "2026-11-28T10:00:05.000Z", after: 1 };
    expect(inOrder([tap], [question, reply]).map((b) => b.text)).toEqual(["Quer os lembretes?", "Sim, quero", "Combinado!"]);
  });

  it("keeps two messages sent before any reply in the order they were sent, and places old ones by time", () => {
    const first = { from: "user" as const, text: "Oi", at: "2026-11-28T10:00:00.000Z", after: 0 };
    const second = { from: "user" as const, text: "Tudo bem?", at: "2026-11-28T10:00:01.000Z", after: 0 };
    const welcome = { from: "product" as const, text: "Olá!", at: "2026-11-28T10:00:02.000Z" };
    const older = { from: "user" as const, text: "antes", at: "2026-11-28T09:00:00.000Z" };
    expect(inOrder([older, first, second], [welcome]).map((b) => b.text)).toEqual(["antes", "Oi", "Tudo bem?", "Olá!"]);
  });
});
