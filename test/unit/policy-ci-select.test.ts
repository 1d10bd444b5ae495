/** A pull request that changes guardrails/policy.yaml cannot have its own rules relaxed in the data-only preview. */
import { describe, expect, it } from "vitest";
import { selectFiles, type Change } from "../../tools/ci/select";

const mod = (path: string): Change => ({ status: "M", path, newMode: "100644", newBlob: "a".repeat(40) });

describe("selectFiles and the policy file", () => {
  it.each(["guardrails/policy.yaml", "guardrails/policy.yml", "guardrails/POLICY.json"])(
    "%s is never taken as data: code mode, the key is not used",
    (path) => {
      const s = selectFiles([mod("guardrails/eng.yaml"), mod(path)], { dataDir: "guardrails" });
      expect(s).toMatchObject({ mode: "code", exposeKey: false, take: [], remove: [] });
      expect(s.blockers).toEqual([{ path, reason: "is the organization's policy file (rules, not data)" }]);
    },
  );

  it("a guardrail file merely named like a policy is still data", () => {
    expect(selectFiles([mod("guardrails/policy-team.yaml")], { dataDir: "guardrails" })).toMatchObject({
      mode: "data",
      exposeKey: true,
    });
  });
});
