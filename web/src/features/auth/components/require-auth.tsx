import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router";
import { toast } from "sonner";

import { Role } from "@/gen/socio/v1/common_pb";
import { useAccessToken } from "@/lib/session";

import { useMe } from "../api/use-me";

function Status({ text }: { text: string }) {
  return (
    <p role="status" className="py-24 text-center text-slate-600">
      {text}
    </p>
  );
}

/** Pages for logged-in users: no stored token or a failed current-user check sends to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation("auth");
  const token = useAccessToken();
  const me = useMe();
  if (!token || me.isError) return <Navigate to="/login" replace />;
  if (me.isPending) return <Status text={t("guard.loading")} />;
  return children;
}

/** Admin pages: anonymous → /login, regular users → /dashboard, each with its message. */
export function RequireAdmin({ children }: { children: ReactNode }) {
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

  if (me.isSuccess && role === Role.ADMIN) return children;
  return <Status text={t("guard.checking")} />;
}
