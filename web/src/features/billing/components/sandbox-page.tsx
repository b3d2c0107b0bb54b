import { FlaskConical } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { toast } from "sonner";

import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import { BillingInterval } from "@/gen/socio/v1/billing_pb";
import { serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";
import { formatBRL } from "@/lib/money";

import { navigation } from "./checkout-page";

import { useCompleteSandboxCheckout, useSandboxCheckout } from "../api/use-billing";

/** `/checkout/sandbox/:session`: the sandbox provider's test payment page. It shows no phone
 * number: anyone holding the page's address could read it. */
export function SandboxPage() {
  const { t, i18n } = useTranslation("billing");
  const language = currentLanguage(i18n);
  const { session = "" } = useParams();
  const checkout = useSandboxCheckout(session);
  const complete = useCompleteSandboxCheckout();

  async function finish(pay: boolean) {
    try {
      const reply = await complete.mutateAsync({ sessionId: session, pay });
      navigation.go(reply.redirectUrl);
    } catch (error) {
      toast.error(serverMessage(error, t("toast.exception")));
    }
  }

  const data = checkout.data;
  return (
    <PageShell>
      <div className="mx-auto max-w-md px-4 py-12">
        <p role="note" className="flex items-center gap-2 rounded-xl bg-amber-50 p-4 text-sm font-medium text-amber-900 ring-1 ring-amber-200">
          <FlaskConical aria-hidden="true" className="h-5 w-5" />
          {t("sandbox.banner")}
        </p>
        <section className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h1 className="text-2xl font-bold">{t("sandbox.title")}</h1>
          {checkout.isError && <p role="alert" className="mt-4 text-red-700">{t("sandbox.notFound")}</p>}
          {data && (
            <>
              <p className="mt-2 text-slate-700">
                {t("sandbox.plan", { interval: data.interval === BillingInterval.YEARLY ? t("yearly", { savings: formatBRL(301, language) }) : t("monthly") })}
              </p>
              <dl className="mt-4 space-y-2">
                <div className="flex justify-between">
                  <dt className="text-slate-600">{t("sandbox.amount")}</dt>
                  <dd className="text-xl font-bold">{formatBRL(data.amount, language, { cents: true })}</dd>
                </div>
              </dl>
              {data.state === "open" ? (
                <div className="mt-6 flex gap-3">
                  <Button className="flex-1" onClick={() => void finish(true)} disabled={complete.isPending}>
                    {t("sandbox.pay")}
                  </Button>
                  <Button variant="secondary" onClick={() => void finish(false)} disabled={complete.isPending}>
                    {t("sandbox.cancel")}
                  </Button>
                </div>
              ) : (
                <p className="mt-6 text-slate-700">{t("sandbox.done")}</p>
              )}
            </>
          )}
        </section>
      </div>
    </PageShell>
  );
}
