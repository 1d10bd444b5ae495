/**
 * The declarative policy file, `guardrails/policy.yaml` beside the guardrail configs: the
 * options of `guardrailsPolicies` as YAML (or JSON), so `declareGuardrails` users keep their
 * organization's rules in Git too, and a generic pack reads them:
 *
 * ```ts
 * import { PolicyPack } from "@pulumi/policy";
 * import { policiesFromFile } from "pulumi-guardrails/policy";
 * new PolicyPack("guardrails-org-rules", { policies: policiesFromFile("../guardrails/policy.yaml") });
 * ```
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { z } from "zod";
import type { Policies } from "@pulumi/policy";
import { guardrailsPolicies } from "./factory";
import { parsePolicyOptions, policyOptionsSchema, type GuardrailsPolicyOptions } from "./options";
import { editorJsonSchema } from "../core/args/editor-schema";
import { UserError } from "../core/user-error";

/** Largest policy file read, in bytes. */
const MAX_POLICY_FILE_BYTES = 1024 * 1024;

/** Options from a policy file; throws naming the file and every bad field. */
export function loadPolicyFile(path: string): GuardrailsPolicyOptions {
  const text = readFileSync(path, "utf8");
  if (Buffer.byteLength(text) > MAX_POLICY_FILE_BYTES)
    throw new UserError(`${path}: over ${MAX_POLICY_FILE_BYTES} bytes; a policy file holds a handful of rules`);
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new UserError(`${path}: not valid YAML (${(err as Error).message.split("\n")[0]})`);
  }
  const { $schema: _schema, ...options } = (
    doc && typeof doc === "object" && !Array.isArray(doc) ? doc : { "": doc }
  ) as Record<string, unknown>;
  return parsePolicyOptions(options, path);
}

/** `guardrailsPolicies(loadPolicyFile(path))`. */
export function policiesFromFile(path: string): Policies {
  return guardrailsPolicies(loadPolicyFile(path));
}

/** The JSON Schema of the policy file, for editors (yaml-language-server). */
export function policyFileJsonSchema(): Record<string, unknown> {
  return editorJsonSchema(
    policyOptionsSchema.extend({ $schema: z.string().optional() }),
    "policy.schema.json",
    "pulumi-guardrails organization rules (policy file)",
    "Options of guardrailsPolicies: each rule is off unless given. See docs/guides/policy-packs.md.",
  );
}
