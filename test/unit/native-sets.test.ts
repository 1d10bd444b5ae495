import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { describe, expect, it, vi } from "vitest";
import { KEY_KIND, MEMBER_KIND } from "../../src/core/assignments/kind";
import { importedGuardrail } from "../../src/core/assignments/read";
import { FOREIGN } from "../../src/core/assignments/status";
import { diffResponse } from "../../src/native/diff";
import { wireFailure } from "../../src/native/resources";
import { DeploymentClaims } from "../../src/native/set-claims";
import { againstOutputs, nativeSetLifecycle } from "../../src/native/sets";
import { processConfig } from "../../src/core/settings/config";

const G1 = "3f2b8c1e-0000-4000-8000-000000000001";
const G2 = "3f2b8c1e-0000-4000-8000-000000000002";
const urn = (name: string, type = "GuardrailMemberAssignment") =>
  `urn:pulumi:dev::p::guardrails:index:${type}::${name}`;
const SIG = "4dabf18193072939515e22adb298388d";
const members = nativeSetLifecycle(MEMBER_KIND, processConfig);

describe("native sets: check", () => {
  it("names every failure by its path, each bad id by its index", async () => {
    const r = await members.check(
      {},
      { guardrailId: "nope", memberUserIds: ["ok", "", 5], extra: 1, __resource: urn("a") },
    );
    expect(r.failures.map((f) => f.property).sort()).toEqual([
      "extra",
      "guardrailId",
      "memberUserIds[1]",
      "memberUserIds[2]",
    ]);
    expect(r.failures.find((f) => f.property === "memberUserIds[1]")?.reason).toBe("ids must be non-empty strings");
    const missing = await members.check({}, { guardrailId: G1, __resource: urn("b") });
    expect(missing.failures).toEqual([{ property: "memberUserIds", reason: "is required: a list of member ids" }]);
    const own = await members.check({}, { guardrailId: G1, memberUserIds: [], members: {}, __resource: urn("c") });
    expect(own.failures.map((f) => f.property)).toEqual(["members"]);
  });

  it("adds the id map beside the list, sealed when the list is secret; a secret failure keeps its path, marked", async () => {
    const plain = await members.check({}, { guardrailId: G1, memberUserIds: ["u2", "u1", "u1"], __resource: urn("d") });
    expect(plain.failures).toEqual([]);
    expect(plain.inputs).toEqual({
      guardrailId: G1,
      memberUserIds: ["u2", "u1", "u1"],
      members: { u1: true, u2: true },
    });
    const secret = await members.check(
      {},
      { guardrailId: G1, memberUserIds: ["u9"], __resource: urn("e"), __secretArgs: ["memberUserIds"] },
    );
    expect(secret.inputs.members).toEqual({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", value: { u9: true } });
    expect(secret.inputs.memberUserIds).toMatchObject({ [SIG]: "1b47061264138c4ac30d75fd1eb44270" });
    expect(secret.inputs.__secretArgs).toBeUndefined();
    const bad = await members.check(
      {},
      { guardrailId: G1, memberUserIds: "x".repeat(3), __resource: urn("f"), __secretArgs: ["memberUserIds"] },
    );
    expect(bad.failures).toEqual([{ property: "memberUserIds", reason: "must be a list of strings", secret: true }]);
    const hidden = await members.check(
      {},
      { guardrailId: "s3cret-not-a-uuid", memberUserIds: [], __resource: urn("g"), __secretArgs: ["guardrailId"] },
    );
    expect(hidden.failures).toEqual([
      { property: "guardrailId", reason: "must be a guardrail id (UUID)", secret: true },
    ]);
  });

  it("a failure at a secret arg goes on the wire with no property, so the engine prints no value beside it", async () => {
    // The engine prints the input a failure names in plain text (`value {&{{s3cret-not-a-uuid}}}`, CLI 3.248).
    const news = { guardrailId: "s3cret-not-a-uuid", memberUserIds: "x", exclusive: "yes" };
    const r = await members.check({}, { ...news, __resource: urn("h"), __secretArgs: Object.keys(news) });
    expect(r.failures.map((f) => wireFailure(f, news)).map((w) => [w.getProperty(), w.getReason()])).toEqual([
      ["", "memberUserIds (member_user_ids in Python, MemberUserIds in Go): must be a list of strings"],
      ["", "guardrailId (guardrail_id in Python, GuardrailId in Go): must be a guardrail id (UUID)"],
      ["", "exclusive: must be true or false"],
    ]);
    const plain = await members.check({}, { ...news, __resource: urn("i") });
    // A name Python and Go write otherwise goes in the reason, in every language (issue 42).
    expect(plain.failures.map((f) => wireFailure(f, news)).map((w) => [w.getProperty(), w.getReason()])).toEqual([
      ["", "memberUserIds (member_user_ids in Python, MemberUserIds in Go): must be a list of strings"],
      [
        "",
        'guardrailId (guardrail_id in Python, GuardrailId in Go): must be a guardrail id (UUID) (got "s3cret-not-a-uuid")',
      ],
      ["exclusive", 'must be true or false (got "yes")'],
    ]);
  });
});

describe("native sets: diff keyed per id", () => {
  const olds = { guardrailId: G1, exclusive: false, members: { user_a: true, user_bob: true } };
  it("a member leaving one set and joining another: a delete by key here, an add by key there", async () => {
    const a = await members.diff(`${G1}/members`, olds, {
      guardrailId: G1,
      memberUserIds: ["user_a"],
      members: { user_a: true },
    });
    expect(a.changes).toEqual([{ path: 'members["user_bob"]', kind: "delete" }]);
    const b = await members.diff(
      `${G2}/members`,
      { guardrailId: G2, exclusive: false, members: { user_c: true } },
      {
        guardrailId: G2,
        memberUserIds: ["user_c", "user_bob"],
        members: { user_bob: true, user_c: true },
        moves: { user_bob: "from guardrail A" },
      },
    );
    expect(b.changes).toEqual([
      { path: 'members["user_bob"]', kind: "add" },
      { path: 'moves["user_bob"]', kind: "add" },
    ]);
  });

  it("a status the state holds is an update of that entry; a new guardrail replaces", async () => {
    const refreshed = {
      ...olds,
      members: { user_a: true, user_bob: "on guardrail Eng (3f2b8c1e…)", user_eve: FOREIGN },
    };
    const d = await members.diff(
      `${G1}/members`,
      { ...refreshed, exclusive: true },
      {
        guardrailId: G1,
        exclusive: true,
        memberUserIds: ["user_a", "user_bob"],
        members: { user_a: true, user_bob: true },
      },
    );
    expect(d.changes).toEqual([
      { path: 'members["user_bob"]', kind: "update" },
      { path: 'members["user_eve"]', kind: "delete" },
    ]);
    const moved = await members.diff(`${G1}/members`, olds, { guardrailId: G2, memberUserIds: [], members: {} });
    expect(moved.changes).toEqual([{ path: "guardrailId", kind: "replace" }]);
  });

  it("entries are looked up in the outputs; other paths in the inputs", () => {
    const resp = againstOutputs(
      diffResponse(
        {
          changes: [
            { path: 'keys["h1"]', kind: "add" },
            { path: "exclusive", kind: "update" },
          ],
        },
        { keys: {} },
        { keys: { h1: true } },
      ),
    );
    const map = resp.getDetaileddiffMap();
    expect(map.get('keys["h1"]')?.getInputdiff()).toBe(false);
    expect(map.get('keys["h1"]')?.getKind()).toBe(provproto.PropertyDiff.Kind.ADD);
    expect(map.get("exclusive")?.getInputdiff()).toBe(true);
  });
});

describe("native sets: claims of one deployment", () => {
  const set = (name: string, guardrailId: string, ids: string[], exclusive = false) => ({
    noun: "member" as const,
    urn: urn(name),
    guardrailId,
    exclusive,
    ids,
    secret: false,
    guardrailSecret: false,
  });

  it("refuses an exclusive set beside another on one guardrail, naming both; a re-check is no conflict", async () => {
    const claims = new DeploymentClaims(async () => null);
    expect((await claims.check(set("a", G1, ["u1"]))).failures).toEqual([]);
    expect((await claims.check(set("a", G1, ["u1"]))).failures).toEqual([]);
    const refused = await claims.check(set("b", G1, ["u2"], true));
    expect(refused.failures).toEqual([
      {
        property: "guardrailId",
        reason: `exclusive GuardrailMemberAssignment "b" and GuardrailMemberAssignment "a" both manage the members of guardrail ${G1}; an exclusive set owns the guardrail's whole member set, so each up would remove the other's members. Merge them into one set, or make both additive (exclusive: false).`,
      },
    ]);
  });

  it("warns of a member on two guardrails of one workspace, reading workspaces only then", async () => {
    const read: string[] = [];
    const ws: Record<string, string | null> = { [G1]: "w1", [G2]: "w1" };
    const claims = new DeploymentClaims(async (id) => (read.push(id), ws[id]!));
    await claims.check(set("a", G1, ["u1", "u2"]));
    expect(read).toEqual([]);
    const { warnings } = await claims.check(set("b", G2, ["u2", "u3"]));
    expect(warnings).toEqual([
      `member "u2" is assigned to two guardrails of the same workspace: guardrail ${G1} (GuardrailMemberAssignment "a") and guardrail ${G2} (GuardrailMemberAssignment "b"); a member holds one guardrail per workspace, so it would move back and forth between them on every up`,
    ]);
    expect(read.sort()).toEqual([G1, G2]);
    const other = new DeploymentClaims(async (id) => (id === G1 ? "w1" : "w2"));
    await other.check(set("a", G1, ["u1"]));
    expect((await other.check(set("b", G2, ["u1"]))).warnings).toEqual([]);
    const unreadable = new DeploymentClaims(async () => Promise.reject(new Error("down")));
    await unreadable.check(set("a", G1, ["u1"]));
    expect((await unreadable.check(set("b", G2, ["u1"]))).warnings).toEqual([]);
  });

  it("a key on two guardrails warns with no read; a secret id is not printed", async () => {
    const claims = new DeploymentClaims(async () => {
      throw new Error("no read for keys");
    });
    const key = (name: string, g: string) => ({
      ...set(name, g, ["h1"]),
      noun: "key" as const,
      urn: urn(name, "GuardrailKeyAssignment"),
      secret: true,
    });
    await claims.check(key("a", G1));
    const { warnings } = await claims.check(key("b", G2));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^key \[secret\] is assigned to two guardrails: guardrail /);
    expect(warnings[0]).not.toContain("h1");
  });
});

describe("native sets: claims of a secret guardrail id", () => {
  const set = (name: string, guardrailId: string, ids: string[], exclusive = false, guardrailSecret = false) => ({
    noun: "member" as const,
    urn: urn(name),
    guardrailId,
    exclusive,
    ids,
    secret: false,
    guardrailSecret,
  });
  const refusal = (mine: string, theirs: string) =>
    `${mine} and ${theirs} both manage the members of guardrail [secret]; an exclusive set owns the guardrail's whole member set, so each up would remove the other's members. Merge them into one set, or make both additive (exclusive: false).`;

  it("a refusal names no secret guardrail id, whichever of the two sets made it secret", async () => {
    const later = new DeploymentClaims(async () => null);
    await later.check(set("a", G1, ["u1"]));
    const refused = await later.check(set("b", G1, ["u2"], true, true));
    expect(refused.failures).toEqual([
      {
        property: "guardrailId",
        reason: refusal('exclusive GuardrailMemberAssignment "b"', 'GuardrailMemberAssignment "a"'),
      },
    ]);
    const earlier = new DeploymentClaims(async () => null);
    await earlier.check(set("a", G1, ["u1"], true, true));
    const again = await earlier.check(set("b", G1, ["u2"]));
    expect(again.failures).toEqual([
      {
        property: "guardrailId",
        reason: refusal('GuardrailMemberAssignment "b"', 'exclusive GuardrailMemberAssignment "a"'),
      },
    ]);
    // A re-check of the secret set without its secret does not forget it was one.
    const rechecked = new DeploymentClaims(async () => null);
    await rechecked.check(set("a", G1, ["u1"], true, true));
    await rechecked.check(set("a", G1, ["u1"], true, true));
    expect(JSON.stringify((await rechecked.check(set("b", G1, ["u2"]))).failures)).not.toContain(G1);
    // Any set on the guardrail that made its id secret hides it, not only the one the refusal names.
    const third = new DeploymentClaims(async () => null);
    await third.check(set("a", G1, ["u1"]));
    await third.check(set("x", G1, ["u7"], false, true));
    expect((await third.check(set("b", G1, ["u2"], true))).failures).toEqual([
      {
        property: "guardrailId",
        reason: refusal('exclusive GuardrailMemberAssignment "b"', 'GuardrailMemberAssignment "a"'),
      },
    ]);
  });

  it("a held-twice warning shows a secret guardrail id as [secret], first or second", async () => {
    const warn = async (first: boolean, second: boolean) => {
      const claims = new DeploymentClaims(async () => "w1");
      await claims.check(set("a", G1, ["u1"], false, first));
      return (await claims.check(set("b", G2, ["u1"], false, second))).warnings;
    };
    const said = (g1: string, g2: string) => [
      `member "u1" is assigned to two guardrails of the same workspace: guardrail ${g1} (GuardrailMemberAssignment "a") and guardrail ${g2} (GuardrailMemberAssignment "b"); a member holds one guardrail per workspace, so it would move back and forth between them on every up`,
    ];
    expect(await warn(true, false)).toEqual(said("[secret]", G2));
    expect(await warn(false, true)).toEqual(said(G1, "[secret]"));
    expect(await warn(true, true)).toEqual(said("[secret]", "[secret]"));
    expect(await warn(false, false)).toEqual(said(G1, G2));
    // Another set's secret copy of G1 hides the plain copy's too.
    const claims = new DeploymentClaims(async () => "w1");
    await claims.check(set("a", G1, ["u1"]));
    await claims.check(set("x", G1, ["u7"], false, true));
    expect((await claims.check(set("b", G2, ["u1"]))).warnings).toEqual(said("[secret]", G2));
  });

  it("a held-twice warning names no id an earlier set made secret", async () => {
    const claims = new DeploymentClaims(async () => "w1");
    await claims.check(set("c", G1, ["user_SECRET-7c1e"]));
    await claims.check({ ...set("a", G1, ["user_SECRET-7c1e"]), secret: true });
    const { warnings } = await claims.check(set("b", G2, ["user_SECRET-7c1e"]));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^member \[secret\] is assigned to two guardrails/);
    expect(warnings[0]).not.toContain("SECRET-7c1e");
  });

  it("the set's check passes the engine's secret guardrailId to the claims, and the wire names it nowhere", async () => {
    const lifecycle = nativeSetLifecycle(MEMBER_KIND, processConfig, new DeploymentClaims(async () => "w1"));
    const news = (name: string, g: string, exclusive: boolean) => ({
      guardrailId: g,
      memberUserIds: ["u1"],
      exclusive,
      __resource: urn(name),
      __secretArgs: ["guardrailId"],
    });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await lifecycle.check({}, news("a", G1, false));
      const held = await lifecycle.check({}, news("b", G2, false));
      expect(held.failures).toEqual([]);
      const refused = await lifecycle.check({}, news("c", G1, true));
      const wire = refused.failures.map((f) => wireFailure(f, news("c", G1, true)));
      expect(wire.map((w) => [w.getProperty(), w.getReason()])).toEqual([
        [
          "",
          `guardrailId (guardrail_id in Python, GuardrailId in Go): ${refusal('exclusive GuardrailMemberAssignment "c"', 'GuardrailMemberAssignment "a"')}`,
        ],
      ]);
      const warned = errors.mock.calls.map((c) => String(c[0])).join("\n");
      expect(warned).toContain('guardrail [secret] (GuardrailMemberAssignment "a")');
      expect(warned).not.toContain(G1);
      expect(warned).not.toContain(G2);
    } finally {
      errors.mockRestore();
    }
  });
});

describe("native sets: import ids", () => {
  it("takes <guardrail id>/members and /keys, refuses the rest saying the form", () => {
    expect(importedGuardrail(MEMBER_KIND, `${G1.toUpperCase()}/members`)).toBe(G1);
    expect(importedGuardrail(KEY_KIND, `${G1}/keys`)).toBe(G1);
    expect(() => importedGuardrail(MEMBER_KIND, `${G1}/keys`)).toThrow(
      /GuardrailMemberAssignment: cannot import ".*\/keys": the id of a member set is <guardrail id>\/members/,
    );
    expect(() => importedGuardrail(KEY_KIND, G1)).toThrow(/<guardrail id>\/keys/);
    expect(() => importedGuardrail(KEY_KIND, `${G1}/keys/x`)).toThrow(/cannot import/);
  });
});
