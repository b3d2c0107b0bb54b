// Downloads the complete plan (`GET /api/business-plan/export`) as PDF or Markdown. The server
// makes a new version when the plan changed since the latest, so the plan is read again after.
import { useMutation } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";

import { BusinessPlanService, ExportFormat } from "@/gen/socio/v1/business_plan_pb";

import { saveFile } from "./download";
import { invalidatePlan } from "./query-keys";

export function useDownloadPlan() {
  const queryClient = useQueryClient();
  const exportPlan = useMutation(BusinessPlanService.method.exportBusinessPlan, {
    onSuccess: () => invalidatePlan(queryClient),
  });
  return {
    isPending: exportPlan.isPending,
    download: async (format: "pdf" | "markdown") => {
      const file = await exportPlan.mutateAsync({ format: format === "pdf" ? ExportFormat.PDF : ExportFormat.MARKDOWN });
      saveFile(file.content, file.fileName, file.contentType);
    },
  };
}
