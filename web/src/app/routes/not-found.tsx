import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";

/** The page for any path the app does not know (title 404, a description, a link home). */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PageShell>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
        <p className="text-7xl font-extrabold text-brand-600" aria-hidden="true">
          {t("notFound.title")}
        </p>
        <h1 className="mt-4 text-2xl font-bold">{t("notFound.heading")}</h1>
        <p className="mt-2 text-slate-600">{t("notFound.description")}</p>
        <Button asChild className="mt-8">
          <Link to="/">{t("notFound.returnHome")}</Link>
        </Button>
      </section>
    </PageShell>
  );
}

export default NotFoundPage;
