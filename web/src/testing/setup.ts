import "@testing-library/jest-dom/vitest";

import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// A page's first render loads its lazy chunks; on a busy two-core CI machine that alone can pass
// Testing Library's default second, so `findBy…` waits up to five.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

// jsdom has no layout: components that measure themselves (Radix's switch) get an observer that
// never reports, as a browser with nothing to lay out would.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
