/**
 * The organization's settings rules cannot be walked around by moving members or keys (issue
 * 38, the review summary's rule in the pack): each rule judges the guardrails and workspace
 * defaults of the stack, so a set re-pointed to one of them is judged by that guardrail's own
 * violations, and a set whose guardrailId names a guardrail outside the stack (whose settings
 * no rule reads) is reported by `guardrails-sets-on-checked-guardrails`, at the level of the
 * strictest settings rule enabled.
 *
 * Resources go through the policy SDK's own code (test/helpers/policy-pack.ts).
 */
import { describe, expect, it } from "vitest";
import { guardrailsPolicies } from "../../src/policy";
import { NATIVE_KEY_ASSIGNMENT_TYPE } from "../../src/core/type-tokens";
import { guardrail, memberSet, only, runPack, sdkUnknown, type Res } from "../helpers/policy-pack";

const TARGETS = "guardrails-sets-on-checked-guardrails";
const LIMIT = "guardrails-max-limit-usd";
const STRICT = "aaaaaaaa-0000-4000-8000-000000000001";
const OPEN = "bbbbbbbb-0000-4000-8000-000000000002";
const ELSEWHERE = "cccccccc-0000-4000-8000-000000000003";

const strict = guardrail("strict", { guardrailId: STRICT, limitUsd: 100, resetInterval: "daily" });
const open = guardrail("open", { guardrailId: OPEN, limitUsd: 5000, resetInterval: "monthly" });
const keySet = (name: string, guardrailId: unknown): Res => ({
  type: NATIVE_KEY_ASSIGNMENT_TYPE,
  name,
  props: { guardrailId, keyHashes: ["a1b2c3d4e5f60718"] },
});

describe("a set's guardrail must be one the settings rules check", () => {
  const pack = guardrailsPolicies({ maxLimitUsd: 1000 });

  it("a member or key set re-pointed to a guardrail outside the stack is reported, mandatory", async () => {
    const out = await runPack(pack, [strict, memberSet("team", ELSEWHERE), keySet("team-keys", ELSEWHERE)]);
    expect(only(out, TARGETS)).toEqual([
      expect.objectContaining({
        level: "mandatory",
        name: "team",
        message: expect.stringMatching(
          /^member set "team": its guardrailId names a guardrail outside this stack, so guardrails-max-limit-usd cannot check the settings its members join/,
        ),
      }),
      expect.objectContaining({
        level: "mandatory",
        name: "team-keys",
        message: expect.stringMatching(/^key set "team-keys": its guardrailId names a guardrail outside this stack/),
      }),
    ]);
  });

  it("a set re-pointed to a guardrail of the stack that breaks a rule is caught by that rule", async () => {
    const out = await runPack(pack, [strict, open, memberSet("team", OPEN)]);
    expect(only(out, TARGETS)).toEqual([]);
    expect(only(out, LIMIT)).toEqual([expect.objectContaining({ level: "mandatory", name: "open" })]);
  });

  it("a set on a guardrail of the stack, by id or by a dependency while its id is not known, passes", async () => {
    const fresh = guardrail("fresh", { limitUsd: 10, resetInterval: "daily" });
    const out = await runPack(pack, [
      strict,
      fresh,
      memberSet("a", STRICT),
      memberSet("b", sdkUnknown.string, { guardrailIdDeps: ["fresh"] }),
    ]);
    expect(only(out, TARGETS)).toEqual([]);
  });

  it("a literal id beside a guardrail whose id is not known yet is not judged on a guess", async () => {
    const fresh = guardrail("fresh", { limitUsd: 10, resetInterval: "daily" });
    expect(only(await runPack(pack, [strict, fresh, memberSet("team", ELSEWHERE)]), TARGETS)).toEqual([]);
  });

  it("an unknown guardrailId computed from something else is checked at up", async () => {
    const out = await runPack(pack, [strict, memberSet("team", sdkUnknown.string)]);
    expect(only(out, TARGETS)).toEqual([
      expect.objectContaining({ level: "advisory", message: expect.stringContaining("is checked at up") }),
    ]);
  });

  it("follows the settings rules: advisory when they all are, off when none is enabled", async () => {
    const advisory = guardrailsPolicies({ maxLimitUsd: 1000, enforcement: "advisory" });
    expect(only(await runPack(advisory, [strict, memberSet("team", ELSEWHERE)]), TARGETS)).toEqual([
      expect.objectContaining({ level: "advisory", name: "team" }),
    ]);
    const membersOnly = guardrailsPolicies({ requireMemberSet: true });
    expect(only(await runPack(membersOnly, [strict, memberSet("team", ELSEWHERE)]), TARGETS)).toEqual([]);
  });
});
