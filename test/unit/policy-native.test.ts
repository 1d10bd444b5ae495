/**
 * The policy pack over the native face (issue 26): `guardrails:index:Guardrail` and its sets
 * are held to every rule exactly as the dynamic face's resources are, alone or mixed with
 * dynamic ones in one stack, and a look-alike token of another package is not. Native inputs
 * are the program's args (`memberUserIds`, not the dynamic class's `members` map), with no
 * `__provider`: a `__provider` that a program passes to a native resource (its Check strips
 * it) must not make a guardrail pass for something else.
 *
 * Resources go through the policy SDK's own code (test/helpers/policy-pack.ts).
 */
import { describe, expect, it } from "vitest";
import { guardrailsPolicies } from "../../src/policy";
import {
  NATIVE_GUARDRAIL_TYPE,
  NATIVE_KEY_ASSIGNMENT_TYPE,
  NATIVE_MEMBER_ASSIGNMENT_TYPE,
} from "../../src/core/type-tokens";
import {
  allAt,
  guardrail,
  memberSet,
  only,
  runPack,
  sdkUnknown,
  secret,
  serialized,
  type Res,
} from "../helpers/policy-pack";

const LIMIT = "guardrails-max-limit-usd";
const MEMBERS = "guardrails-require-member-set";
const A = "aaaaaaaa-0000-4000-8000-000000000001";
const B = "bbbbbbbb-0000-4000-8000-000000000002";

const nativeGuardrail = (name: string, props: Record<string, unknown>, extra: Partial<Res> = {}): Res => ({
  ...guardrail(name, props, extra),
  type: NATIVE_GUARDRAIL_TYPE,
});
/** A native member set as the engine holds its inputs: the program's `memberUserIds` list. */
const nativeMembers = (name: string, guardrailId: unknown, ids: unknown, extra: Partial<Res> = {}): Res => ({
  type: NATIVE_MEMBER_ASSIGNMENT_TYPE,
  name,
  props: { guardrailId, memberUserIds: ids },
  ...extra,
});
const every = {
  maxLimitUsd: 1000,
  requireResetInterval: "weekly" as const,
  requireZdr: ["vendorA" as const],
  requireBuiltinFilters: ["email" as const],
  forbidModels: ["vendor-b/*"],
  allowProviders: ["provider-a"],
  requireMemberSet: true,
};
const breaksAll = { limitUsd: 5000, resetInterval: "monthly", allowedModels: ["vendor-b/model-m"] };

describe("guardrail rules on the native face", () => {
  it("a native guardrail that breaks every rule fails each, mandatory, as a dynamic one does", async () => {
    const pack = guardrailsPolicies(every);
    const keys = (o: Awaited<ReturnType<typeof runPack>>) => o.map((x) => `${x.level} ${x.policy}`).sort();
    const native = await runPack(pack, [nativeGuardrail("g", breaksAll)]);
    const dynamic = await runPack(pack, [guardrail("g", breaksAll)]);
    expect(keys(native)).toHaveLength(7);
    expect(keys(native)).toEqual(keys(dynamic));
    expect(native.map((o) => o.message).sort()).toEqual(dynamic.map((o) => o.message).sort());
  });

  it("a compliant native guardrail with a native member set passes every rule", async () => {
    const ok = {
      limitUsd: 500,
      resetInterval: "daily",
      enforceZdrVendorA: true,
      contentFilterBuiltins: [{ slug: "email", action: "redact" }],
      allowedModels: ["vendor-a/model-x"],
      allowedProviders: ["provider-a"],
    };
    const out = await runPack(guardrailsPolicies(every), [
      nativeGuardrail("g", ok),
      nativeMembers("g-members", sdkUnknown.string, ["user_alice"], { guardrailIdDeps: ["g"] }),
    ]);
    expect(out).toEqual([]);
  });

  it("a secret native input is never quoted (the engine's secret, not __secretArgs)", async () => {
    const out = await runPack(guardrailsPolicies({ maxLimitUsd: 10 }), [
      nativeGuardrail("g", { limitUsd: secret(987654) }),
    ]);
    expect(out).toEqual([expect.objectContaining({ level: "mandatory", policy: LIMIT })]);
    expect(out[0]!.message).toContain("limitUsd [secret] is over");
    expect(JSON.stringify(out)).not.toContain("987654");
  });

  it("a __provider a program passes to a native guardrail does not make it a set: the token decides", async () => {
    const out = await runPack(guardrailsPolicies({ maxLimitUsd: 10 }), [
      nativeGuardrail("g", { limitUsd: 5000 }, { provider: await serialized("memberAssignment") }),
    ]);
    expect(only(out, LIMIT)).toEqual([expect.objectContaining({ level: "mandatory", name: "g" })]);
  });

  it("with the provenance record off, a native guardrail is still placed by its token, not named as unplaced", async () => {
    const pack = guardrailsPolicies({ maxLimitUsd: 10 });
    const out = await runPack(pack, [nativeGuardrail("g", { limitUsd: 5000 })], allAt(pack, "advisory"));
    expect(out).toEqual([
      expect.objectContaining({ level: "advisory", message: expect.stringContaining("limitUsd [hidden] is over") }),
    ]);
  });

  it.each([
    ["another package's Guardrail", "x:index:Guardrail", 0],
    ["a package whose name only starts with ours", "guardrailsx:index:Guardrail", 0],
    ["our package under another module", "guardrails:guardrail:Guardrail", 1],
    ["our package's provider", "pulumi:providers:guardrails", 0],
  ])("%s (%s): held to the rules %i time(s)", async (_, type, n) => {
    const out = await runPack(guardrailsPolicies({ maxLimitUsd: 10 }), [
      { ...guardrail("g", { limitUsd: 5000 }), type },
    ]);
    expect(out).toHaveLength(n);
  });
});

describe("requireMemberSet on the native face and on a mix of faces", () => {
  const pack = guardrailsPolicies({ requireMemberSet: true });
  const run = (resources: Res[]) => runPack(pack, resources).then((o) => only(o, MEMBERS));

  it("a native guardrail without a set fails; with a native set of members (by id or by dependency) it passes", async () => {
    expect(await run([nativeGuardrail("g", {})])).toEqual([
      expect.objectContaining({ level: "mandatory", name: "g", message: expect.stringContaining("has no Guardr") }),
    ]);
    expect(await run([nativeGuardrail("g", { guardrailId: A }), nativeMembers("m", A, ["user_alice"])])).toEqual([]);
    expect(
      await run([
        nativeGuardrail("g", {}),
        nativeMembers("m", sdkUnknown.string, ["user_a"], { guardrailIdDeps: ["g"] }),
      ]),
    ).toEqual([]);
  });

  it("a native set with no member ids fails; a secret list still counts its members", async () => {
    expect(await run([nativeGuardrail("g", { guardrailId: A }), nativeMembers("m", A, [])])).toEqual([
      expect.objectContaining({ name: "g", message: expect.stringContaining("with no members") }),
    ]);
    expect(await run([nativeGuardrail("g", { guardrailId: A }), nativeMembers("m", A, secret(["user_a"]))])).toEqual(
      [],
    );
  });

  it("a key set is not a member set, on either face", async () => {
    const keys: Res = { type: NATIVE_KEY_ASSIGNMENT_TYPE, name: "k", props: { guardrailId: A, keyHashes: ["h1"] } };
    expect(await run([nativeGuardrail("g", { guardrailId: A }), keys])).toHaveLength(1);
  });

  it("mixed faces: a dynamic set counts for a native guardrail, a native set for a dynamic one", async () => {
    expect(await run([nativeGuardrail("g", { guardrailId: A }), memberSet("m", A)])).toEqual([]);
    expect(await run([guardrail("g", { guardrailId: A }), nativeMembers("m", A, ["user_a"])])).toEqual([]);
  });

  it("mixed faces: a member listed by sets of two guardrails of one workspace, one per face, counts for neither", async () => {
    const out = await run([
      nativeGuardrail("a", { guardrailId: A, workspaceId: "ws" }),
      guardrail("b", { guardrailId: B, workspaceId: "ws" }),
      nativeMembers("am", A, ["user_x"]),
      memberSet("bm", B, { props: { guardrailId: B, exclusive: false, members: { user_x: true } } }),
    ]);
    expect(out.map((o) => o.name).sort()).toEqual(["a", "b"]);
  });

  it("an exclusive native set with no members fails its guardrail even beside another set with members", async () => {
    const out = await run([
      nativeGuardrail("g", { guardrailId: A }),
      nativeMembers("m", A, ["user_a"]),
      { ...nativeMembers("wipe", A, []), props: { guardrailId: A, memberUserIds: [], exclusive: true } },
    ]);
    expect(out).toEqual([expect.objectContaining({ name: "g", message: expect.stringContaining("exclusive") })]);
  });
});

describe("requireMemberSet: a native set whose ids are not known yet", () => {
  it("is checked at up, naming memberUserIds' unknown", async () => {
    const out = await runPack(guardrailsPolicies({ requireMemberSet: true }), [
      nativeGuardrail("g", { guardrailId: A }),
      nativeMembers("m", A, sdkUnknown.string),
    ]);
    expect(out).toEqual([
      expect.objectContaining({
        level: "advisory",
        message: expect.stringMatching(/^guardrail "g": members of its member set is not known .* checked at up$/),
      }),
    ]);
  });
});
