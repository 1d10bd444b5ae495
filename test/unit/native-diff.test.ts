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
