/**
 * Three guardrails that use every kind of setting, plus member and key sets. Run it against
 * the emulator with `npm run demo` from the repository root.
 */
import { Guardrail, GuardrailKeyAssignment, GuardrailMemberAssignment } from "pulumi-guardrails";

// The emulator's second demo workspace; omit workspaceId for the default one.
const researchWorkspace = "00000000-0000-4000-8000-000000000002";

const engineering = new Guardrail("engineering", {
  name: "Engineering",
  description: "Default policy for product engineers",
  // Slugs or canonical slugs: the service stores canonical ones; order and repeats never cause a diff.
  allowedModels: ["vendor-a/model-x", "vendor-b/model-m", "vendor-c/model-q"],
  allowedProviders: ["provider-east", "provider-west"],
  limitUsd: 500,
  resetInterval: "monthly",
  enforceZdrVendorA: true,
  enforceZdrVendorB: true,
  enforceZdrVendorC: false,
  enforceZdrOther: true,
  contentFilterBuiltins: [
    { slug: "email", action: "redact" },
    { slug: "credit-card", action: "block" },
    { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" },
  ],
  contentFilters: [{ pattern: "INC-\\d{6}", action: "redact", label: "[INCIDENT]" }],
});

const support = new Guardrail("support", {
  name: "Support",
  description: "Customer support: no personal data leaves",
  ignoredModels: ["other-lab/open-model-8b"],
  ignoredProviders: ["provider-west"],
  limitUsd: 50.5,
  resetInterval: "weekly",
  enforceZdr: true, // deprecated form: fills every per-vendor flag not given
  contentFilterBuiltins: [
    { slug: "phone", action: "redact" },
    { slug: "ssn", action: "block" },
    { slug: "person-name", action: "redact" },
    { slug: "address", action: "redact" },
  ],
});

const research = new Guardrail("research", {
  name: "Research",
  workspaceId: researchWorkspace,
  allowedModels: ["vendor-a/model-y", "other-lab/open-model-70b"],
  limitUsd: 2000,
  resetInterval: "daily",
  contentFilterBuiltins: [{ slug: "ip-address", action: "block" }],
});

// Exclusive: this program owns Engineering's whole member set.
new GuardrailMemberAssignment("engineering-members", {
  guardrailId: engineering.id,
  memberUserIds: ["user_alice", "user_bob", "user_carol"],
  exclusive: true,
});

// Additive (the default): manages these two, leaves anyone else on Support alone.
new GuardrailMemberAssignment("support-members", {
  guardrailId: support.id,
  memberUserIds: ["user_dave", "user_erin"],
});

// A member holds one guardrail per workspace, so Research (another workspace) can share Alice.
new GuardrailMemberAssignment("research-members", {
  guardrailId: research.id,
  memberUserIds: ["user_alice", "user_frank"],
});

new GuardrailKeyAssignment("engineering-keys", {
  guardrailId: engineering.id,
  keyHashes: ["a1b2c3d4e5f60718", "b2c3d4e5f6071829"],
});

export const guardrailIds = { engineering: engineering.id, support: support.id, research: research.id };
export const engineeringModels = engineering.allowedModels;
