// Downloads the complete plan (`GET /api/business-plan/export`) as PDF or Markdown.
import { useMutation } from "@connectrpc/connect-query";

import { BusinessPlanService, ExportFormat } from "@/gen/socio/v1/business_plan_pb";

import { saveFile } from "./download";

export function useDownloadPlan() {
  const exportPlan = useMutation(BusinessPlanService.method.exportBusinessPlan);
  return {
    isPending: exportPlan.isPending,
    download: async (format: "pdf" | "markdown") => {
      const file = await exportPlan.mutateAsync({ format: format === "pdf" ? ExportFormat.PDF : ExportFormat.MARKDOWN });
      saveFile(file.content, file.fileName, file.contentType);
    },
  };
}
