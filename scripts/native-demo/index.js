// The demo's program in JavaScript, on the native face by type token (no generated SDK yet):
// the same guardrail as Pulumi.yaml beside it. `pulumi config set edited true` makes the edit.
const pulumi = require("@pulumi/pulumi");

const edited = new pulumi.Config().getBoolean("edited") ?? false;
const eng = new pulumi.CustomResource("guardrails:index:Guardrail", "eng", {
  name: "Engineering",
  description: "Default policy for product engineers",
  allowedModels: ["vendor-a/model-x", edited ? "vendor-c/model-q" : "vendor-b/model-m"],
  limitUsd: pulumi.secret(500),
  resetInterval: "monthly",
  enforceZdrVendorA: true,
  contentFilterBuiltins: [
    { slug: "email", action: edited ? "block" : "redact" },
    edited ? { slug: "phone", action: "redact" } : { slug: "credit-card", action: "block" },
  ],
  // Outputs a program reads must be named among the props (undefined: filled by the provider).
  guardrailId: undefined,
});
const looked = pulumi.runtime.invokeOutput("guardrails:index:getGuardrail", { id: eng.id });

exports.id = eng.id;
exports.lookedUpName = looked.apply((g) => g.name);
