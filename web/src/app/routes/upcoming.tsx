import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";

export type UpcomingPageKey = "admin";

/**
 * A registered route whose screen has not shipped yet: it says so plainly and links home, instead
 * of showing the 404 or a fake screen. Each is replaced by its feature's page.
 */
export function UpcomingPage({ page }: { page: UpcomingPageKey }) {
  const { t } = useTranslation();
  return (
    <PageShell>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center" data-page={page}>
        <h1 className="text-3xl font-bold">{t(`upcoming.pages.${page}`)}</h1>
        <p className="mt-3 text-slate-600">{t("upcoming.description")}</p>
        <Button asChild variant="secondary" className="mt-8">
          <Link to="/">{t("upcoming.returnHome")}</Link>
        </Button>
      </section>
    </PageShell>
  );
}
