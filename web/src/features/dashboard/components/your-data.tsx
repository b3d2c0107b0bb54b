import { useMutation } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { AccountService } from "@/gen/socio/v1/account_pb";
import { serverMessage } from "@/lib/errors";
import { legalPath } from "@/lib/legal-paths";
import { clearTokens, leaveSession, stayInSession } from "@/lib/session";

/** The person's LGPD rights on the spot: a complete copy of their data, and deleting the account. */
export function YourData() {
  const { t, i18n } = useTranslation("dashboard");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const exportData = useMutation(AccountService.method.exportMyData);
  const deleteAccount = useMutation(AccountService.method.deleteMyAccount);
  const confirmRef = useRef<HTMLDialogElement>(null);

  async function onExport() {
    try {
      const { downloadUrl } = await exportData.mutateAsync({});
      window.location.assign(downloadUrl);
    } catch (error) {
      toast.error(serverMessage(error, t("yourData.exportFailed")));
    }
  }

  async function onDelete() {
    // The server ends the session as it erases it: what notices first must not send us to /login.
    leaveSession();
    try {
      await deleteAccount.mutateAsync({ confirm: true });
    } catch (error) {
      stayInSession();
      toast.error(serverMessage(error, t("yourData.deleteFailed")));
      return;
    }
    confirmRef.current?.close();
    toast.success(t("yourData.deleted"));
    await navigate("/", { replace: true });
    clearTokens();
    queryClient.clear();
  }

  return (
    <Card title={t("yourData.title")}>
      <p className="text-sm text-slate-600">
        {t("yourData.text")}{" "}
        <Link to={legalPath("lgpd", i18n.language)} className="text-brand-700 underline">
          {t("yourData.rights")}
        </Link>
      </p>
      <div className="mt-4 flex flex-col gap-2">
        <Button variant="secondary" onClick={() => void onExport()} disabled={exportData.isPending}>
          {exportData.isPending ? t("yourData.exporting") : t("yourData.export")}
        </Button>
        <Button variant="ghost" className="text-red-700" onClick={() => confirmRef.current?.showModal()}>
          {t("yourData.delete")}
        </Button>
      </div>
      <dialog ref={confirmRef} className="m-auto max-w-md rounded-2xl p-6 backdrop:bg-slate-900/50" aria-labelledby="delete-account-question">
        <h2 id="delete-account-question" className="text-lg font-semibold">
          {t("yourData.confirmTitle")}
        </h2>
        <p className="mt-2 text-sm text-slate-700">{t("yourData.confirmText")}</p>
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => confirmRef.current?.close()}>
            {t("yourData.cancel")}
          </Button>
          <Button className="bg-red-700 hover:bg-red-800" onClick={() => void onDelete()} disabled={deleteAccount.isPending}>
            {t("yourData.confirmDelete")}
          </Button>
        </div>
      </dialog>
    </Card>
  );
}
