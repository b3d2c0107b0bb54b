import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TableScroll } from "@/components/ui/table-scroll";
import { type PixRefund, PixRefundStatus } from "@/gen/socio/v1/billing_pb";
import { formatDate } from "@/lib/dates";
import { serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL } from "@/lib/money";
import { formatHandle } from "@/lib/phone";

import { useMarkRefundPaid, useRefunds } from "../api/use-admin";

const STATUS_KEY: Record<PixRefundStatus, string> = {
  [PixRefundStatus.UNSPECIFIED]: "refunds.status.awaitingKey",
  [PixRefundStatus.AWAITING_KEY]: "refunds.status.awaitingKey",
  [PixRefundStatus.TO_PAY]: "refunds.status.toPay",
  [PixRefundStatus.PAID]: "refunds.status.paid",
};

/** Guarantee refunds of boleto payments, which the payment provider cannot refund: the admin pays
 * each by Pix from the bank, to the key shown, and marks it paid here (the person is then told). */
export function RefundsTab() {
  const { t, i18n } = useTranslation("admin");
  const language = currentLanguage(i18n);
  const refunds = useRefunds();
  const markPaid = useMarkRefundPaid();
  const [paying, setPaying] = useState<PixRefund | null>(null);

  async function onPaid(refund: PixRefund) {
    try {
      await markPaid.mutateAsync({ id: refund.id, pixKey: refund.pixKey });
      toast.success(t("refunds.marked"));
    } catch (error) {
      toast.error(serverMessage(error, t("refunds.markFailed")));
    }
  }

  const rows = refunds.data?.refunds ?? [];
  return (
    <section aria-labelledby="refunds-title" className="space-y-4">
      <div>
        <h2 id="refunds-title" className="text-xl font-semibold">
          {t("refunds.title")}
        </h2>
        <p className="text-sm text-slate-600">{t("refunds.intro")}</p>
      </div>
      {refunds.isPending ? (
        <p role="status" className="text-slate-600">
          {t("common:loading")}
        </p>
      ) : rows.length === 0 ? (
        <p className="text-slate-600">{t("refunds.empty")}</p>
      ) : (
        <TableScroll label={t("refunds.title")} className="rounded-2xl bg-white ring-1 ring-slate-200">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-3">{t("refunds.person")}</th>
                <th scope="col" className="px-4 py-3">{t("refunds.amount")}</th>
                <th scope="col" className="px-4 py-3">{t("refunds.key")}</th>
                <th scope="col" className="px-4 py-3">{t("refunds.requested")}</th>
                <th scope="col" className="px-4 py-3">{t("refunds.statusLabel")}</th>
                <th scope="col" className="px-4 py-3"><span className="sr-only">{t("refunds.actions")}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((refund) => (
                <tr key={refund.id}>
                  <th scope="row" className="px-4 py-3 font-medium">
                    {refund.userName || t("refunds.erased")}
                    <span className="block text-xs font-normal text-slate-600">{formatHandle(refund.phoneNumber, "")}</span>
                  </th>
                  <td className="px-4 py-3 whitespace-nowrap">{formatBRL(refund.amount, language, { cents: true })}</td>
                  <td className="px-4 py-3">
                    {refund.pixKey ? (
                      <>
                        <span className="font-mono select-all">{refund.pixKey}</span>
                        <span className="block text-xs text-slate-600">{refund.pixKeyLabel}</span>
                      </>
                    ) : (
                      <span className="text-slate-600">{t("refunds.noKey")}</span>
                    )}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{formatDate(refund.requestedAt, language)}</td>
                  <td className="px-4 py-3">
                    {t(STATUS_KEY[refund.status])}
                    {refund.status === PixRefundStatus.PAID && <span className="block text-xs text-slate-600">{formatDate(refund.paidAt, language)}</span>}
                  </td>
                  <td className="px-4 py-3 text-right">
                    {refund.status === PixRefundStatus.TO_PAY && (
                      <Button size="sm" onClick={() => setPaying(refund)} disabled={markPaid.isPending}>
                        {t("refunds.markPaid")}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ConfirmDialog
        open={paying !== null}
        onOpenChange={(open) => !open && setPaying(null)}
        title={t("refunds.confirmTitle")}
        description={paying ? t("refunds.confirmText", { amount: formatBRL(paying.amount, language, { cents: true }), key: paying.pixKey, name: paying.userName }) : ""}
        cancelLabel={t("refunds.notYet")}
        confirmLabel={t("refunds.confirmPaid")}
        onConfirm={() => paying && void onPaid(paying)}
      />
    </section>
  );
}
