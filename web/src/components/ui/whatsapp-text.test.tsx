import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { WhatsAppText } from "./whatsapp-text";

describe("WhatsApp formatting", () => {
  it("shows *bold*, _italic_ and ~strike~ as WhatsApp does, and markup-looking text as plain text", () => {
    const { container } = render(<WhatsAppText text={"Etapa atual: *Ideia de negócio*. _Sem pressa_, ~nada~ <b>aqui</b>"} />);
    expect(container.querySelector("strong")?.textContent).toBe("Ideia de negócio");
    expect(container.querySelector("em")?.textContent).toBe("Sem pressa");
    expect(container.querySelector("s")?.textContent).toBe("nada");
    expect(container.querySelector("b")).toBeNull();
    expect(container.textContent).toContain("<b>aqui</b>");
  });
});
