import type { ReactNode } from "react";

import { cn } from "@/lib/cn";

/** A titled white card, named for screen readers by its title. */
export function Card({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-label={title} className={cn("rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200", className)}>
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}
