/**
 * Which file is the organization's policy file (`guardrails/policy.yaml`): the loader skips it
 * and the export never names a guardrail after it, so a near miss must stay a guardrail config.
 */
import { describe, expect, it } from "vitest";
import { isPolicyFile } from "../../src/declarative/file-name";

describe("isPolicyFile", () => {
  it.each(["policy.yaml", "policy.yml", "policy.json", "POLICY.YAML", "Policy.Json", "guardrails/policy.yaml"])(
    "%s is the policy file",
    (path) => expect(isPolicyFile(path)).toBe(true),
  );

  it.each([
    "my-policy.yaml",
    "policy.yaml.bak",
    "policy.yaaml",
    "policy.txt",
    "policyxyaml",
    "policy.",
    "policy",
    "engineering.yaml",
    "policy.yaml/eng.yaml",
  ])("%s is not", (path) => expect(isPolicyFile(path)).toBe(false));
});
