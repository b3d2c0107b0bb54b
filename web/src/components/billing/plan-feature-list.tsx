import { Check, X } from "lucide-react";

import type { PlanOffer } from "@/gen/socio/v1/billing_pb";

/** A plan's features, each with a check, then its limitations struck through (landing and checkout). */
export function PlanFeatureList({ plan }: { plan: Pick<PlanOffer, "features" | "limitations"> }) {
  return (
    <ul className="mt-6 flex-1 space-y-2 text-sm">
      {plan.features.map((feature) => (
        <li key={feature} className="flex gap-2">
          <Check aria-hidden="true" className="h-5 w-5 shrink-0 text-brand-600" />
          {feature}
        </li>
      ))}
      {plan.limitations.map((limitation) => (
        <li key={limitation} className="flex gap-2 text-slate-500 line-through">
          <X aria-hidden="true" className="h-5 w-5 shrink-0" />
          {limitation}
        </li>
      ))}
    </ul>
  );
}
