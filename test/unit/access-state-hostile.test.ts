/**
 * Issue 41 attack pass: `guardrails-access --stack-state` over a hostile or contradictory state.
 * A crafted resource fails as a clear error (never a stack trace); what the state says of a
 * workspace reaches no terminal raw; and where the state contradicts itself (two defaults of one
 * workspace, a member in two guardrails of it) no answer picks the laxer reading.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { failureText, readState, stateSource, UserError, whoCanReach } from "../../src/access";

const DYN = "pulumi-nodejs:dynamic/guardrails:";
const WS = "11111111-1111-4111-8111-111111111111";
type R = { type: string; outs: unknown };
const doc = (rs: R[]) => ({
  version: 3,
  deployment: {
    resources: rs.map((r, i) => ({
      urn: `urn:pulumi:dev::p::${DYN}${r.type}::n${i}`,
      custom: true,
      type: `${DYN}${r.type}`,
      id: `i${i}`,
      outputs: r.outs,
    })),
  },
});
const dflt = (guardrailId: string, extra: object = {}): R => ({
  type: "WorkspaceDefaultGuardrail",
  outs: { workspaceId: WS, guardrailId, ...extra },
});
const who = (rs: R[]) => whoCanReach(stateSource(doc(rs)), { model: "a/b" });
const failure = (rs: R[]) => who(rs).then(() => "", failureText);

describe("a crafted WorkspaceWidePolicy", () => {
  it.each(["__proto__", "constructor", "toString"])(
    "policyType %j: read as a kind this package does not know",
    async (t) => {
      const wide = { type: "WorkspaceWidePolicy", outs: { policyType: t, allWorkspaces: true, policyId: "p" } };
      const answer = await who([dflt("d"), wide]);
      expect(answer.members.map((m) => m.allowed)).toEqual([true]);
    },
  );
});

describe("what the state names reaches no terminal raw", () => {
  it("the workspaces an error lists are neutralised", async () => {
    const g = (ws: string) => ({ type: "Guardrail", outs: { workspaceId: ws, guardrailId: "g" } });
    const text = await failure([g("\u001b[31mevil\u202e"), g(WS)]);
    expect(text).toMatch(/2 workspaces/);
    expect(text).not.toMatch(/[\u001b\u202e]/);
  });
});

describe("a state that contradicts itself is not read the laxer way", () => {
  const lax = { allowedModels: ["a/b"] };
  const strict = { allowedModels: ["x/y"] };
  it("two WorkspaceDefaultGuardrail of one workspace: refused, naming both", async () => {
    const text = await failure([dflt("d1", lax), dflt("d2", strict)]);
    expect(text).toMatch(/2 WorkspaceDefaultGuardrail/);
  });

  it("one guardrail id held by two Guardrails (in any case): refused", async () => {
    const g = (id: string, st: object) => ({ type: "Guardrail", outs: { workspaceId: WS, guardrailId: id, ...st } });
    expect(await failure([dflt("d"), g("g", strict), g("G", lax)])).toMatch(/holds guardrail g twice/);
  });

  it("a member in two guardrails of the workspace: refused, never 'allowed by every layer known'", async () => {
    const g = (id: string, s: object) => ({ type: "Guardrail", outs: { workspaceId: WS, guardrailId: id, ...s } });
    const set = (id: string) => ({
      type: "GuardrailMemberAssignment",
      outs: { guardrailId: id, members: { u1: true } },
    });
    const err = await who([dflt("d"), g("h", lax), g("g", strict), set("h"), set("g")]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/member u1 .*2 guardrails/);
  });
});

describe("a state file that cannot be read says so, raw nowhere", () => {
  const dir = mkdtempSync(join(tmpdir(), "access-state-"));
  it("not JSON, starting with an escape sequence: the parser's quote of it is neutralised", async () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, "\u001b]0;owned\u0007\u001b[31m{");
    const text = await readState({ file }).then(() => "", failureText);
    expect(text).toMatch(/not JSON/);
    expect(text).not.toMatch(/[\u0007\u001b]/);
  });

  it("a FIFO or a device is refused before it is opened, never read until memory runs out", async () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    for (const file of [fifo, "/dev/zero"]) {
      const text = await readState({ file }).then(() => "", failureText);
      expect(text, file).toMatch(/not a regular file/);
    }
  });

  it("a file name with a bidi control is shown escaped", async () => {
    const text = await readState({ file: join(dir, "no\u202etxt.json") }).then(() => "", failureText);
    expect(text).toMatch(/cannot read it \(ENOENT\)/);
    expect(text).not.toMatch(/\u202e/);
  });
});

describe("a setting of the wrong type is not known, and said, never read as no restriction unsaid", () => {
  it.each([["x/y"], [{ a: "x/y" }], [5], [true]])("allowedModels %j", async (v) => {
    const src = stateSource(doc([dflt("d", { allowedModels: v })]));
    const answer = await whoCanReach(src, { model: "a/b" });
    expect(answer.notes.join("\n")).toMatch(/allowedModels of n0: not a value/);
  });
});
