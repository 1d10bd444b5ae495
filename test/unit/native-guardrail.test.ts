/**
 * The native face's Guardrail, pure parts (issue 26): Check's failures with their paths and no
 * secret quoted, the inputs handed back to the engine (secrets re-marked, bookkeeping dropped,
 * sets in the recorded order so index paths rarely collide), and the secret marks on the wire.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import fc from "fast-check";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { guardrailLifecycle } from "../../src/core/guardrail/lifecycle";
import { inOldOrder, setsInOldOrder } from "../../src/core/guardrail/arrange";
import { dynamicMethods } from "../../src/dynamic/lifecycle-adapter";
import { UNKNOWN } from "../../src/core/markers";
import { diffResponse, shownChanges } from "../../src/native/diff";
import { wireFailure } from "../../src/native/resources";
import { coreNews, engineInputs } from "../../src/native/wire";
import { processConfig } from "../../src/core/settings/config";

const guardrail = guardrailLifecycle(processConfig);

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const secret = (value: unknown) => ({ [SIG]: SECRET, value });
const URN = "urn:pulumi:dev::p::guardrails:index:Guardrail::eng";

describe("native Check: failures", () => {
  const news = () =>
    coreNews(
      Struct.fromJavaScript({
        name: "",
        limitUsd: secret(-7.25),
        resetInterval: "daily",
        contentFilterBuiltins: [{ slug: "email", action: "flag" }],
        allowedProviders: secret(["", "p"]),
      } as never),
      URN,
    );

  it("every failure with its property path; one at a secret arg itself goes without a property, quoting nothing", async () => {
    const r = await guardrail.check({}, news());
    const wire = r.failures.map((f) => [wireFailure(f).getProperty(), wireFailure(f).getReason()]);
    const byPath = Object.fromEntries(wire);
    expect(byPath.name).toMatch(/1 to 200 characters/);
    // A name Python and Go write otherwise leads the reason, in every language (issue 42).
    const atRoot = wire.filter(([p]) => p === "").map(([, reason]) => reason);
    expect(atRoot).toEqual(
      expect.arrayContaining([
        "limitUsd (limit_usd in Python, LimitUsd in Go): must be >= 0",
        expect.stringMatching(
          /^allowedProviders\[0\] \(allowed_providers\[0\] in Python, AllowedProviders\[0\] in Go\): /,
        ),
        expect.stringMatching(
          /^contentFilterBuiltins\[0\]\.action \(content_filter_builtins\[0\]\.action in Python, ContentFilterBuiltins\[0\]\.Action in Go\): "flag" is supported only for/,
        ),
      ]),
    );
    expect(atRoot).toHaveLength(3);
    expect(JSON.stringify(wire)).not.toContain("7.25");
  });

  it("the dynamic face hears every failure under a secret arg or a nested path without a property", async () => {
    // A nested path names no top-level input: the engine would print `value {<nil>}` (issue 38).
    const r = await dynamicMethods(guardrail).check({}, news());
    const flattened = r.failures?.filter((f) => f.property === "").map((f) => f.reason.split(":")[0]);
    expect(flattened?.sort()).toEqual(["allowedProviders[0]", "contentFilterBuiltins[0].action", "limitUsd"]);
  });
});

describe("native face: values not known until apply (preview)", () => {
  it("Check passes them on and fails nothing about them; Diff says the property may change", async () => {
    const news = coreNews(Struct.fromJavaScript({ name: "n", allowedModels: UNKNOWN, limitUsd: -1 } as never), URN);
    const r = await guardrail.check({ name: "n", allowedModels: ["a/x"] }, news);
    expect(r.failures.map((f) => f.property)).toEqual(["limitUsd"]);
    expect(setsInOldOrder({ allowedModels: ["a/x"] }, r.inputs).allowedModels).toBe(UNKNOWN);
    const outs = { name: "n", workspaceId: "w1", defaultWorkspaceId: "w1", args: { name: "n" } } as never;
    const d = await guardrail.diff("g1", outs, { name: "n", allowedModels: UNKNOWN });
    expect(d).toEqual({ changes: [{ path: "allowedModels", kind: "update" }] });
    const resp = diffResponse(d, { name: "n" }, { name: "n", allowedModels: UNKNOWN });
    expect(resp.getDetaileddiffMap().get("allowedModels")?.getKind()).toBe(provproto.PropertyDiff.Kind.UPDATE);
    expect(resp.getDeletebeforereplace()).toBe(false);
  });
});

describe("native Check: the inputs the engine records", () => {
  it("secret args marked again, the face's bookkeeping dropped", () => {
    const bag = coreNews(Struct.fromJavaScript({ name: "n", limitUsd: secret(5) } as never), URN);
    expect(bag).toEqual({ name: "n", limitUsd: 5, __resource: URN, __secretArgs: ["limitUsd"] });
    expect(engineInputs(bag, ["limitUsd"])).toEqual({ name: "n", limitUsd: secret(5) });
  });

  it("a set's entries in the recorded order: kept ones stay, an added one avoids a deleted one's index", () => {
    expect(inOldOrder(["a", "b"], ["c", "a"])).toEqual(["c", "a"]);
    expect(inOldOrder(["a", "b"], ["a", "c"])).toEqual(["c", "a"]);
    expect(inOldOrder(["b", "a"], ["a", "b"])).toEqual(["b", "a"]);
    const b = (slug: string, action = "block") => ({ slug, action });
    const olds = { contentFilterBuiltins: [b("email"), b("credit-card"), b("phone")], allowedProviders: ["p"] };
    const news = setsInOldOrder(
      olds,
      { contentFilterBuiltins: [b("ssn"), b("phone"), b("email", "redact")], allowedProviders: ["q", "p"] },
      ["allowedProviders"],
    );
    expect(news).toEqual({
      contentFilterBuiltins: [b("email", "redact"), b("phone"), b("ssn")],
      allowedProviders: ["q", "p"],
    });
    // Each change at its own index: no add and delete merged into a confusing update.
    const changes = shownChanges(
      [
        { path: 'contentFilterBuiltins["credit-card"]', kind: "delete" },
        { path: 'contentFilterBuiltins["email"]', kind: "update" },
        { path: 'contentFilterBuiltins["ssn"]', kind: "add" },
      ],
      olds,
      news,
    );
    expect(changes).toEqual([
      { path: "contentFilterBuiltins[1]", kind: "delete" },
      { path: "contentFilterBuiltins[0]", kind: "update" },
      { path: "contentFilterBuiltins[2]", kind: "add" },
    ]);
  });

  it("is always a permutation, and the recorded order itself when the set is the same", () => {
    const ids = fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "e", "f"), { maxLength: 6 });
    fc.assert(
      fc.property(ids, ids, (olds, news) => {
        const out = inOldOrder(olds, news);
        expect([...out].sort()).toEqual([...news].sort());
        if ([...olds].sort().join() === [...news].sort().join()) expect(out).toEqual(olds);
      }),
      { numRuns: 300, seed: 26 },
    );
  });
});
