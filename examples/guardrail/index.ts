import { Guardrail } from "pulumi-guardrails";

// One guardrail. Set the key with GUARDRAILS_API_KEY (kept out of state) and the URL with
// `pulumi config set guardrails:baseUrl https://...` or GUARDRAILS_BASE_URL.
const team = new Guardrail("team", {
  name: "Team default",
  allowedModels: ["vendor-a/model-x"],
  limitUsd: 100,
  resetInterval: "monthly",
  enforceZdrVendorA: true,
});

export const id = team.id;
export const effectiveZdr = { a: team.enforceZdrVendorA, other: team.enforceZdrOther };
