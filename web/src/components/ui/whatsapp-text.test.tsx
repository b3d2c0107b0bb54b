import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { WhatsAppMarkup, WhatsAppText } from "./whatsapp-text";

describe("WhatsApp formatting", () => {
  it("shows *bold*, _italic_ and ~strike~ as WhatsApp does, and markup-looking text as plain text", () => {
    const { container } = render(<WhatsAppText text={"Etapa atual: *Ideia de negócio*. _Sem pressa_, ~nada~ <b>aqui</b>"} />);
    expect(container.querySelector("strong")?.textContent).toBe("Ideia de negócio");
    expect(container.querySelector("em")?.textContent).toBe("Sem pressa");
    expect(container.querySelector("s")?.textContent).toBe("nada");
    expect(container.querySelector("b")).toBeNull();
    expect(container.textContent).toContain("<b>aqui</b>");
  });

  it("makes links clickable", () => {
    render(<WhatsAppText text={"*482913* é o seu código. Plano: http://localhost:8080/checkout/5511987654321"} />);
    expect(screen.getByText("482913").tagName).toBe("STRONG");
    expect(screen.getByRole("link")).toHaveAttribute("href", "http://localhost:8080/checkout/5511987654321");
  });

  it("never renders markup from the text", () => {
    const { container } = render(<WhatsAppText text={'<img src=x onerror="alert(1)">'} />);
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toBe('<img src=x onerror="alert(1)">');
  });

  it("in a preview cut mid-bold, shows the words without the lone asterisk", () => {
    const { container } = render(<WhatsAppMarkup text={"Etapa *Marketing*. Toque no *mesmo número que aparece na tela"} />);
    expect(container.querySelector("strong")?.textContent).toBe("Marketing");
    expect(container.textContent).toBe("Etapa Marketing. Toque no mesmo número que aparece na tela");
  });
});
