import { declareGuardrails } from "pulumi-guardrails";

// Every guardrail in guardrails/*.yaml, validated before anything is registered.
const declared = declareGuardrails("guardrails");

export const guardrailIds = Object.fromEntries(Object.entries(declared).map(([id, r]) => [id, r.guardrail.id]));
