import { CalendarClock, ClipboardList, LineChart, ShieldCheck } from "lucide-react";
import { useTranslation } from "react-i18next";

/** What the user gets, beside the login form on large screens. */
export function BenefitsPanel() {
  const { t } = useTranslation("auth");
  const items = [
    { icon: ClipboardList, text: t("benefits.plan") },
    { icon: LineChart, text: t("benefits.guidance") },
    { icon: CalendarClock, text: t("benefits.anytime") },
  ];
  return (
    <aside className="surface-dark hidden rounded-3xl bg-brand-800 p-10 text-white lg:block">
      <h2 className="text-2xl font-bold">{t("benefits.title")}</h2>
      <ul className="mt-8 space-y-5">
        {items.map(({ icon: Icon, text }) => (
          <li key={text} className="flex items-start gap-3">
            <Icon aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-100" />
            <span>{text}</span>
          </li>
        ))}
      </ul>
      <p className="mt-10 inline-flex items-center gap-2 rounded-full bg-white/10 px-4 py-2 text-sm">
        <ShieldCheck aria-hidden="true" className="h-4 w-4" />
        {t("guarantee")}
      </p>
    </aside>
  );
}
