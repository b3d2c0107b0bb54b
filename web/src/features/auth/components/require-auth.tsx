import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useNavigate } from "react-router";
import { toast } from "sonner";

import { Role } from "@/gen/socio/v1/common_pb";
import { isLeavingSession, useAccessToken } from "@/lib/session";

import { useMe } from "../api/use-me";

function Status({ text }: { text: string }) {
  return (
    <p role="status" className="py-24 text-center text-slate-600">
      {text}
    </p>
  );
}

/**
 * The layout of every logged-in page: no stored token or a failed current-user check sends to
 * /login — or home, when the person just ended their session on purpose (a deleted account).
 */
export function LoggedInLayout() {
  const { t } = useTranslation("auth");
  const token = useAccessToken();
  const me = useMe();
  if (!token || me.isError) return <Navigate to={isLeavingSession() ? "/" : "/login"} replace />;
  if (me.isPending) return <Status text={t("guard.loading")} />;
  return <Outlet />;
}

/** The layout of the admin pages: anonymous → /login, regular users → /dashboard, each with its message. */
export function AdminLayout() {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  const token = useAccessToken();
  const me = useMe();
  const role = me.data?.user?.role;

  useEffect(() => {
    if (!token) {
      toast.error(t("guard.loginRequired"));
      void navigate("/login", { replace: true });
    } else if (me.isError) {
      toast.error(t("guard.checkFailed"));
      void navigate("/dashboard", { replace: true });
    } else if (me.isSuccess && role !== Role.ADMIN) {
      toast.error(t("guard.adminOnly"));
      void navigate("/dashboard", { replace: true });
    }
  }, [token, me.isError, me.isSuccess, role, navigate, t]);

  if (me.isSuccess && role === Role.ADMIN) return <Outlet />;
  return <Status text={t("guard.checking")} />;
}
