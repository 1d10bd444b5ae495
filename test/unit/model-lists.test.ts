/** Model identifier lists: recognising the service's answer to a request, for any catalogue. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GuardrailInputs } from "../../src/core/args/guardrail-args";
import { answersOf, couldAnswer, modelListChanged, type RecordedModels } from "../../src/core/guardrail/model-lists";

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
  ] as const)("answersOf: %s", (_name, rec, expected) => {
    expect(answersOf(rec as RecordedModels).allowedModels).toEqual(expected);
  });
});
