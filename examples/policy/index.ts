import { PolicyPack, validateResourceOfType } from "@pulumi/policy";
import { Guardrail } from "pulumi-guardrails";
import { guardrailsPolicies } from "pulumi-guardrails/policy";

new PolicyPack("guardrails-org-rules", {
  policies: [
    // The ready rules. Each is mandatory here; `levels` sets one rule apart, and a pack config
    // (`--policy-pack-config`) overrides both a rule's level and its value.
    ...guardrailsPolicies({
      maxLimitUsd: 1000,
      requireResetInterval: "weekly", // a limit that resets daily or weekly
      requireZdr: ["vendorA", "vendorB"],
      requireBuiltinFilters: ["email", "ssn"],
      forbidModels: ["other-lab/*"],
      allowProviders: ["provider-a", "provider-b"],
      requireMemberSet: true,
      enforcement: "mandatory",
      levels: {},
    }),
    // A rule of your own: Guardrail carries its type token, so validateResourceOfType matches.
    {
      name: "guardrails-description",
      description: "Each guardrail says what it is for.",
      enforcementLevel: "advisory",
      validateResource: validateResourceOfType(Guardrail, (guardrail, args, reportViolation) => {
        if (!guardrail.description) reportViolation(`guardrail ${JSON.stringify(args.name)} has no description`);
      }),
    },
  ],
});
