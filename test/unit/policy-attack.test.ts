/**
 * An attack pass on the policy pack (issue 24, findings 8 to 11): programs and pack configs
 * that try to get a guardrail past a mandatory rule, to make a message leak a secret, or to
 * crash the pack into a pass. Each `it` is one attempt; those that broke the pack before its
 * fix say so in their name ("broke:").
 *
 * Resources go through the policy SDK's own code (test/helpers/policy-pack.ts). Whether the
 * service would take an identifier at all is asked of the emulator's catalogue, which shares no
 * code with the pack.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { guardrailsPolicies, KEY_ASSIGNMENT_TYPE, MEMBER_ASSIGNMENT_TYPE } from "../../src/policy";
import { catalogueIndex } from "../../emulator/catalogue";
import { DEFAULT_MODELS } from "../../emulator";
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

const FORBID = "guardrails-forbid-models";
const MEMBERS = "guardrails-require-member-set";
const A = "aaaaaaaa-0000-4000-8000-000000000001";
const B = "bbbbbbbb-0000-4000-8000-000000000002";
/** A guardrail as the stack view shows it once created: its outputs, with its id. */
const created = (name: string, id: string, props: Record<string, unknown> = {}) =>
  guardrail(name, { guardrailId: id, createdAt: "2026-01-01T00:00:00Z", ...props });
const sneaky = async (name: string, props: Record<string, unknown>): Promise<Res> => ({
  type: "pulumi-nodejs:dynamic/mymod:Whatever",
  name,
  props: { name: `G ${name}`, ...props },
  provider: await serialized("guardrail"),
});

describe("forbidModels: model identifier forms", () => {
  const pack = guardrailsPolicies({ forbidModels: ["other-lab/open-model-70b", "vendor-b/*"] });
  const forbid = (props: Record<string, unknown>) =>
    runPack(pack, [guardrail("g", props)]).then((o) => only(o, FORBID));

  it.each([
    ["a :nitro variant", "other-lab/open-model-70b:nitro"],
    ["a :free variant of a dated form in upper case", "OTHER-LAB/OPEN-MODEL-70B-20250901:FREE"],
    ["a six-digit date", "other-lab/open-model-70b-250901"],
    ["a four-digit date", "other-lab/open-model-70b-0901"],
    ["tabs and a newline around it", "\tother-lab/open-model-70b\n"],
    ["a nested path under a forbidden vendor", "vendor-b/sub/model-m"],
    ["a forbidden vendor in another case", "Vendor-B/model-m-fast"],
  ])("refuses %s", async (_, id) => {
    expect(await forbid({ allowedModels: ["vendor-a/model-x", id] })).toEqual([
      expect.objectContaining({ level: "mandatory" }),
    ]);
  });

  it("forms the service does not accept at all cannot smuggle a model in: confusables, full-width slash, %2F, trailing dot, blanks inside, ~ prefix, openrouter/auto", () => {
    const index = catalogueIndex(DEFAULT_MODELS);
    const forms = [
      "other-lab/\u043epen-model-70b",
      "other-lab\uff0fopen-model-70b",
      "other-lab%2Fopen-model-70b",
      "other-lab/open-model-70b.",
      "other-lab/ open-model-70b",
      "other-lab/open-model-70b\u200b",
      "~other-lab/open-model-70b",
      "openrouter/auto",
    ];
    // A request naming any of them is a 400 (docs/api-contract.md rule 4), so no guardrail holds it.
    for (const f of forms) expect(index.has(f), f).toBe(false);
    expect(index.get("other-lab/open-model-70b")).toBe("other-lab/open-model-70b-20250901");
  });

  it("a forbidden model in allowedModels is refused even when ignoredModels lists it too", async () => {
    expect(
      await forbid({ allowedModels: ["other-lab/open-model-70b"], ignoredModels: ["other-lab/open-model-70b"] }),
    ).toHaveLength(1);
  });

  it("another vendor whose name starts like a forbidden one passes (vendor-b/* is not vendor-bb/*)", async () => {
    expect(await forbid({ allowedModels: ["vendor-bb/model-z", "vendor-a/model-x"] })).toEqual([]);
  });

  it("broke: without allowedModels, ignoring the forbidden slug leaves its :variants and other snapshots allowed", async () => {
    // The rule counts `x:free` and `x-20250101` as x when they are in allowedModels; the service
    // ignores only the catalogue entry ignoredModels names, so with every model allowed they stay usable.
    const out = await runPack(guardrailsPolicies({ forbidModels: ["other-lab/open-model-70b"] }), [
      guardrail("g", { ignoredModels: ["other-lab/open-model-70b"] }),
    ]);
    expect(only(out, FORBID)).toEqual([
      expect.objectContaining({ level: "mandatory", message: expect.stringMatching(/allowedModels/) }),
    ]);
    expect(only(out, FORBID)[0]!.message).toMatch(/:variant/);
  });

  it("an allowedModels of the wrong shape is not a pass the pack vouches for: check refuses it first", async () => {
    // CrossGuard runs after the provider's check; a string where a list belongs never deploys.
    const { guardrailLifecycle } = await import("../../src/core/guardrail/lifecycle");
    const { processConfig } = await import("../../src/core/settings/config");
    const res = await guardrailLifecycle(processConfig).check({}, {
      name: "g",
      allowedModels: "other-lab/open-model-70b",
    } as never);
    expect(res.failures?.map((f) => f.property)).toContain("allowedModels");
  });
});

describe("provenance: which resources are guardrails", () => {
  // A pack per run, as a run of the engine has: its records start empty.
  let pack = guardrailsPolicies({ maxLimitUsd: 1000, requireMemberSet: true });
  beforeEach(() => {
    pack = guardrailsPolicies({ maxLimitUsd: 1000, requireMemberSet: true });
  });
  const limit = (out: Awaited<ReturnType<typeof runPack>>) => only(out, "guardrails-max-limit-usd");

  it("a secret __provider still names the kind", async () => {
    const s = await sneaky("s", { limitUsd: 999999 });
    const out = await runPack(pack, [{ ...s, provider: secret(s.provider) as never }]);
    expect(limit(out)).toEqual([expect.objectContaining({ level: "mandatory", name: "s" })]);
  });

  it("a provider that mentions the package but is not one of its shims is held to the guardrail rules (strictest reading)", async () => {
    const fake: Res = {
      type: "pulumi-nodejs:dynamic/x:Thing",
      name: "fake",
      props: { limitUsd: 5_000_000 },
      provider: "// built like pulumi-guardrails\nexports.handler = () => ({});",
    };
    expect(limit(await runPack(pack, [fake]))).toEqual([expect.objectContaining({ level: "mandatory", name: "fake" })]);
  });

  it("a guardrail shim under the member set's own type token is still a guardrail, and does not count as a set", async () => {
    const g: Res = {
      ...(await sneaky("g", { limitUsd: 999999, guardrailId: A, members: { user_a: true } })),
      type: MEMBER_ASSIGNMENT_TYPE,
    };
    const out = await runPack(pack, [g]);
    expect(limit(out)).toHaveLength(1);
    expect(only(out, MEMBERS)).toEqual([expect.objectContaining({ level: "mandatory", name: "g" })]);
  });

  it("a key assignment shim under the member set's type token does not count as a member set", async () => {
    const keys: Res = {
      ...memberSet("s", A),
      type: MEMBER_ASSIGNMENT_TYPE,
      provider: await serialized("keyAssignment"),
    };
    expect(only(await runPack(pack, [created("a", A, { limitUsd: 5 }), keys]), MEMBERS)).toEqual([
      expect.objectContaining({ name: "a" }),
    ]);
  });

  it("pack config {all: mandatory}: the record is off, and a sneaky guardrail fails the preview", async () => {
    const out = await runPack(pack, [await sneaky("s", { limitUsd: 999999 })], allAt(pack, "mandatory"));
    expect(out.filter((o) => o.level === "mandatory" && o.name === "s").length).toBeGreaterThan(0);
  });

  it("broke: the README's own pack config (all advisory, one rule mandatory) let a sneaky guardrail over the ceiling through with a warning", async () => {
    const config = allAt(pack, "advisory", { "guardrails-max-limit-usd": { enforcementLevel: "mandatory" } });
    const out = await runPack(pack, [await sneaky("s", { limitUsd: 999999 })], config);
    expect(limit(out)).toEqual([
      expect.objectContaining({
        level: "mandatory",
        name: "s",
        message: expect.stringMatching(/cannot tell whether it is a guardrail.*guardrails-provenance/),
      }),
    ]);
  });

  it("broke: guardrails-provenance disabled by pack config let a sneaky guardrail pass in silence", async () => {
    const out = await runPack(pack, [await sneaky("s", { limitUsd: 999999 })], {
      "guardrails-provenance": { enforcementLevel: "disabled" },
    });
    expect(limit(out)).toEqual([expect.objectContaining({ level: "mandatory", name: "s" })]);
    expect(only(out, MEMBERS)).toEqual([
      expect.objectContaining({ level: "mandatory", name: "s", message: expect.stringMatching(/cannot tell/) }),
    ]);
  });

  // Left open: a hand-written provider that hides what it loads (the package's name built at run
  // time) under a made-up token is told from any other dynamic resource by nothing a policy sees;
  // such a provider could as well call the API itself. README "Matching is by provider" says so.
  it.fails("left open: a provider that builds the package's name at run time is not recognised", async () => {
    const hidden: Res = {
      type: "pulumi-nodejs:dynamic/mymod:Whatever",
      name: "h",
      props: { name: "G h", limitUsd: 999999 },
      provider: 'exports.handler = () => require("pulumi-" + "guard" + "rails/internal")["guard" + "rail"];',
    };
    expect(limit(await runPack(pack, [hidden]))).toHaveLength(1);
  });

  it("the package's own tokens need no record: a Guardrail is checked with the record off", async () => {
    const out = await runPack(pack, [guardrail("g", { limitUsd: 999999 })], {
      "guardrails-provenance": { enforcementLevel: "disabled" },
    });
    expect(limit(out)).toEqual([
      expect.objectContaining({
        level: "mandatory",
        message: 'guardrail "g": limitUsd [hidden] is over the organization\'s ceiling of 1000 USD',
      }),
    ]);
  });
});

describe("requireMemberSet: sets that do not put a member on the guardrail", () => {
  const pack = guardrailsPolicies({ requireMemberSet: true });
  const verdicts = async (resources: Res[]) =>
    only(await runPack(pack, resources), MEMBERS)
      .map((o) => `${o.level} ${o.name}`)
      .sort();

  it("a literal id with blanks and in upper case still counts for the guardrail it names", async () => {
    expect(await verdicts([created("a", A), memberSet("s", ` ${A.toUpperCase()} `)])).toEqual([]);
  });

  it("a set with an empty member list, or only members set to something else than true, counts for nothing", async () => {
    const empty = memberSet("s", A);
    empty.props.members = {};
    const moved = memberSet("t", A);
    moved.props.members = { user_alice: "moved to guardrail G other" };
    expect(await verdicts([created("a", A), empty, moved])).toEqual(["mandatory a"]);
  });

  it("a set naming a guardrail of another stack does not count for this one", async () => {
    expect(await verdicts([created("a", A), memberSet("s", B, { deps: ["a"] })])).toEqual(["mandatory a"]);
  });

  it("a key assignment for the guardrail is not a member set", async () => {
    const keys: Res = {
      type: KEY_ASSIGNMENT_TYPE,
      name: "k",
      props: { guardrailId: A, exclusive: false, keys: { hash1: true } },
    };
    expect(await verdicts([created("a", A), keys])).toEqual(["mandatory a"]);
  });

  it("broke: an exclusive set with no members beside a set with members passed, though it removes every member at each up", async () => {
    const wipe = memberSet("wipe", A);
    wipe.props = { guardrailId: A, exclusive: true, members: {} };
    const out = only(await runPack(pack, [created("a", A), memberSet("s", A), wipe]), MEMBERS);
    expect(out).toEqual([
      expect.objectContaining({
        level: "mandatory",
        name: "a",
        message: expect.stringMatching(/exclusive.*no members/),
      }),
    ]);
  });

  it("broke: a member also listed for a guardrail of another stack (a literal id) counted, though the service moves it there", async () => {
    // A member holds one guardrail per workspace (docs/api-contract.md rule 5); the provider's own
    // conflict check sees only guardrails the program constructed.
    const out = only(await runPack(pack, [created("a", A), memberSet("s", A), memberSet("elsewhere", B)]), MEMBERS);
    expect(out).toEqual([
      expect.objectContaining({
        level: "mandatory",
        name: "a",
        message: expect.stringMatching(/"elsewhere".*one guardrail per workspace/),
      }),
    ]);
  });

  it("broke: two guardrails of the default workspace sharing their only member both passed", async () => {
    expect(await verdicts([created("a", A), created("b", B), memberSet("s", A), memberSet("t", B)])).toEqual([
      "mandatory a",
      "mandatory b",
    ]);
  });

  it("the same member for guardrails of two known, different workspaces, or twice for one guardrail, still counts", async () => {
    const W1 = "11111111-0000-4000-8000-000000000001";
    const W2 = "22222222-0000-4000-8000-000000000002";
    expect(
      await verdicts([
        created("a", A, { workspaceId: W1 }),
        created("b", B, { workspaceId: W2.toUpperCase() }),
        memberSet("s", A),
        memberSet("t", B),
        memberSet("u", A),
      ]),
    ).toEqual([]);
  });

  it("an exclusive set whose only member another guardrail also lists is named for the shared member, not as empty", async () => {
    const own = memberSet("own", A);
    own.props.exclusive = true;
    const [v] = only(await runPack(pack, [created("a", A), own, memberSet("other", B)]), MEMBERS);
    expect(v!.message).toMatch(/only in common with member set "other"/);
  });

  it("an exclusive set with members beside other sets still counts", async () => {
    const own = memberSet("own", A);
    own.props.exclusive = true;
    expect(await verdicts([created("a", A), memberSet("s", A), own])).toEqual([]);
  });
});

describe("messages: no secret, no hostile text", () => {
  const OPTIONS = { maxLimitUsd: 1000, allowProviders: ["provider-a"], forbidModels: ["other-lab/*"] };
  const pack = guardrailsPolicies(OPTIONS);
  // A pack per run, as a run of the engine has: its record of secret inputs starts empty.
  const messages = async (resources: Res[], config?: (p: typeof pack) => Record<string, Record<string, unknown>>) => {
    const fresh = guardrailsPolicies(OPTIONS);
    return (await runPack(fresh, resources, config?.(fresh))).map((o) => o.message).join("\n");
  };

  it("a secret nested in a list item, and a wholly secret list, are never quoted", async () => {
    const text = await messages([
      guardrail("g", {
        limitUsd: 5000,
        allowedProviders: [secret("s3cr3t-host")],
        allowedModels: secret(["other-lab/s3cr3t-model"]),
      }),
    ]);
    expect(text).not.toMatch(/s3cr3t/);
    expect(text).toContain("[secret]");
  });

  it("pack config {all: advisory}: nothing is quoted, since it cannot be told what was secret", async () => {
    const text = await messages([guardrail("g", { limitUsd: 987654, allowedProviders: ["s3cr3t-host"] })], (p) =>
      allAt(p, "advisory"),
    );
    expect(text).toContain("[hidden]");
    expect(text).not.toMatch(/987654|s3cr3t/);
  });

  it("broke: an API key pasted into allowedProviders, not marked secret, was quoted", async () => {
    const key = `sk-or-v1-${"0123456789abcdef".repeat(4)}`;
    const text = await messages([guardrail("g", { limitUsd: 5, allowedProviders: ["provider-a", key] })]);
    expect(text).toMatch(/allowedProviders has 1 provider/);
    expect(text).not.toContain(key.slice(0, 16));
  });

  it("broke: a resource name with bidi controls, a newline and 5000 characters was written raw", async () => {
    const name = `eng\u202Eevil\u2066\nforged line${"x".repeat(5000)}`;
    const text = await messages(
      [guardrail(name, { limitUsd: 5000 }), await sneaky(`s\u202E`, { limitUsd: 1 })],
      () => ({ "guardrails-provenance": { enforcementLevel: "disabled" } }),
    );
    const lines = text.split("\n");
    expect(lines).toHaveLength(6); // one message per rule and resource, none split by the name's newline
    for (const line of lines) expect(line).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    for (const line of lines) expect(line.length).toBeLessThan(500);
  });

  it("broke: tag characters and other invisible code points in a quoted value were written raw", async () => {
    // U+E0041.. are the invisible "tag" letters used to smuggle text; U+3164 and U+FE0F render as nothing.
    const hidden = "provider-b\u{E0049}\u{E0047}\u{E004E}\u3164\uFE0F";
    const text = await messages([guardrail("g", { limitUsd: 5, allowedProviders: [hidden] })]);
    expect(text).toContain("provider-b");
    expect(text).not.toMatch(/[\u{E0000}-\u{E007F}\u3164]|\uFE0F/u);
  });

  it("broke: an item not known at preview was reported as a provider outside the list, quoting the engine's placeholder", async () => {
    const out = only(
      await runPack(pack, [guardrail("g", { limitUsd: 5, allowedProviders: ["provider-a", sdkUnknown.string] })]),
      "guardrails-allow-providers",
    );
    expect(out).toEqual([
      expect.objectContaining({ level: "advisory", message: expect.stringMatching(/checked at up/) }),
    ]);
  });
});

describe("crashing the pack into a pass", () => {
  const pack = guardrailsPolicies({
    maxLimitUsd: 1000,
    forbidModels: ["other-lab/*"],
    allowProviders: ["provider-a"],
    requireMemberSet: true,
  });

  it("props of surprising shapes fail the rules, never throw them away", async () => {
    const odd = created("odd", A, {
      limitUsd: "999999",
      allowedModels: [null, 7, "other-lab/open-model-70b"],
      allowedProviders: [{}, "provider-z"],
    });
    const out = await runPack(pack, [odd, memberSet("s", { not: "an id" })]);
    expect(out.map((o) => `${o.level} ${o.policy}`).sort()).toEqual([
      "mandatory guardrails-allow-providers",
      "mandatory guardrails-forbid-models",
      "mandatory guardrails-max-limit-usd",
      "mandatory guardrails-require-member-set",
      // A guardrailId that is not an id names no guardrail the rules check (issue 38).
      "mandatory guardrails-sets-on-checked-guardrails",
    ]);
  });

  it("a bad value in the pack config throws (the engine fails the run) rather than switching the rule off", async () => {
    await expect(
      runPack(pack, [guardrail("g", { limitUsd: 5 })], { "guardrails-max-limit-usd": { maxLimitUsd: -1 } }),
    ).rejects.toThrow(/maxLimitUsd must be >= 0/);
  });
});
