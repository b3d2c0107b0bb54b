import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormField } from "@/components/ui/form-field";
import { BillingInterval, type PixRefund, PixRefundStatus, SubscriptionState } from "@/gen/socio/v1/billing_pb";
import { formatDate } from "@/lib/dates";
import { fieldViolations, serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL } from "@/lib/money";

import { useCancelSubscription, useSetRefundPixKey, useSubscriptionStatus } from "../api/use-subscription";

/** A boleto's guarantee refund, paid by hand by Pix: what it waits for, and the key form. */
function PixRefundPanel({ refund }: { refund: PixRefund }) {
  const { t, i18n } = useTranslation("dashboard");
  const language = currentLanguage(i18n);
  const setKey = useSetRefundPixKey();
  const [key, setKeyText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const amount = formatBRL(refund.amount, language, { cents: true });
  const waiting = refund.status === PixRefundStatus.AWAITING_KEY;

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      await setKey.mutateAsync({ pixKey: key });
      setKeyText("");
      toast.success(t("subscription.refund.keySaved", { days: refund.businessDays }));
    } catch (failure) {
      setError(fieldViolations(failure).pixKey ?? serverMessage(failure, t("subscription.refund.keyFailed")));
    }
  }

  return (
    <div role="status" className="mt-4 rounded-xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-200">
      <p className="font-semibold">{t("subscription.refund.title")}</p>
      <p className="mt-1 text-sm">
        {waiting
          ? t("subscription.refund.awaiting", { amount, days: refund.businessDays })
          : t("subscription.refund.toPay", { amount, days: refund.businessDays, key: refund.pixKeyLabel || refund.pixKey })}
      </p>
      <form onSubmit={(e) => void onSubmit(e)} className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end" noValidate>
        <FormField
          id="refund-pix-key"
          label={waiting ? t("subscription.refund.keyLabel") : t("subscription.refund.changeKey")}
          error={error}
          className="flex-1"
          controlClassName="mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2"
        >
          {(control) => (
            <input {...control} value={key} onChange={(e) => setKeyText(e.target.value)} autoComplete="off" placeholder={t("subscription.refund.keyHint")} />
          )}
        </FormField>
        <Button type="submit" disabled={setKey.isPending || key.trim() === ""}>
          {t("subscription.refund.send")}
        </Button>
      </form>
    </div>
  );
}

/** The person's plan on the dashboard: what they have, cancelling it (the 7-day guarantee says
 * what happens to the money) and a boleto refund still to be paid by Pix. */
export function SubscriptionCard() {
  const { t, i18n } = useTranslation("dashboard");
  const language = currentLanguage(i18n);
  const status = useSubscriptionStatus();
  const cancel = useCancelSubscription();
  const [confirming, setConfirming] = useState(false);
  if (!status.data) return null;
  const { subscription, pixRefund } = status.data;
  const running =
    subscription && (subscription.state === SubscriptionState.ACTIVE || subscription.state === SubscriptionState.PAST_DUE) && !subscription.cancelAtPeriodEnd;
  const ending = subscription?.cancelAtPeriodEnd && subscription.state !== SubscriptionState.CANCELED;
  const plan = subscription?.interval === BillingInterval.YEARLY ? t("subscription.planYearly") : t("subscription.planMonthly");

  async function onCancel() {
    try {
      const reply = await cancel.mutateAsync({});
      toast.success(
        reply.pixRefund ? t("subscription.canceledPix") : reply.refunded ? t("subscription.canceledRefunded") : t("subscription.canceledAtEnd"),
        { duration: 10_000 },
      );
    } catch (error) {
      toast.error(serverMessage(error, t("subscription.cancelFailed")));
    }
  }

  return (
    <Card title={t("subscription.title")}>
      {running ? (
        <>
          <p className="font-medium">{plan}</p>
          <p className="text-sm text-slate-600">{t("subscription.renews", { date: formatDate(subscription.currentPeriodEnd, language) })}</p>
          {subscription.refundable && <p className="mt-2 text-sm text-brand-800">{t("subscription.guarantee")}</p>}
          <Button variant="ghost" className="mt-3 text-red-700" onClick={() => setConfirming(true)} disabled={cancel.isPending}>
            {t("subscription.cancel")}
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={t("subscription.confirmTitle")}
            description={subscription.refundable ? t("subscription.confirmRefund") : t("subscription.confirmAtEnd")}
            cancelLabel={t("subscription.keep")}
            confirmLabel={t("subscription.confirmCancel")}
            onConfirm={() => void onCancel()}
          />
        </>
      ) : ending ? (
        <p className="text-sm text-slate-700">{t("subscription.ends", { plan, date: formatDate(subscription.currentPeriodEnd, language) })}</p>
      ) : (
        <p className="text-sm text-slate-700">
          {t("subscription.free")}{" "}
          <Link to="/checkout" className="font-medium text-brand-700 underline">
            {t("subscription.getPro")}
          </Link>
        </p>
      )}
      {pixRefund && pixRefund.status !== PixRefundStatus.PAID && <PixRefundPanel refund={pixRefund} />}
    </Card>
  );
}
