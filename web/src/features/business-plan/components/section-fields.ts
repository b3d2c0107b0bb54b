// The fields of each section, in the contracts' JSON shape (camelCase names, enum names as values).
import { PlanStep } from "@/gen/socio/v1/business_plan_pb";

export type FieldKind = "text" | "textarea" | "money" | "percent" | "count" | "list" | "select";

export interface Field {
  name: string;
  kind: FieldKind;
  options?: string[];
  max?: number;
}

export interface SectionSpec {
  step: PlanStep;
  key: "idea" | "market" | "finance" | "marketing" | "hr" | "legal";
  dataField: "ideaData" | "marketData" | "financeData" | "marketingData" | "hrData" | "legalData";
  fields: Field[];
}

export const SECTIONS: SectionSpec[] = [
  {
    step: PlanStep.IDEA,
    key: "idea",
    dataField: "ideaData",
    fields: [
      { name: "businessIdea", kind: "textarea", max: 2000 },
      { name: "problem", kind: "textarea", max: 2000 },
      { name: "solution", kind: "textarea", max: 2000 },
      { name: "differentiator", kind: "textarea", max: 1000 },
      { name: "stage", kind: "select", options: ["IDEA_STAGE_IDEA", "IDEA_STAGE_PLANNING", "IDEA_STAGE_STARTED", "IDEA_STAGE_RUNNING"] },
    ],
  },
  {
    step: PlanStep.MARKET,
    key: "market",
    dataField: "marketData",
    fields: [
      { name: "industry", kind: "text", max: 200 },
      { name: "targetCustomer", kind: "textarea", max: 1000 },
      { name: "marketSize", kind: "textarea", max: 1000 },
      { name: "competitors", kind: "textarea", max: 2000 },
      { name: "location", kind: "text", max: 200 },
      { name: "strengths", kind: "textarea", max: 1000 },
      { name: "weaknesses", kind: "textarea", max: 1000 },
      { name: "opportunities", kind: "textarea", max: 1000 },
      { name: "threats", kind: "textarea", max: 1000 },
    ],
  },
  {
    step: PlanStep.FINANCE,
    key: "finance",
    dataField: "financeData",
    fields: [
      { name: "startupCosts", kind: "money" },
      { name: "workingCapital", kind: "money" },
      { name: "monthlyFixedCosts", kind: "money" },
      { name: "averageTicket", kind: "money" },
      { name: "variableCostPerSale", kind: "money" },
      { name: "variableCostPercent", kind: "percent" },
      { name: "expectedSalesPerMonth", kind: "count" },
      { name: "fundingSource", kind: "text", max: 500 },
      { name: "monthlyWages", kind: "money" },
      { name: "monthlyProLabore", kind: "money" },
      { name: "monthlyPayroll", kind: "money" },
    ],
  },
  {
    step: PlanStep.MARKETING,
    key: "marketing",
    dataField: "marketingData",
    fields: [
      { name: "channels", kind: "list" },
      { name: "positioning", kind: "textarea", max: 1000 },
      { name: "pricingStrategy", kind: "textarea", max: 1000 },
      { name: "launchPlan", kind: "textarea", max: 2000 },
    ],
  },
  {
    step: PlanStep.HR,
    key: "hr",
    dataField: "hrData",
    fields: [
      { name: "teamSize", kind: "count" },
      { name: "roles", kind: "list" },
      { name: "hiringPlan", kind: "textarea", max: 2000 },
      { name: "partners", kind: "textarea", max: 1000 },
    ],
  },
  {
    step: PlanStep.LEGAL,
    key: "legal",
    dataField: "legalData",
    fields: [
      {
        name: "businessType",
        kind: "select",
        // ME and EPP are sizes (companySize); a plan saved with one as its form still shows it.
        options: ["BUSINESS_TYPE_MEI", "BUSINESS_TYPE_EI", "BUSINESS_TYPE_LTDA", "BUSINESS_TYPE_SLU", "BUSINESS_TYPE_SA", "BUSINESS_TYPE_UNDECIDED"],
      },
      {
        name: "companySize",
        kind: "select",
        options: ["COMPANY_SIZE_ME", "COMPANY_SIZE_EPP", "COMPANY_SIZE_OTHER", "COMPANY_SIZE_UNDECIDED"],
      },
      {
        name: "taxRegime",
        kind: "select",
        options: ["TAX_REGIME_SIMEI", "TAX_REGIME_SIMPLES_NACIONAL", "TAX_REGIME_LUCRO_PRESUMIDO", "TAX_REGIME_LUCRO_REAL", "TAX_REGIME_UNDECIDED"],
      },
      { name: "licences", kind: "list" },
      {
        name: "activity",
        kind: "select",
        options: ["ACTIVITY_COMMERCE", "ACTIVITY_INDUSTRY", "ACTIVITY_SERVICES", "ACTIVITY_COMMERCE_AND_SERVICES"],
      },
      { name: "cnae", kind: "text", max: 12 },
      { name: "issRatePercent", kind: "percent" },
      { name: "icmsRatePercent", kind: "percent" },
      { name: "profession", kind: "select", options: ["PROFESSION_REGULATED", "PROFESSION_NOT_REGULATED"] },
      { name: "cnpjStatus", kind: "select", options: ["CNPJ_STATUS_NONE", "CNPJ_STATUS_IN_PROGRESS", "CNPJ_STATUS_ACTIVE"] },
    ],
  },
];
