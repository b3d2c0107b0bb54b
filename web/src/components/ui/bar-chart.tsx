// A small, accessible bar chart (SVG): one bar per point, the values also given as a table for
// screen readers.

import { cn } from "@/lib/cn";

export interface BarPoint {
  label: string;
  value: number;
}

export function BarChart({ points, title, className, barClassName }: { points: BarPoint[]; title: string; className?: string; barClassName?: string }) {
  const max = Math.max(1, ...points.map((p) => Math.abs(p.value)));
  const width = 100 / Math.max(1, points.length);
  return (
    <figure className={cn("w-full", className)}>
      <svg viewBox="0 0 100 40" preserveAspectRatio="none" className="h-32 w-full" role="img" aria-label={title}>
        {points.map((p, i) => {
          const height = (Math.abs(p.value) / max) * 38;
          return (
            <rect
              key={p.label}
              x={i * width + width * 0.15}
              y={40 - height}
              width={width * 0.7}
              height={height}
              className={cn(p.value < 0 ? "fill-red-500" : "fill-brand-600", barClassName)}
            >
              <title>{`${p.label}: ${p.value}`}</title>
            </rect>
          );
        })}
      </svg>
      {points.length > 0 && (
        <figcaption className="mt-1 flex justify-between text-xs text-slate-500">
          <span>{points[0]?.label}</span>
          <span>{points.at(-1)?.label}</span>
        </figcaption>
      )}
      <table className="sr-only">
        <caption>{title}</caption>
        <tbody>
          {points.map((p) => (
            <tr key={p.label}>
              <th scope="row">{p.label}</th>
              <td>{p.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
