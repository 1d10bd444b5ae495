/** Model identifier lists: recognising the service's answer to a request, for any catalogue. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GuardrailInputs } from "../../src/core/args/guardrail-args";
import {
  answersOf,
  couldAnswer,
  knownCanonical,
  modelListChanged,
  recordedCanonical,
  type RecordedModels,
} from "../../src/core/guardrail/model-lists";

/** A catalogue as the service's rule 4 resolves it; the test's own reading of the contract. */
const answerOf = (catalogue: Array<[string, string]>, request: string[]) => {
  const index = new Map(
    catalogue.flatMap(
      ([slug, canonical]) =>
        [
          [slug, canonical],
          [canonical, canonical],
        ] as Array<[string, string]>,
    ),
  );
  return [...new Set(request.map((id) => index.get(id)!))];
};

const PREFIXED: Array<[string, string]> = [
  ["vendor-a/model-x", "vendor-a/model-x-20260115"],
  ["vendor-a/model-x-mini", "vendor-a/model-x-mini-20260115"],
  ["vendor-b/model-m", "vendor-b/model-m-20260201"],
  ["vendor-b/model-m-fast", "vendor-b/model-m-fast-20260201"],
];
const NON_PREFIX: Array<[string, string]> = [
  ["v/alpha", "v/one-1"],
  ["v/beta", "v/two-1"],
  ["v/al", "v/alpha-x"],
  ["v/one", "v/alpha-y"],
];

function* lists(ids: string[], max: number, prefix: string[] = []): Generator<string[]> {
  if (prefix.length > 0) yield prefix;
  if (prefix.length === max) return;
  for (const id of ids) yield* lists(ids, max, [...prefix, id]);
}

describe("couldAnswer", () => {
  it.each([
    ["prefix-related", PREFIXED],
    ["not prefix-related", NON_PREFIX],
  ] as const)(
    "the real answer to every request of up to 4 identifiers is recognised (%s catalogue)",
    (_name, catalogue) => {
      const ids = catalogue.flat();
      let checked = 0;
      for (const request of lists(ids, 4)) {
        const answer = answerOf(catalogue, request);
        expect(couldAnswer(request, answer), JSON.stringify(request)).toBe(true);
        // Canonical slugs stand for themselves: their order in the answer is fixed.
        const canonicalOnly = request.every((id) => answer.includes(id));
        if (canonicalOnly && answer.length > 1)
          expect(couldAnswer(request, [...answer].reverse()), JSON.stringify(request)).toBe(false);
        checked++;
      }
      expect(checked).toBe(4680);
    },
  );

  it("rejects answers no catalogue could give", () => {
    expect(couldAnswer(["a", "b"], ["a", "b", "c"])).toBe(false);
    expect(couldAnswer(["a-1"], ["a-2"])).toBe(true);
    expect(couldAnswer(["a-1", "a-2"], ["a-2"])).toBe(true);
    expect(couldAnswer(["c1", "c2"], ["c2", "c1"])).toBe(false);
    expect(couldAnswer(["x", "y"], ["c"])).toBe(false);
    expect(couldAnswer(null, null)).toBe(true);
    expect(couldAnswer(["x"], null)).toBe(false);
    expect(couldAnswer(undefined, ["c"])).toBe(false);
    // A slug and the canonical slug of one model name one model, not the second one answered.
    expect(couldAnswer(["x", "c1"], ["c1", "c2"])).toBe(false);
    // A canonical slug sent first is answered first.
    expect(couldAnswer(["c2", "x"], ["c1", "c2"])).toBe(false);
  });

  const numbered = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  // Eight canonical slugs, then ten slugs for the one model left: no catalogue gives this
  // answer, but ruling it out takes about a million steps.
  const wide = [...numbered("c", 8), ...numbered("x", 10)];

  it("says 'could' once a search passes its budget, rather than searching on", () => {
    expect(couldAnswer(wide, [...numbered("c", 8), "w"])).toBe(true);
  });

  it("refuses an answer no catalogue could give before searching, however large the request", () => {
    expect(couldAnswer(wide, [...numbered("c", 8), "w", "w"]), "a model answered twice").toBe(false);
    expect(couldAnswer(wide, [...numbered("c", 8), ...numbered("w", 11)]), "more models than identifiers").toBe(false);
  });

  it("matches a slug only to the next model answered or one answered before, so a long request stays cheap", () => {
    // Eight slugs name at most eight models; with c0 sent as well the answer has one model too many.
    expect(couldAnswer([...numbered("x", 8), "c0"], numbered("c", 9))).toBe(false);
  });

  it("is true for the real answer under random catalogues", () => {
    const catalogue = fc
      .uniqueArray(fc.stringMatching(/^[a-d]{1,3}$/), { minLength: 2, maxLength: 12 })
      .map((names) => {
        const half = Math.floor(names.length / 2);
        return names.slice(0, half).map((slug, i) => [slug, `${names[half + i]}#`] as [string, string]);
      });
    fc.assert(
      fc.property(
        catalogue.chain((cat) =>
          fc.tuple(fc.constant(cat), fc.array(fc.constantFrom(...cat.flat()), { minLength: 1, maxLength: 6 })),
        ),
        ([cat, request]) => couldAnswer(request, answerOf(cat, request)),
      ),
      { numRuns: 500, seed: 19 },
    );
  });
});

describe("what a model list records and when it changed (the rule that replaced alias learning)", () => {
  const M = "vendor-b/model-m";
  const M_C = "vendor-b/model-m-20260201";
  const X = "vendor-a/model-x";
  const X_C = "vendor-a/model-x-20260115";
  const recorded = (sent: string[] | null, live: string[] | null, answer: string[] | null = live): RecordedModels => ({
    allowedModels: live,
    ignoredModels: null,
    modelAnswers: { allowedModels: answer, ignoredModels: null },
    args: { name: "n", ...(sent ? { allowedModels: sent } : {}) } as GuardrailInputs,
  });
  const program = (ids: string[] | undefined) =>
    ({ name: "n", ...(ids ? { allowedModels: ids } : {}) }) as GuardrailInputs;

  it.each([
    ["the identifiers sent before, in another order", recorded([X, M], [X_C, M_C]), [M, X], false],
    ["the canonical slugs the service answered", recorded([X, M], [X_C, M_C]), [M_C, X_C], false],
    ["a new identifier is sent and the answer settles it", recorded([X], [X_C]), [X_C, M], true],
    // One answer per identifier sent: each one's canonical slug is known, so this is no change (issue 26).
    ["the canonical slug of a listed model, mixed with a slug", recorded([X, M], [X_C, M_C]), [X_C, M], false],
    [
      "two identifiers of one model sent: only canonical slugs known",
      recorded([X, X_C, M], [X_C, M_C]),
      [X_C, M],
      true,
    ],
    ["drift: the service's list is not its last answer", recorded([X], [M_C], [X_C]), [X], true],
    ["the list dropped from the program", recorded([X], [X_C]), undefined, true],
    ["no list on either side", recorded(null, null), undefined, false],
    ["adopted (no args): the canonical set must match", { ...recorded([X], [X_C]), args: null }, [X_C], false],
    ["adopted (no args): a slug is sent", { ...recorded([X], [X_C]), args: null }, [X], true],
  ] as const)("%s", (_name, rec, ids, expected) => {
    expect(modelListChanged(rec, program(ids as string[] | undefined), "allowedModels")).toBe(expected);
  });

  it.each([
    ["recorded answers win", { ...recorded([X], [X_C]), modelAliases: { [X]: "other" } }, [X_C]],
    [
      "an earlier version's alias map covering every identifier",
      {
        allowedModels: [X_C, M_C],
        ignoredModels: null,
        modelAliases: { [X]: X_C, [M]: M_C },
        args: program([X, M, X]),
      },
      [X_C, M_C],
    ],
    [
      "an alias map missing an identifier: the recorded list",
      { allowedModels: [X_C], ignoredModels: null, modelAliases: {}, args: program([X]) },
      [X_C],
    ],
    ["no args at all: the recorded list", { allowedModels: [M_C], ignoredModels: null, args: null }, [M_C]],
    [
      "an earlier version's alias map, the list drifted since: the identifiers through the map",
      { allowedModels: [M_C], ignoredModels: null, modelAliases: { [X]: X_C }, args: program([X]) },
      [X_C],
    ],
    [
      "an alias map covering some identifiers: the recorded list",
      { allowedModels: [X_C, M_C], ignoredModels: null, modelAliases: { [X]: X_C }, args: program([X, M]) },
      [X_C, M_C],
    ],
    [
      "no alias map at all: the recorded list",
      { allowedModels: [X_C], ignoredModels: null, args: program([X]) },
      [X_C],
    ],
    [
      "no args: the canonical output, not the program's identifiers",
      { allowedModels: [X], allowedModelsCanonical: [X_C], ignoredModels: null, args: null },
      [X_C],
    ],
  ] as const)("answersOf: %s", (_name, rec, expected) => {
    expect(answersOf(rec as RecordedModels).allowedModels).toEqual(expected);
  });

  it("answersOf reads an earlier version's ignoredModels too", () => {
    const legacy = { allowedModels: null, ignoredModels: [M_C], args: null };
    expect(answersOf(legacy)).toEqual({ allowedModels: null, ignoredModels: [M_C] });
    const mapped = {
      ...legacy,
      modelAliases: { [M]: M_C },
      args: { name: "n", ignoredModels: [M] } as GuardrailInputs,
    };
    expect(answersOf(mapped)).toEqual({ allowedModels: null, ignoredModels: [M_C] });
  });

  it("recordedCanonical: the canonical output where state has one, else the list itself", () => {
    const rec = { allowedModels: [X], allowedModelsCanonical: [X_C], ignoredModels: [M_C], args: null };
    expect([recordedCanonical(rec, "allowedModels"), recordedCanonical(rec, "ignoredModels")]).toEqual([[X_C], [M_C]]);
    expect(recordedCanonical({ ...rec, allowedModelsCanonical: null }, "allowedModels")).toBeNull();
  });

  it.each([
    [
      "one answer per identifier sent: each paired",
      recorded([X, M, X], [X_C, M_C]),
      [
        [X, X_C],
        [M, M_C],
      ],
    ],
    ["two identifiers of one model sent: nothing paired", recorded([X, X_C, M], [X_C, M_C]), []],
    ["no list answered", recorded([X], null), []],
    ["no list sent", recorded(null, [X_C]), []],
    ["adopted (no args): nothing was sent", { ...recorded([X], [X_C]), args: null }, []],
  ] as const)("knownCanonical: %s", (_name, rec, pairs) => {
    expect(knownCanonical(rec, "allowedModels")).toEqual(new Map(pairs as unknown as Array<[string, string]>));
  });

  it("two identifiers of one model sent: a slug is not taken for the first model answered", () => {
    expect(modelListChanged(recorded([X, X_C, M], [X_C, M_C]), program([X, M_C]), "allowedModels")).toBe(true);
  });
});
