import { toJson } from "@bufbuild/protobuf";
import type { JsonObject } from "@bufbuild/protobuf";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";

import { PageLoading } from "@/components/layout/page-loading";
import { PageShell } from "@/components/layout/page-shell";
import { Button } from "@/components/ui/button";
import {
  type BusinessPlan,
  FinanceDataSchema,
  HrDataSchema,
  IdeaDataSchema,
  LegalDataSchema,
  MarketDataSchema,
  MarketingDataSchema,
  PlanStatus,
} from "@/gen/socio/v1/business_plan_pb";
import { serverMessage } from "@/lib/errors";
import { useDownloadPlan } from "@/lib/use-download-plan";
import { usePlanLiveUpdates } from "@/lib/use-plan-live";

import { useBusinessPlan, useDeletePlan, useGeneratePlan } from "../api/plan-queries";
import { FinanceSummary } from "./finance-summary";
import { PriceCalculator } from "./price-calculator";
import { SectionCard } from "./section-card";
import { SECTIONS, type SectionSpec } from "./section-fields";

function sectionJson(plan: BusinessPlan, spec: SectionSpec): JsonObject {
  const options = { alwaysEmitImplicit: true };
  switch (spec.dataField) {
    case "ideaData":
      return plan.ideaData ? (toJson(IdeaDataSchema, plan.ideaData, options) as JsonObject) : {};
    case "marketData":
      return plan.marketData ? (toJson(MarketDataSchema, plan.marketData, options) as JsonObject) : {};
    case "financeData":
      return plan.financeData ? (toJson(FinanceDataSchema, plan.financeData, options) as JsonObject) : {};
    case "marketingData":
      return plan.marketingData ? (toJson(MarketingDataSchema, plan.marketingData, options) as JsonObject) : {};
    case "hrData":
      return plan.hrData ? (toJson(HrDataSchema, plan.hrData, options) as JsonObject) : {};
    case "legalData":
      return plan.legalData ? (toJson(LegalDataSchema, plan.legalData, options) as JsonObject) : {};
  }
}

const STATUS_KEY: Record<PlanStatus, string> = {
  [PlanStatus.UNSPECIFIED]: "draft",
  [PlanStatus.DRAFT]: "draft",
  [PlanStatus.IN_PROGRESS]: "in_progress",
  [PlanStatus.COMPLETED]: "completed",
};

/** `/business-plan`: the six steps as forms that save themselves, the numbers, the document. */
export function BuilderPage() {
  const { t } = useTranslation("businessPlan");
  const query = useBusinessPlan();
  const generate = useGeneratePlan();
  const remove = useDeletePlan();
  const download = useDownloadPlan();
  const confirmRef = useRef<HTMLDialogElement>(null);
  usePlanLiveUpdates();

  const plan = query.data?.businessPlan;
  if (query.isPending) {
    return <PageLoading />;
  }
  if (!plan) {
    return (
      <PageShell>
        <p role="alert" className="py-24 text-center text-slate-600">
          {serverMessage(query.error, t("loadFailed"))}
        </p>
      </PageShell>
    );
  }

  async function onGenerate() {
    try {
      await generate.mutateAsync({});
      toast.success(t("generated"));
    } catch (error) {
      toast.error(t("generateFailed"), { description: serverMessage(error, "") || undefined });
    }
  }

  async function onDownload(format: "pdf" | "markdown") {
    try {
      await download.download(format);
    } catch (error) {
      toast.error(t("downloadFailed"), { description: serverMessage(error, "") || undefined });
    }
  }

  async function onDelete() {
    confirmRef.current?.close();
    try {
      await remove.mutateAsync({});
      toast.success(t("deleted"));
    } catch (error) {
      toast.error(serverMessage(error, t("deleted")));
    }
  }

  const progress = Math.min(100, Math.max(0, plan.progress));
  const steps = new Map(plan.steps.map((s) => [s.id, s.completed]));
  return (
    <PageShell>
      <div className="mx-auto max-w-4xl space-y-6 px-4 py-10">
        <header>
          <h1 className="text-3xl font-bold">{t("title")}</h1>
          <p className="mt-2 text-slate-700">{t("intro")}</p>
          <div className="mt-5 flex items-center gap-3">
            <div className="h-3 flex-1 overflow-hidden rounded-full bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress} aria-label={t("title")}>
              <div className="h-full rounded-full bg-brand-600 transition-all" style={{ width: `${progress}%` }} />
            </div>
            <span className="font-semibold">{t("progress", { progress })}</span>
            {plan.status === PlanStatus.COMPLETED && (
              <span className="rounded-full bg-brand-700 px-2.5 py-0.5 text-xs font-semibold text-white">{t("completedBadge")}</span>
            )}
          </div>
          <p className="mt-1 text-sm text-slate-600">{t(`status.${STATUS_KEY[plan.status]}`)}</p>
        </header>

        {SECTIONS.map((spec) => (
          <SectionCard key={`${spec.key}-${plan.id}`} spec={spec} data={sectionJson(plan, spec)} completed={steps.get(spec.step) ?? false}>
            {spec.key === "finance" && <FinanceSummary analysis={plan.financeAnalysis} />}
            {spec.key === "marketing" && <PriceCalculator saved={sectionJson(plan, spec).prices} />}
          </SectionCard>
        ))}

        <section className="flex flex-col gap-3 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={() => void onGenerate()} disabled={generate.isPending}>
              {generate.isPending ? t("generating") : t("generate")}
            </Button>
            {plan.document && (
              <>
                <span className="text-sm text-slate-600">
                  {t("documentVersion", { version: plan.document.version })}
                  {!plan.document.current && <strong className="ml-1 font-medium text-amber-800">· {t("documentStale")}</strong>}
                </span>
                <Button variant="secondary" size="sm" onClick={() => void onDownload("pdf")} disabled={download.isPending}>
                  {t("downloadPdf")}
                </Button>
                <Button variant="secondary" size="sm" onClick={() => void onDownload("markdown")} disabled={download.isPending}>
                  {t("downloadMarkdown")}
                </Button>
              </>
            )}
          </div>
          <Button variant="ghost" className="text-red-700" onClick={() => confirmRef.current?.showModal()} disabled={remove.isPending}>
            {t("delete")}
          </Button>
        </section>

        <dialog ref={confirmRef} className="m-auto max-w-md rounded-2xl p-6 backdrop:bg-slate-900/50" aria-labelledby="delete-plan-question">
          <p id="delete-plan-question" className="font-medium">
            {t("deleteConfirm")}
          </p>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => confirmRef.current?.close()}>
              {t("cancel")}
            </Button>
            <Button className="bg-red-700 hover:bg-red-800" onClick={() => void onDelete()}>
              {t("deleteYes")}
            </Button>
          </div>
        </dialog>
      </div>
    </PageShell>
  );
}
