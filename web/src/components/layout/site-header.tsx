import { useMutation } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";

import { Button } from "@/components/ui/button";
import { AuthService } from "@/gen/socio/v1/auth_pb";
import { clearTokens, getRefreshToken, useAccessToken } from "@/lib/session";

import { LanguageSwitch } from "./language-switch";

export function SiteHeader() {
  const { t } = useTranslation();
  const token = useAccessToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useMutation(AuthService.method.logout);

  async function signOut() {
    try {
      await logout.mutateAsync({ refreshToken: getRefreshToken() ?? "" });
    } finally {
      // Leave the protected page first, so its guard does not send us to /login.
      await navigate("/");
      clearTokens();
      queryClient.clear();
    }
  }

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
              <Button variant="secondary" size="sm" onClick={() => void signOut().catch(() => {})} disabled={logout.isPending}>
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
