/**
 * The core's diff names each changed property with its kind and key path (src/core/results.ts),
 * and the dynamic face says the same thing in the host's terms: changed at all, and what
 * replaces. Real lifecycle functions against the emulator.
 */
import { describe, expect, it } from "vitest";
import { guardrailLifecycle } from "../../src/core/guardrail/lifecycle";
import { assignmentLifecycle } from "../../src/core/assignments/lifecycle";
import { MEMBER_KIND } from "../../src/core/assignments/kind";
import type { GuardrailOutputs } from "../../src/core/guardrail/model";
import { UNKNOWN } from "../../src/core/markers";
import { dynamicDiff } from "../../src/dynamic/lifecycle-adapter";
import { useProviderEmulator, W2 } from "../helpers/emulator";
import { EMAIL_REDACT_SSN_BLOCK } from "../helpers/filters";
import { processConfig } from "../../src/core/settings/config";

const emu = useProviderEmulator({}, { options: { members: ["user_alice", "user_bob", "user_carol"] } });
const members = assignmentLifecycle(MEMBER_KIND, processConfig);
const guardrailCore = guardrailLifecycle(processConfig);
const asMap = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));

/** State as the engine hands it back: secret envelopes opened (it decrypts before each call). */
const opened = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v), (_, x) =>
    x && typeof x === "object" && x["4dabf18193072939515e22adb298388d"] ? x.value : x,
  );

async function guardrail(args: Record<string, unknown>) {
  const res = await guardrailCore.create({ __provider: "p", ...args });
  return { id: res.id, outs: opened(res.properties) as GuardrailOutputs };
}

describe("Guardrail: diff paths", () => {
  const filters = [
    { slug: "email", action: "block" },
    { slug: "phone", action: "redact" },
  ];

  it("top-level fields by name, builtin filters by slug: added, deleted, updated", async () => {
    const { id, outs } = await guardrail({
      name: "paths",
      limitUsd: 5,
      resetInterval: "daily",
      contentFilterBuiltins: filters,
    });
    const news = {
      name: "paths",
      limitUsd: 7,
      resetInterval: "daily",
      contentFilterBuiltins: EMAIL_REDACT_SSN_BLOCK,
    };
    const d = await guardrailCore.diff(id, outs, news);
    expect(d).toEqual({
      changes: [
        { path: "limitUsd", kind: "update" },
        { path: 'contentFilterBuiltins["email"]', kind: "update" },
        { path: 'contentFilterBuiltins["phone"]', kind: "delete" },
        { path: 'contentFilterBuiltins["ssn"]', kind: "add" },
      ],
      deleteBeforeReplace: false,
    });
    expect(dynamicDiff(d)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("no change: no entries, and the host hears none", async () => {
    const { id, outs } = await guardrail({ name: "same", contentFilterBuiltins: filters });
    const d = await guardrailCore.diff(id, outs, { name: "same", contentFilterBuiltins: [...filters].reverse() });
    expect(d.changes).toEqual([]);
    expect(dynamicDiff(d)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("a workspace move is a replace of workspaceId", async () => {
    const { id, outs } = await guardrail({ name: "mover" });
    const d = await guardrailCore.diff(id, outs, { name: "mover", workspaceId: W2 });
    expect(d.changes).toEqual([{ path: "workspaceId", kind: "replace" }]);
    expect(dynamicDiff(d)).toEqual({ changes: true, replaces: ["workspaceId"], deleteBeforeReplace: false });
  });

  it("an arg made secret (nothing else changed) is an update of that arg, so its copies are rewritten", async () => {
    const { id, outs } = await guardrail({ name: "seal", limitUsd: 5, resetInterval: "daily" });
    const d = await guardrailCore.diff(id, outs, {
      name: "seal",
      limitUsd: 5,
      resetInterval: "daily",
      __secretArgs: ["limitUsd"],
    });
    expect(d.changes).toEqual([{ path: "limitUsd", kind: "update" }]);
    expect(dynamicDiff(d).changes).toBe(true);
  });

  it("secret builtin filters: the property only, no slug", async () => {
    const { id, outs } = await guardrail({
      name: "hidden",
      contentFilterBuiltins: filters,
      __secretArgs: ["contentFilterBuiltins"],
    });
    const d = await guardrailCore.diff(id, outs, {
      name: "hidden",
      contentFilterBuiltins: [{ slug: "ssn", action: "block" }],
      __secretArgs: ["contentFilterBuiltins"],
    });
    expect(d.changes).toEqual([{ path: "contentFilterBuiltins", kind: "update" }]);
  });

  it("unknown during preview: the unknown properties may change; deleteBeforeReplace left undecided", async () => {
    const { id, outs } = await guardrail({ name: "later" });
    const d = await guardrailCore.diff(id, outs, { name: "later", limitUsd: UNKNOWN });
    expect(d).toEqual({ changes: [{ path: "limitUsd", kind: "update" }] });
    expect(dynamicDiff(d)).toEqual({ changes: true, replaces: [] });
  });
});

describe("GuardrailMemberAssignment: diff paths", () => {
  async function set(ids: string[], exclusive = false) {
    const g = (await emu.client().createGuardrail({ name: `set-${ids.join("-")}` })).id;
    const res = await members.create({ __provider: "p", guardrailId: g, members: asMap(ids), exclusive });
    return { g, id: res.id, outs: res.properties };
  }

  it("one entry per id added or removed, and the mode", async () => {
    const { g, id, outs } = await set(["user_alice", "user_bob"]);
    const d = await members.diff(id, outs, {
      guardrailId: g,
      members: asMap(["user_bob", "user_carol"]),
      exclusive: true,
    });
    expect(d).toEqual({
      changes: [
        { path: "exclusive", kind: "update" },
        { path: 'members["user_carol"]', kind: "add" },
        { path: 'members["user_alice"]', kind: "delete" },
      ],
      deleteBeforeReplace: false,
    });
    expect(dynamicDiff(d)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(
      (await members.diff(id, outs, { guardrailId: g, members: asMap(["user_bob", "user_alice"]), exclusive: false }))
        .changes,
    ).toEqual([]);
  });

  it("another guardrail is a replace of guardrailId, known or not", async () => {
    const { g, id, outs } = await set(["user_alice"]);
    const other = (await emu.client().createGuardrail({ name: "other" })).id;
    for (const guardrailId of [other, UNKNOWN]) {
      const d = await members.diff(id, outs, { guardrailId, members: asMap(["user_alice"]) });
      expect(d).toEqual({ changes: [{ path: "guardrailId", kind: "replace" }], deleteBeforeReplace: false });
      expect(dynamicDiff(d)).toEqual({ changes: true, replaces: ["guardrailId"], deleteBeforeReplace: false });
    }
    expect(g).not.toBe(other);
  });

  it("secret ids are never in a path: the set changes as a whole", async () => {
    const { g, id, outs } = await set(["user_alice"]);
    const d = await members.diff(id, outs, { guardrailId: g, members: asMap(["user_bob"]), __secretArgs: ["members"] });
    expect(d.changes).toEqual([{ path: "members", kind: "update" }]);
  });

  it("unknown ids during preview: the set may change", async () => {
    const { g, id, outs } = await set(["user_alice"]);
    const d = await members.diff(id, outs, { guardrailId: g, members: UNKNOWN });
    expect(d).toEqual({ changes: [{ path: "members", kind: "update" }] });
    expect(dynamicDiff(d)).toEqual({ changes: true, replaces: [] });
  });
});
