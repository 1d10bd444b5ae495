/**
 * The objects Pulumi serializes into state as each resource's dynamic provider. Each method
 * loads the implementation of the installed package at call time, so the serialized text is
 * a few hundred bytes and captures no schema, no HTTP agent and no secret
 * (pulumi/pulumi issues 5294, 13960, 18997).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { InternalName } from "../core/kinds";

/** A provider whose methods forward to `require("pulumi-guardrails/internal")[kind]`. */
export function shimFor(kind: InternalName): pulumi.dynamic.ResourceProvider {
  return {
    async configure(req) {
      require("pulumi-guardrails/internal").configure((k: string) => req.config.get(k));
    },
    check: (olds, news) => require("pulumi-guardrails/internal")[kind].check(olds, news),
    diff: (id, olds, news) => require("pulumi-guardrails/internal")[kind].diff(id, olds, news),
    create: (inputs) => require("pulumi-guardrails/internal")[kind].create(inputs),
    read: (id, props) => require("pulumi-guardrails/internal")[kind].read(id, props),
    update: (id, olds, news) => require("pulumi-guardrails/internal")[kind].update(id, olds, news),
    delete: (id, props) => require("pulumi-guardrails/internal")[kind].delete(id, props),
  };
}
