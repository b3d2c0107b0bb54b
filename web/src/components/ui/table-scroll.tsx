// A table wider than the screen (a phone's) scrolls sideways in here. The region is focusable and
// named, so keyboard users can scroll it with the arrow keys and screen readers announce it.

import { clsx } from "clsx";
import type { ReactNode } from "react";

export function TableScroll({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    // Focusable: a scrollable region must be reachable by keyboard (WCAG 2.1.1).
    <div role="region" aria-label={label} tabIndex={0} className={clsx("overflow-x-auto", className)}>
      {children}
    </div>
  );
}
