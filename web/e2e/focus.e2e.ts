import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";

import { collectErrors, sharedBrowser } from "./browser";

const browser = sharedBrowser();
const baseURL = inject("baseURL");

interface Stop {
  what: string;
  outline: string;
  contrast: number;
}

/**
 * Tabs through the page as a keyboard user does and, at each stop, measures the focus indicator:
 * its outline (WCAG 2.4.7) against what lies behind it — the nearest opaque background around the
 * element, since the outline is drawn outside it — which must reach 3:1 (WCAG 1.4.11), once the
 * ring's transition has run.
 */
async function focusStops(page: Page, tabs: number): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let i = 0; i < tabs; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(async () => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      // What stays on screen: after the ring's transition (from the text's colour) has run.
      await Promise.all(el.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 1;
      const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
      const rgba = (color: string): [number, number, number, number] => {
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = color;
        ctx.fillRect(0, 0, 1, 1);
        const [r = 0, g = 0, b = 0, a = 0] = ctx.getImageData(0, 0, 1, 1).data;
        return [r, g, b, a];
      };
      const luminance = ([r, g, b]: [number, number, number, number]) => {
        const channel = (v: number) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
      };
      let behind: [number, number, number, number] = [255, 255, 255, 255];
      for (let e = el.parentElement; e; e = e.parentElement) {
        const color = rgba(getComputedStyle(e).backgroundColor);
        if (color[3] > 200) {
          behind = color;
          break;
        }
      }
      const style = getComputedStyle(el);
      const visible = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
      const [a, b] = [luminance(rgba(style.outlineColor)), luminance(behind)];
      const contrast = visible ? (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) : 0;
      const what = `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}"`;
      return { what, outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`, contrast: Math.round(contrast * 10) / 10 };
    });
    if (stop) stops.push(stop);
  }
  return stops;
}

describe("focus a keyboard user can see", () => {
  it("every stop of the landing page, its dark bands included, shows a ring of 3:1 or more against what is behind it", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(baseURL);
    await page.getByRole("heading", { level: 1 }).waitFor();
    const stops = await focusStops(page, 90);
    expect(stops.length).toBeGreaterThan(30);
    expect(stops.filter((s) => s.contrast < 3)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it.each([
    ["/checkout", 1280],
    ["/login", 1280],
    ["/privacidade", 375],
    ["/dev/whatsapp", 1280],
  ])("every stop of %s at %i px does too", async (path, width) => {
    const page = await browser().newPage({ viewport: { width, height: 900 } });
    await page.goto(`${baseURL}${path}`);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    const stops = await focusStops(page, 40);
    expect(stops.length).toBeGreaterThan(3);
    expect(stops.filter((s) => s.contrast < 3)).toEqual([]);
  });
});
