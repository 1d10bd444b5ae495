import { describe, expect, it } from "vitest";
import { resolvable } from "../../src/native/diff";

// The engine resolves a detailed-diff path in the old and the new value alike: a key path into
// a list resolves to nothing, so the native face turns it into index paths (spike, issue 26).
describe("native face: key paths the engine can show", () => {
  const olds = { contentFilterBuiltins: [{ slug: "email" }, { slug: "credit-card" }], allowedModels: ["a/x"] };
  const news = { contentFilterBuiltins: [{ slug: "phone" }, { slug: "email" }], allowedModels: ["a/x", "b/y"] };

  it("an add at its new index, a delete at its old one", () => {
    expect(resolvable({ path: 'contentFilterBuiltins["phone"]', kind: "add" }, olds, news)).toEqual([
      { path: "contentFilterBuiltins[0]", kind: "add" },
    ]);
    expect(resolvable({ path: 'contentFilterBuiltins["credit-card"]', kind: "delete" }, olds, news)).toEqual([
      { path: "contentFilterBuiltins[1]", kind: "delete" },
    ]);
    expect(resolvable({ path: 'allowedModels["b/y"]', kind: "add" }, olds, news)).toEqual([
      { path: "allowedModels[1]", kind: "add" },
    ]);
  });

  it("an update whose entry moved is a delete and an add; a top-level path is kept", () => {
    expect(resolvable({ path: 'contentFilterBuiltins["email"]', kind: "update" }, olds, news)).toEqual([
      { path: "contentFilterBuiltins[0]", kind: "delete" },
      { path: "contentFilterBuiltins[1]", kind: "add" },
    ]);
    expect(resolvable({ path: "workspaceId", kind: "replace" }, olds, news)).toEqual([
      { path: "workspaceId", kind: "replace" },
    ]);
  });
});
