// The button look, as plain class names: the `Button` component merges callers' classes over it,
// and the landing page uses it on its links directly, so that page carries neither the class
// merger nor a router.

import { clsx } from "clsx";

const variants = {
  primary: "bg-brand-700 text-white hover:bg-brand-800 shadow-sm",
  secondary: "bg-white text-ink ring-1 ring-slate-300 hover:bg-slate-50",
  ghost: "text-ink hover:bg-slate-100",
} as const;

const sizes = {
  sm: "h-9 px-3 text-sm",
  md: "h-11 px-5 text-base",
  lg: "h-13 px-7 text-lg",
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

/**
 * The classes of a button of this variant and size, then `extra` as given. Nothing is merged:
 * `extra` must not restyle what the variant and size set (colours, height, padding, display).
 */
export function buttonClass({ variant = "primary", size = "md" }: { variant?: ButtonVariant; size?: ButtonSize } = {}, extra?: string): string {
  return clsx(
    "inline-flex items-center justify-center gap-2 rounded-xl font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60",
    variants[variant],
    sizes[size],
    extra,
  );
}
