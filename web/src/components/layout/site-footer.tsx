import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** The app pages' footer: the disclaimer, the legal documents, the rights line. */
export function SiteFooter() {
  const { t } = useTranslation();
  const links = t("footer.links", { returnObjects: true }) as [string, string][];
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto max-w-6xl space-y-2 px-4 py-8 text-sm text-slate-600">
        <p>{t("footer.disclaimer")}</p>
        <nav aria-label={t("footer.legal")}>
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            {links.map(([label, to]) => (
              <li key={to}>
                <Link to={to} className="underline hover:text-slate-900">
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p>{t("footer.rights", { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
