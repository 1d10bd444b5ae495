import { Guardrail, GuardrailKeyAssignment } from "pulumi-guardrails";

const ci = new Guardrail("ci", { name: "CI keys", limitUsd: 20, resetInterval: "daily" });

// A key holds one guardrail at all: assigning it here moves it off any other.
const keys = new GuardrailKeyAssignment("ci-keys", {
  guardrailId: ci.id,
  keyHashes: ["c3d4e5f60718293a"],
  exclusive: true,
});

export const assigned = keys.keyHashes;
