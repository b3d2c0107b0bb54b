import { useTranslation } from "react-i18next";

import { PageShell } from "./page-shell";

/** A whole page while its first data loads: the header, "Loading...", the footer. */
export function PageLoading() {
  const { t } = useTranslation("common");
  return (
    <PageShell>
      <p role="status" className="py-24 text-center text-slate-600">
        {t("loading")}
      </p>
    </PageShell>
  );
}
