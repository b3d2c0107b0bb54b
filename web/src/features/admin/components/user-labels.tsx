import { useTranslation } from "react-i18next";

import { type AdminUser, BusinessPlanStatus } from "@/gen/socio/v1/admin_pb";
import { SubscriptionStatus } from "@/gen/socio/v1/common_pb";
import { cn } from "@/lib/cn";

/** The translation key of each plan status, as the users' list and a user's details name it. */
export const PLAN_STATUS_KEYS: Record<BusinessPlanStatus, string> = {
  [BusinessPlanStatus.UNSPECIFIED]: "none",
  [BusinessPlanStatus.NONE]: "none",
  [BusinessPlanStatus.DRAFT]: "draft",
  [BusinessPlanStatus.IN_PROGRESS]: "in_progress",
  [BusinessPlanStatus.COMPLETED]: "completed",
};

/** A user's tier, Pro or free, as a badge. */
export function TierBadge({ user }: { user: AdminUser }) {
  const { t } = useTranslation("admin");
  const pro = user.subscriptionStatus === SubscriptionStatus.PRO;
  return (
    <span className={cn("rounded-full px-2.5 py-0.5 text-xs font-semibold", pro ? "bg-brand-700 text-white" : "bg-slate-200 text-slate-700")}>
      {pro ? t("users.pro") : t("users.free")}
    </span>
  );
}
