import { BarChart3, MessageCircle, Rocket, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { toast } from "sonner";

import { PlanFeatureList } from "@/components/billing/plan-feature-list";
import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import { BillingInterval, type PlanOffer, PlanType } from "@/gen/socio/v1/billing_pb";
import { cn } from "@/lib/cn";
import { serverMessage } from "@/lib/errors";
import { currentLanguage } from "@/lib/i18n";
import { seenVariant, useTrackEvent } from "@/lib/landing-analytics";
import { formatBRL } from "@/lib/money";
import { formatPhone, normalizePhone } from "@/lib/phone";
import { useAccessToken } from "@/lib/session";

import { useBuyer, useCreateCheckout, usePlans } from "../api/use-billing";

/** Where the browser goes next (a seam for tests). */
export const navigation = { go: (url: string) => window.location.assign(url) };

/** `/checkout`, `/checkout/:phoneNumber` and `/checkout?link=…` (the opaque link the consultant
 * sends someone WhatsApp shows without a number): free or Pro (preselected, or as `?plan=` and
 * `?interval=` say), then the provider's page. Without a number or a link, it is the logged-in
 * person's checkout; a visitor with no account is sent to WhatsApp with a ready message naming the
 * plan and interval they chose, and the first reply there carries the checkout link for that choice. */
export function CheckoutPage() {
  const { t, i18n } = useTranslation("billing");
  const language = currentLanguage(i18n);
  const params = useParams();
  const token = useAccessToken();
  const [search] = useSearchParams();
  const link = search.get("link") ?? "";
  const me = useBuyer(!params.phoneNumber && !link && token !== null);
  const plans = usePlans(language);
  const checkout = useCreateCheckout();
  const [selected, setSelected] = useState<PlanType>(search.get("plan") === "free" ? PlanType.FREE : PlanType.PRO);
  // The landing page's yearly card links here with ?interval=yearly.
  const [interval, setInterval] = useState<BillingInterval>(
    search.get("interval") === "yearly" ? BillingInterval.YEARLY : BillingInterval.MONTHLY,
  );
  const [landingVariant] = useState(seenVariant);
  useTrackEvent("checkoutStart", landingVariant);

  const phone = params.phoneNumber ? normalizePhone(params.phoneNumber) : (me.data?.user?.phoneNumber ?? "");
  const username = me.data?.user?.username ?? "";
  // A visitor with no account (or a session that ended): the choice goes on through WhatsApp.
  const stranger = !params.phoneNumber && !link && (!token || me.isError);
  // Whom the checkout is for: a number, a link, or the logged-in person (known by username).
  const known = phone !== "" || link !== "" || me.data?.user !== undefined;
  const yearly = interval === BillingInterval.YEARLY;
  const onWhatsApp = (plan: PlanOffer) => (yearly && plan.yearlyWhatsappUrl ? plan.yearlyWhatsappUrl : plan.whatsappUrl);
  const choice = selected === PlanType.FREE ? t("stranger.free") : yearly ? t("stranger.proYearly") : t("stranger.proMonthly");

  async function start(plan: PlanOffer) {
    setSelected(plan.id);
    if (!known) return;
    try {
      const reply = await checkout.mutateAsync({ planType: plan.id, phoneNumber: phone, link, language, interval, landingVariant: landingVariant ?? "" });
      const next = reply.checkoutUrl || reply.redirectUrl;
      if (next) navigation.go(next);
      else toast.error(t("toast.failed"));
    } catch (error) {
      toast.error(serverMessage(error, "") ? t("toast.failed") : t("toast.exception"), { description: serverMessage(error, "") || undefined });
    }
  }

  const showcase = [
    { icon: MessageCircle, title: t("showcase.whatsapp"), text: t("showcase.whatsappText") },
    { icon: BarChart3, title: t("showcase.analytics"), text: t("showcase.analyticsText") },
    { icon: Rocket, title: t("showcase.growth"), text: t("showcase.growthText") },
  ];

  return (
    <PageShell>
      <div className="mx-auto max-w-5xl px-4 py-12">
        <h1 className="text-center text-3xl font-bold">{t("title")}</h1>
        <p className="mt-2 text-center text-slate-600">{t("subtitle")}</p>
        {phone ? (
          <p className="mt-2 text-center font-medium text-brand-700">{t("forPhone", { phone: formatPhone(phone) })}</p>
        ) : username ? (
          <p className="mt-2 text-center font-medium text-brand-700">{t("forPhone", { phone: username })}</p>
        ) : null}
        {stranger && (
          <section aria-labelledby="checkout-stranger-title" className="mx-auto mt-6 max-w-2xl rounded-2xl bg-brand-50 p-5 text-slate-900 ring-1 ring-brand-100">
            <h2 id="checkout-stranger-title" className="flex items-center gap-2 font-semibold">
              <MessageCircle aria-hidden="true" className="h-5 w-5 text-brand-700" />
              {t("stranger.title")}
            </h2>
            <p className="mt-2" aria-live="polite">
              {t("stranger.what", { choice })}
            </p>
            <p className="mt-2 text-sm">
              {t("stranger.haveAccount")}{" "}
              <Link to="/login" className="font-semibold text-brand-800 underline">
                {t("stranger.login")}
              </Link>
            </p>
          </section>
        )}

        <div className="mt-10 grid gap-6 md:grid-cols-2">
          {(plans.data?.plans ?? []).map((plan) => {
            const active = selected === plan.id;
            return (
              <article
                key={plan.id}
                aria-labelledby={`checkout-plan-${plan.id}`}
                aria-current={active ? "true" : undefined}
                onClick={() => setSelected(plan.id)}
                className={cn("relative flex cursor-pointer flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200", active && "ring-2 ring-brand-600")}
              >
                {plan.popular && (
                  <span className="absolute -top-3 left-6 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">{t("popular")}</span>
                )}
                <h2 id={`checkout-plan-${plan.id}`} className="text-lg font-semibold">
                  {plan.name} {active && <span className="ml-2 text-xs font-medium text-brand-700">{t("selected")}</span>}
                </h2>
                <p className="mt-1 text-sm text-slate-600">{plan.description}</p>
                <p className="mt-4 text-4xl font-bold">
                  {formatBRL(interval === BillingInterval.YEARLY && plan.yearlyPrice > 0 ? plan.yearlyPrice : plan.price, language)}
                  <span className="text-base font-normal text-slate-600"> {interval === BillingInterval.YEARLY && plan.yearlyPrice > 0 ? t("checkout.perYear") : plan.period}</span>
                </p>
                {plan.yearlyPrice > 0 && (
                  <div className="mt-3 flex gap-2 text-sm" role="group">
                    {[BillingInterval.MONTHLY, BillingInterval.YEARLY].map((option) => (
                      <button
                        key={option}
                        type="button"
                        aria-pressed={interval === option}
                        onClick={(e) => {
                          e.stopPropagation();
                          setInterval(option);
                        }}
                        className={cn("rounded-full px-3 py-1 ring-1", interval === option ? "bg-brand-700 text-white ring-brand-700" : "ring-slate-300")}
                      >
                        {option === BillingInterval.MONTHLY ? t("monthly") : t("yearly", { savings: formatBRL(plan.yearlySavings, language) })}
                      </button>
                    ))}
                  </div>
                )}
                <PlanFeatureList plan={plan} />
                {stranger ? (
                  <Button asChild className="mt-6 w-full" variant={plan.id === PlanType.PRO ? "primary" : "secondary"}>
                    <a href={onWhatsApp(plan)} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()}>
                      <MessageCircle aria-hidden="true" className="mr-2 h-4 w-4" />
                      {t("stranger.button", { plan: plan.buttonText })}
                    </a>
                  </Button>
                ) : (
                <Button
                  className="mt-6 w-full"
                  variant={plan.id === PlanType.PRO ? "primary" : "secondary"}
                  disabled={checkout.isPending || !known}
                  onClick={(e) => {
                    e.stopPropagation();
                    void start(plan);
                  }}
                >
                  {checkout.isPending && selected === plan.id ? t("processing") : plan.buttonText}
                </Button>
                )}
              </article>
            );
          })}
        </div>

        <p className="mt-6 flex items-center justify-center gap-2 text-sm text-slate-700">
          <ShieldCheck aria-hidden="true" className="h-4 w-4 text-brand-700" />
          {t("guarantee")}
        </p>
        <ul className="mt-10 grid gap-4 sm:grid-cols-3">
          {showcase.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl bg-slate-50 p-5">
              <Icon aria-hidden="true" className="h-6 w-6 text-brand-700" />
              <p className="mt-2 font-semibold">{title}</p>
              <p className="text-sm text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
        <div className="mt-10 text-center">
          <Button asChild variant="ghost">
            <Link to="/">{t("backHome")}</Link>
          </Button>
        </div>
      </div>
    </PageShell>
  );
}
