import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { serverMessage } from "@/lib/errors";
import { legalPath } from "@/lib/legal-paths";
import { clearTokens, leaveSession, stayInSession } from "@/lib/session";

import { useDeleteMyAccount, useExportMyData } from "../api/use-account";

/** The person's LGPD rights on the spot: a complete copy of their data, and deleting the account. */
export function YourData() {
  const { t, i18n } = useTranslation("dashboard");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const exportData = useExportMyData();
  const deleteAccount = useDeleteMyAccount();
  const [confirming, setConfirming] = useState(false);

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
    let subscriptionEnded = false;
    try {
      ({ subscriptionEnded } = await deleteAccount.mutateAsync({ confirm: true }));
    } catch (error) {
      stayInSession();
      toast.error(serverMessage(error, t("yourData.deleteFailed")));
      return;
    }
    toast.success(subscriptionEnded ? t("yourData.deletedPro") : t("yourData.deleted"), { duration: 10_000 });
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
        <Button variant="ghost" className="text-red-700" onClick={() => setConfirming(true)} disabled={deleteAccount.isPending}>
          {t("yourData.delete")}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t("yourData.confirmTitle")}
        description={t("yourData.confirmText")}
        cancelLabel={t("yourData.cancel")}
        confirmLabel={t("yourData.confirmDelete")}
        onConfirm={() => void onDelete()}
      />
    </Card>
  );
}
