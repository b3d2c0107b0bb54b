import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { Button } from "@/components/ui/button";
import { useAccessToken } from "@/lib/session";
import { useSignOut } from "@/lib/use-sign-out";

import { LanguageSwitch } from "./language-switch";

export function SiteHeader() {
  const { t } = useTranslation();
  const token = useAccessToken();
  const { signOut, pending } = useSignOut();

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/70 bg-white/90 backdrop-blur">
      <nav aria-label={t("nav.mainNavigation")} className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 text-xl font-bold text-brand-700" translate="no">
          <span aria-hidden="true" className="grid h-8 w-8 place-items-center rounded-lg bg-brand-700 text-white">
            S
          </span>
          {t("appName")}
        </Link>
        <div className="flex items-center gap-2">
          <LanguageSwitch />
          {token ? (
            <>
              <Button asChild variant="ghost" size="sm">
                <Link to="/dashboard">{t("nav.dashboard")}</Link>
              </Button>
              <Button variant="secondary" size="sm" onClick={() => void signOut().catch(() => {})} disabled={pending}>
                {t("nav.signOut")}
              </Button>
            </>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm" className="hidden sm:inline-flex">
                <Link to="/login">{t("nav.signIn")}</Link>
              </Button>
              <Button asChild size="sm">
                <Link to="/checkout">{t("nav.getStarted")}</Link>
              </Button>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
