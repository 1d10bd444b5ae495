import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { describe, expect, it } from "vitest";
import { diffResponse, resolvable, shownChanges } from "../../src/native/diff";

const Kind = provproto.PropertyDiff.Kind;

/** A DiffResponse's detailed diff as `{path: [kind, inputDiff]}`. */
function detailed(r: provproto.DiffResponse): Record<string, [number, boolean]> {
  const out: Record<string, [number, boolean]> = {};
  r.getDetaileddiffMap().forEach((v, k) => {
    out[k] = [v.getKind(), v.getInputdiff()];
  });
  return out;
}

// The engine resolves a detailed-diff path in the old and the new inputs alike: a key path into
// a list resolves to nothing, so the native face turns it into index paths (issue 26).
describe("native face: key paths the engine can show", () => {
  const olds = { contentFilterBuiltins: [{ slug: "email" }, { slug: "credit-card" }], allowedModels: ["a/x"] };
  const news = { contentFilterBuiltins: [{ slug: "phone" }, { slug: "email" }], allowedModels: ["a/x", "b/y"] };

  it("an add at its new index, a delete at its old one; a custom filter by pattern", () => {
    expect(resolvable({ path: 'contentFilterBuiltins["phone"]', kind: "add" }, olds, news)).toEqual([
      { path: "contentFilterBuiltins[0]", kind: "add" },
    ]);
    expect(resolvable({ path: 'contentFilterBuiltins["credit-card"]', kind: "delete" }, olds, news)).toEqual([
      { path: "contentFilterBuiltins[1]", kind: "delete" },
    ]);
    expect(resolvable({ path: 'allowedModels["b/y"]', kind: "add" }, olds, news)).toEqual([
      { path: "allowedModels[1]", kind: "add" },
    ]);
    const filters = { contentFilters: [{ pattern: "a+" }, { pattern: "b+" }] };
    expect(resolvable({ path: 'contentFilters["b+"]', kind: "delete" }, filters, {})).toEqual([
      { path: "contentFilters[1]", kind: "delete" },
    ]);
  });

  it("an update whose entry moved is a delete and an add; a top-level path is kept; an unknown key resolves to nothing", () => {
    expect(resolvable({ path: 'contentFilterBuiltins["email"]', kind: "update" }, olds, news)).toEqual([
      { path: "contentFilterBuiltins[0]", kind: "delete" },
      { path: "contentFilterBuiltins[1]", kind: "add" },
    ]);
    expect(resolvable({ path: "workspaceId", kind: "replace" }, olds, news)).toEqual([
      { path: "workspaceId", kind: "replace" },
    ]);
    expect(resolvable({ path: 'allowedModels["c/z"]', kind: "delete" }, olds, news)).toBeUndefined();
  });

  it("a key the lists do not hold names its property whole; one index holds one entry", () => {
    expect(
      shownChanges(
        [
          { path: 'allowedModels["c/z"]', kind: "delete" },
          { path: 'allowedModels["b/y"]', kind: "add" },
          { path: 'contentFilterBuiltins["credit-card"]', kind: "delete" },
          { path: 'contentFilterBuiltins["email"]', kind: "update" },
          { path: 'contentFilterBuiltins["phone"]', kind: "add" },
        ],
        olds,
        news,
      ).sort((a, b) => a.path.localeCompare(b.path)),
    ).toEqual([
      { path: "allowedModels", kind: "update" },
      // email: deleted at 0, added at 1; credit-card deleted at 1; phone added at 0.
      { path: "contentFilterBuiltins[0]", kind: "update" },
      { path: "contentFilterBuiltins[1]", kind: "update" },
    ]);
  });
});

// A policy's id list has an id map beside it in the checked inputs (src/native/policy-lists.ts).
describe("native face: a policy's id list by its id map", () => {
  const olds = { memberUserIds: ["user_alice", "user_bob"], members: { user_alice: true, user_bob: true } };
  const news = { memberUserIds: ["user_alice", "user_carol"], members: { user_alice: true, user_carol: true } };

  it("an id joining is its key in the new map, one leaving its key in the old map: no shared index", () => {
    const changes = [
      { path: 'memberUserIds["user_carol"]', kind: "add" as const },
      { path: 'memberUserIds["user_bob"]', kind: "delete" as const },
    ];
    expect(shownChanges(changes, olds, news)).toEqual([
      { path: 'members["user_carol"]', kind: "add" },
      { path: 'members["user_bob"]', kind: "delete" },
    ]);
  });

  it("old inputs recorded with no map: a leaving id at its old index, a joining one in the new map", () => {
    const before = { memberUserIds: ["user_alice", "user_bob"] };
    expect(resolvable({ path: 'memberUserIds["user_bob"]', kind: "delete" }, before, news)).toEqual([
      { path: "memberUserIds[1]", kind: "delete" },
    ]);
    expect(resolvable({ path: 'memberUserIds["user_carol"]', kind: "add" }, before, news)).toEqual([
      { path: 'members["user_carol"]', kind: "add" },
    ]);
    // A name the map table does not hold (an Object property) stays a list lookup.
    expect(resolvable({ path: 'constructor["x"]', kind: "add" }, {}, { constructor: ["x"] })).toEqual([
      { path: "constructor[0]", kind: "add" },
    ]);
  });
});

describe("native face: the DiffResponse", () => {
  it("a workspace move: replace kind, the replaces list, deleteBeforeReplace as the core says, the omitted arg's old value from outputs", () => {
    const r = diffResponse(
      {
        changes: [
          { path: "workspaceId", kind: "replace" },
          { path: "limitUsd", kind: "update" },
        ],
        deleteBeforeReplace: false,
      },
      { name: "n", limitUsd: 5 },
      { name: "n", limitUsd: 6, workspaceId: "w2" },
      { name: "n", limitUsd: 5, workspaceId: "w1", args: {}, updatedAt: "t" },
    );
    expect(detailed(r)).toEqual({ workspaceId: [Kind.UPDATE_REPLACE, false], limitUsd: [Kind.UPDATE, true] });
    expect(r.getReplacesList()).toEqual(["workspaceId"]);
    expect(r.getDiffsList()).toEqual(["workspaceId", "limitUsd"]);
    expect(r.getDeletebeforereplace()).toBe(false);
    expect(r.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(diffResponse({ changes: [], deleteBeforeReplace: true }, {}, {}).getDeletebeforereplace()).toBe(true);
  });

  it("no change: DIFF_NONE and an empty detailed diff (bookkeeping that moved is not the core's change)", () => {
    const r = diffResponse({ changes: [] }, { name: "n" }, { name: "n" }, { updatedAt: "t2", modelAnswers: {} });
    expect(r.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(r.getHasdetaileddiff()).toBe(true);
    expect(detailed(r)).toEqual({});
  });
});

// Issue 31: each of these pins a rule of the key-to-index translation a mutant of
// src/native/diff.ts broke without a failing test.
describe("native face: the edges of the key-to-index translation", () => {
  const list = { allowedModels: ["a/x", "b/y"] };

  it("an entry at index 0 is found: an add, a delete and an update in place there", () => {
    expect(resolvable({ path: 'allowedModels["a/x"]', kind: "delete" }, list, {})).toEqual([
      { path: "allowedModels[0]", kind: "delete" },
    ]);
    expect(resolvable({ path: 'allowedModels["a/x"]', kind: "add" }, {}, list)).toEqual([
      { path: "allowedModels[0]", kind: "add" },
    ]);
    // Same index on both sides: one update there, not a delete and an add.
    const b = { contentFilterBuiltins: [{ slug: "email", action: "flag" }] };
    const b2 = { contentFilterBuiltins: [{ slug: "email", action: "block" }] };
    expect(resolvable({ path: 'contentFilterBuiltins["email"]', kind: "update" }, b, b2)).toEqual([
      { path: "contentFilterBuiltins[0]", kind: "update" },
    ]);
  });

  it("a key missing from the side a change needs resolves to nothing (the property is shown whole)", () => {
    // An add whose key the new list lacks, an update whose key one side lacks.
    expect(resolvable({ path: 'allowedModels["c/z"]', kind: "add" }, list, list)).toBeUndefined();
    expect(
      resolvable({ path: 'allowedModels["a/x"]', kind: "update" }, list, { allowedModels: ["b/y"] }),
    ).toBeUndefined();
    expect(resolvable({ path: 'allowedModels["a/x"]', kind: "update" }, { allowedModels: [] }, list)).toBeUndefined();
    // A property gone from the new inputs is no list: nothing there has an index.
    expect(resolvable({ path: 'allowedModels["a/x"]', kind: "update" }, list, {})).toBeUndefined();
    expect(
      resolvable({ path: 'allowedModels["b/y"]', kind: "update" }, list, { allowedModels: "b/y" }),
    ).toBeUndefined();
  });

  it("an entry that is null or a string never matches by slug or pattern, and does not throw", () => {
    const olds = { contentFilterBuiltins: [null, "email", { slug: "email" }] };
    const news = { contentFilterBuiltins: [{ slug: "email" }] };
    expect(resolvable({ path: 'contentFilterBuiltins["email"]', kind: "delete" }, olds, news)).toEqual([
      // "email" as a bare string is a match by itself (an id list), found before the object.
      { path: "contentFilterBuiltins[1]", kind: "delete" },
    ]);
    expect(resolvable({ path: 'contentFilterBuiltins["x"]', kind: "delete" }, olds, news)).toBeUndefined();
  });

  it("a map on either side (a set's status map) keeps its key path as it is", () => {
    const c = { path: 'members["user_a"]', kind: "delete" } as const;
    expect(resolvable(c, { members: { user_a: true } }, {})).toEqual([c]);
    expect(resolvable(c, {}, { members: { user_a: "not assigned" } })).toEqual([c]);
    // null and a string are not maps: a list on the other side is searched.
    expect(resolvable(c, { members: ["user_a"] }, { members: null })).toEqual([{ path: "members[0]", kind: "delete" }]);
    expect(resolvable({ ...c, kind: "add" }, { members: "user_a" }, { members: ["user_a"] })).toEqual([
      { path: "members[0]", kind: "add" },
    ]);
  });

  it("only a whole top-level key path is translated; one nested below or above an entry is kept", () => {
    const b = { contentFilterBuiltins: [{ slug: "email", action: "flag" }] };
    for (const path of ['contentFilterBuiltins["email"].action', 'settings.contentFilterBuiltins["email"]']) {
      const c = { path, kind: "update" } as const;
      expect(resolvable(c, b, b)).toEqual([c]);
    }
  });

  it("two changes at one index merge: a replace wins, else an update", () => {
    const olds = { allowedModels: ["a/x"], allowedProviders: ["p"] };
    const news = { allowedModels: ["b/y"], allowedProviders: ["q"] };
    expect(
      shownChanges(
        [
          { path: 'allowedModels["a/x"]', kind: "delete" },
          { path: 'allowedModels["b/y"]', kind: "add" },
        ],
        olds,
        news,
      ),
    ).toEqual([{ path: "allowedModels[0]", kind: "update" }]);
    // Two changes resolving to one index, one of them a replace: the replace wins, in either order.
    const same = { contentFilterBuiltins: [{ slug: "email" }] };
    for (const kinds of [
      ["replace", "update"],
      ["update", "replace"],
    ] as const) {
      const changes = kinds.map((kind) => ({ path: 'contentFilterBuiltins["email"]', kind }));
      expect(shownChanges(changes, same, same)).toEqual([{ path: "contentFilterBuiltins[0]", kind: "replace" }]);
    }
    // Two that agree stay what they are.
    expect(
      shownChanges(
        [
          { path: 'contentFilterBuiltins["email"]', kind: "add" },
          { path: 'contentFilterBuiltins["email"]', kind: "add" },
        ],
        {},
        same,
      ),
    ).toEqual([{ path: "contentFilterBuiltins[0]", kind: "add" }]);
  });

  it("an arg present in the recorded inputs shows its old value from them (inputDiff true)", () => {
    const r = diffResponse(
      { changes: [{ path: "description", kind: "update" }] },
      { description: "old" },
      { description: "new" },
      { description: "old" },
    );
    expect(detailed(r)).toEqual({ description: [Kind.UPDATE, true] });
  });
});
