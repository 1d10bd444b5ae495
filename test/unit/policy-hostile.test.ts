/**
 * The policy pack against programs that try to slip past it (issue 24, findings 8 to 11): a
 * forbidden model in another form, a guardrail under a made-up type token, member sets that
 * point elsewhere than their dependencies say, and messages that must quote plain values but
 * never a secret one.
 *
 * Resources go through the policy SDK's own code the way its server hands them over: the
 * engine's wire form (secrets as `{sig, value}`, `__provider` present for remediations and
 * stripped for analysis, as a real run showed), the SDK's deserializer and unknown-checking proxy,
 * remediations before validations, then the stack policy.
 */
import { describe, expect, it } from "vitest";
import { guardrailsPolicies } from "../../src/policy";
import { guardrail, memberSet, only, runPack, sdkUnknown, secret, serialized, type Res } from "../helpers/policy-pack";

describe("finding 8: forbidModels refuses a forbidden model in every form the service accepts", () => {
  const pack = guardrailsPolicies({ forbidModels: ["other-lab/open-model-70b", "vendor-b/model-m-20260201"] });
  const forbid = (allowedModels: unknown) =>
    runPack(pack, [guardrail("g", { allowedModels })]).then((o) => only(o, "guardrails-forbid-models"));

  it.each([
    ["the dated canonical slug", "other-lab/open-model-70b-20250901"],
    ["another case", "Other-Lab/Open-Model-70B"],
    ["a :variant", "other-lab/open-model-70b:free"],
    ["a dated :variant", "other-lab/open-model-70b-20250901:free"],
    ["an ISO-dated form", "other-lab/open-model-70b-2025-09-01"],
    ["surrounding blanks", " other-lab/open-model-70b "],
    ["the slug of a forbidden canonical slug", "vendor-b/model-m"],
    ["another date of a forbidden canonical slug", "vendor-b/model-m-20250101"],
  ])("refuses %s", async (_, id) => {
    const out = await forbid(["vendor-a/model-x", id]);
    expect(out).toHaveLength(1);
    expect(out[0]!.level).toBe("mandatory");
    expect(out[0]!.message).toContain("forbidden");
  });

  it("passes another model of the same vendor, including one whose name extends a forbidden one", async () => {
    expect(
      await forbid(["other-lab/open-model-8b-20250901", "vendor-b/model-m-fast", "other-lab/open-model-70b-instruct"]),
    ).toEqual([]);
  });

  it("its message says what it cannot know without the catalogue", async () => {
    const [v] = await forbid(["other-lab/open-model-70b-20250901"]);
    expect(v!.message).toMatch(/dated|:variant/);
    expect(v!.message).toMatch(/catalogue/);
  });
});

describe("finding 9: a guardrail made through the package under another type token is checked", () => {
  const pack = guardrailsPolicies({ maxLimitUsd: 1000, requireMemberSet: true });

  it("a guardrail shim under a made-up token is held to the guardrail rules", async () => {
    const sneaky: Res = {
      type: "pulumi-nodejs:dynamic/mymod:Whatever",
      name: "sneaky",
      props: { name: "G sneaky", limitUsd: 999999, resetInterval: "weekly" },
      provider: await serialized("guardrail"),
    };
    const out = await runPack(pack, [sneaky]);
    expect(only(out, "guardrails-max-limit-usd")).toEqual([
      expect.objectContaining({
        level: "mandatory",
        name: "sneaky",
        message: 'guardrail "sneaky": limitUsd 999999 is over the organization\'s ceiling of 1000 USD',
      }),
    ]);
    expect(only(out, "guardrails-require-member-set")).toEqual([
      expect.objectContaining({ level: "mandatory", name: "sneaky" }),
    ]);
  });

  it("a member set shim under a made-up token counts as a member set; other dynamic resources are left alone", async () => {
    const g = guardrail("g", { limitUsd: 5 });
    const set: Res = {
      ...memberSet("s", sdkUnknown.string, { guardrailIdDeps: ["g"] }),
      type: "pulumi-nodejs:dynamic:Resource",
      provider: await serialized("memberAssignment"),
    };
    const other: Res = {
      type: "pulumi-nodejs:dynamic/x:Thing",
      name: "thing",
      props: { limitUsd: 5_000_000 },
      provider: "exports.handler = () => ({ create: async () => ({ id: 'x' }) });",
    };
    expect(await runPack(pack, [g, set, other])).toEqual([]);
  });

  it("without the provenance record (its level overridden), a dynamic resource of another token is reported, not skipped silently", async () => {
    const sneaky: Res = {
      type: "pulumi-nodejs:dynamic/mymod:Whatever",
      name: "sneaky",
      props: { name: "G sneaky", limitUsd: 999999 },
      provider: await serialized("guardrail"),
    };
    const out = await runPack(guardrailsPolicies({ maxLimitUsd: 1000 }), [sneaky], {
      "guardrails-provenance": { enforcementLevel: "advisory" },
    });
    // Each rule names it at the rule's own level (a-policy attack pass: the record's level is not the rules').
    expect(out).toEqual([
      expect.objectContaining({
        policy: "guardrails-max-limit-usd",
        level: "mandatory",
        name: "sneaky",
        message: expect.stringMatching(/cannot tell whether it is a guardrail/),
      }),
    ]);
  });
});

describe("finding 10: requireMemberSet judges a set by where its members go", () => {
  const pack = guardrailsPolicies({ requireMemberSet: true });
  const A = "aaaaaaaa-0000-4000-8000-000000000001";
  const B = "bbbbbbbb-0000-4000-8000-000000000002";
  /** A guardrail as the stack view shows it once created: its outputs, with its id. */
  const created = (name: string, id: string) => guardrail(name, { guardrailId: id, createdAt: "2026-01-01T00:00:00Z" });
  const verdicts = async (resources: Res[]) =>
    only(await runPack(pack, resources), "guardrails-require-member-set")
      .map((o) => `${o.level} ${o.message.match(/^guardrail "([^"]+)"/)?.[1] ?? o.name}`)
      .sort();

  it("a literal id of another guardrail, with dependsOn: counts for the guardrail it names, not the one it depends on", async () => {
    expect(await verdicts([created("a", A), created("b", B), memberSet("s", B, { deps: ["a"] })])).toEqual([
      "mandatory a",
    ]);
  });

  it("pulumi.all([a.id, b.id]).apply(([x]) => x): unknown at preview, checked at up; at up it counts only for the one it names", async () => {
    const atPreview = await verdicts([
      guardrail("a", {}),
      guardrail("b", {}),
      memberSet("s", sdkUnknown.string, { guardrailIdDeps: ["a", "b"] }),
    ]);
    expect(atPreview).toEqual(["advisory a"]);
    expect(
      only(
        await runPack(pack, [
          guardrail("a", {}),
          guardrail("b", {}),
          memberSet("s", sdkUnknown.string, { guardrailIdDeps: ["a", "b"] }),
        ]),
        "guardrails-require-member-set",
      )[0]!.message,
    ).toMatch(/checked at up/);
    expect(
      await verdicts([created("a", A), created("b", B), memberSet("s", A, { guardrailIdDeps: ["a", "b"] })]),
    ).toEqual(["mandatory b"]);
  });

  it("guardrailId: g.id still counts at preview (unknown, one guardrail) and at up (its value)", async () => {
    expect(await verdicts([guardrail("a", {}), memberSet("s", sdkUnknown.string, { guardrailIdDeps: ["a"] })])).toEqual(
      [],
    );
    expect(await verdicts([created("a", A), memberSet("s", A.toUpperCase(), { guardrailIdDeps: ["a"] })])).toEqual([]);
  });

  it("a set whose value names another guardrail than its one dependency counts for the one it names", async () => {
    expect(await verdicts([created("a", A), created("b", B), memberSet("s", B, { guardrailIdDeps: ["a"] })])).toEqual([
      "mandatory a",
    ]);
  });

  it("a guardrail whose state predates its recorded id: a set depending on it alone still counts; a literal id cannot be told", async () => {
    expect(
      await verdicts([
        guardrail("a", { createdAt: "2025-01-01T00:00:00Z" }),
        memberSet("s", A, { guardrailIdDeps: ["a"] }),
      ]),
    ).toEqual([]);
    expect(
      await verdicts([guardrail("a", { createdAt: "2025-01-01T00:00:00Z" }), memberSet("s", A, { deps: ["a"] })]),
    ).toEqual(["mandatory a"]);
    const [v] = only(
      await runPack(pack, [guardrail("a", { createdAt: "2025-01-01T00:00:00Z" }), memberSet("s", A, { deps: ["a"] })]),
      "guardrails-require-member-set",
    );
    expect(v!.message).toContain(
      "does not record its id, so a literal guardrailId cannot be matched to it until `pulumi refresh`",
    );
  });

  it("an unknown id that depends on no guardrail could name any: checked at up", async () => {
    expect(await verdicts([guardrail("a", {}), memberSet("s", sdkUnknown.string, { guardrailIdDeps: [] })])).toEqual([
      "advisory a",
    ]);
  });

  it("a set with unknown members still makes its guardrail checked at up", async () => {
    const set = memberSet("s", sdkUnknown.string, { guardrailIdDeps: ["a"] });
    set.props.members = sdkUnknown.object;
    expect(await verdicts([guardrail("a", {}), set])).toEqual(["advisory a"]);
  });
});

describe("finding 11: messages quote values that were not secret, never one that was", () => {
  const ALL = {
    maxLimitUsd: 1000,
    requireResetInterval: "weekly" as const,
    requireZdr: ["vendorA" as const],
    forbidModels: ["other-lab/*"],
    allowProviders: ["provider-a"],
  };
  const pack = guardrailsPolicies(ALL);
  const plain = {
    limitUsd: 5000,
    resetInterval: "monthly",
    enforceZdrVendorA: false,
    allowedModels: ["other-lab/open-model-8b"],
    allowedProviders: ["provider-a", "shady-host"],
  };

  it("plain values are quoted", async () => {
    const messages = (await runPack(pack, [guardrail("g", plain)])).map((o) => o.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'guardrail "g": limitUsd 5000 is over the organization\'s ceiling of 1000 USD',
        'guardrail "g": resetInterval "monthly" resets less often than the organization requires (daily or weekly)',
        expect.stringContaining("enforceZdrVendorA is false, not true"),
        expect.stringContaining('"other-lab/open-model-8b"'),
        expect.stringContaining('"shady-host"'),
      ]),
    );
    expect(messages.join("\n")).not.toContain("[secret]");
  });

  it("secret values are never quoted, whatever part of a list was secret", async () => {
    const secrets = {
      limitUsd: secret(987654),
      resetInterval: secret("monthly"),
      enforceZdrVendorA: secret(false),
      allowedModels: secret(["other-lab/s3cr3t-model"]),
      allowedProviders: ["provider-a", secret("s3cr3t-host")],
    };
    const out = await runPack(pack, [guardrail("g", secrets)]);
    expect(out).toHaveLength(5);
    const text = out.map((o) => o.message).join("\n");
    expect(text).not.toMatch(/987654|monthly|s3cr3t|false, not/);
    expect(text).toContain("[secret]");
  });

  it("without the provenance record, no value is quoted (it cannot be told which were secret)", async () => {
    // A fresh pack: the shared one still holds the record of the runs above.
    const out = await runPack(guardrailsPolicies(ALL), [guardrail("g", { ...plain, limitUsd: 987654 })], {
      "guardrails-provenance": { enforcementLevel: "disabled" },
    });
    expect(out.length).toBeGreaterThan(0);
    expect(out.map((o) => o.message).join("\n")).not.toMatch(/987654|monthly|shady|open-model/);
  });

  it("a quoted value is bounded and shows no control or bidi character", async () => {
    const hostile = `shady\u202Ehost\u0007${"x".repeat(500)}`;
    const [v] = only(
      await runPack(pack, [
        guardrail("g", { ...plain, allowedProviders: [hostile, ...Array.from({ length: 50 }, (_, i) => `p${i}`)] }),
      ]),
      "guardrails-allow-providers",
    );
    expect(v!.message).not.toMatch(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/);
    expect(v!.message.length).toBeLessThan(600);
    expect(v!.message).toMatch(/and \d+ more/);
  });
});
