import { type RefObject, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { buttonClass } from "@/components/ui/button-styles";

/** The share of the hero that must stay visible for the bar to stay hidden (10%). */
export const HERO_VISIBLE_THRESHOLD = 0.1;

/** On phones, a call to action fixed at the bottom once less than 10% of the hero is visible. */
export function StickyCta({ hero }: { hero: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation("landing");
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const target = hero.current;
    if (!target || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      ([entry]) => setVisible(entry !== undefined && entry.intersectionRatio < HERO_VISIBLE_THRESHOLD),
      { threshold: [0, HERO_VISIBLE_THRESHOLD, 0.5, 1] },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hero]);

  if (!visible) return null;
  return (
    <div role="region" aria-label={t("sticky.cta")} className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 p-3 shadow-lg backdrop-blur md:hidden">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-medium text-slate-700">{t("sticky.text")}</p>
        <a href="/checkout" className={buttonClass({ size: "sm" }, "shrink-0 whitespace-nowrap")}>
          {t("sticky.cta")}
        </a>
      </div>
    </div>
  );
}
