import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { WhatsAppText } from "./whatsapp-text";

describe("WhatsApp text", () => {
  it("makes links clickable and *stars* bold", () => {
    render(<WhatsAppText text={"*482913* é o seu código. Plano: http://localhost:8080/checkout/5511987654321"} />);
    expect(screen.getByText("482913").tagName).toBe("STRONG");
    expect(screen.getByRole("link")).toHaveAttribute("href", "http://localhost:8080/checkout/5511987654321");
  });

  it("never renders markup from the text", () => {
    const { container } = render(<WhatsAppText text={'<img src=x onerror="alert(1)">'} />);
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toBe('<img src=x onerror="alert(1)">');
  });
});
