// One labelled form field that shows the server's error for it: the control gets its id,
// aria-invalid and aria-describedby, the error is read out with the field, and every form looks
// the same.
import type { ReactNode } from "react";

import { cn } from "@/lib/cn";

/** What the control inside a field needs to be labelled and tied to its error. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": boolean;
  "aria-describedby": string | undefined;
  className: string;
}

export function FormField({
  id,
  label,
  error,
  className,
  controlClassName,
  children,
}: {
  id: string;
  label: ReactNode;
  /** The server's message for this field, when it refused it. */
  error?: string;
  className?: string;
  controlClassName: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({
        id,
        "aria-invalid": Boolean(error),
        "aria-describedby": error ? errorId : undefined,
        className: cn(controlClassName, error && "border-red-500"),
      })}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
