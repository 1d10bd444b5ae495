/**
 * Model identifier lists (`allowedModels`, `ignoredModels`). A request may name a model by
 * slug or by canonical slug; the service answers canonical slugs, in request order,
 * duplicates removed (docs/api-contract.md rule 4). No operation lists the catalogue, so the
 * provider never guesses which slug a canonical slug stands for. It records, per list, the
 * identifiers the program last sent (the recorded args) and the canonical list the service
 * answered, and compares like with like: the program's identifiers with the ones it sent
 * before, the service's canonical list with its last answer.
 */
import type { GuardrailInputs } from "../args/guardrail-args";

export const MODEL_LISTS = ["allowedModels", "ignoredModels"] as const;
export type ModelList = (typeof MODEL_LISTS)[number];

/** Per list, the canonical slugs the service answered to the identifiers last sent. */
export type ModelAnswers = Record<ModelList, string[] | null>;

/**
 * Where each list's canonical slugs are output. `allowedModels` itself echoes the program's
 * identifiers while the service holds what they were answered with, so an exported list never
 * previews a fake change (issue 14); state written before these outputs existed holds the
 * canonical slugs in `allowedModels` itself.
 */
export const CANONICAL_OUTPUT = {
  allowedModels: "allowedModelsCanonical",
  ignoredModels: "ignoredModelsCanonical",
} as const;

/** The canonical slugs recorded for a list, from either form of state. */
export function recordedCanonical(recorded: RecordedModels, list: ModelList): string[] | null {
  const canonical = recorded[CANONICAL_OUTPUT[list]];
  return canonical !== undefined ? canonical : (recorded[list] ?? null);
}

/** A list as a set: sorted, duplicates removed; `null` for no list. */
export const sortedSet = (xs: readonly string[] | null | undefined): string[] | null =>
  xs ? [...new Set(xs)].sort() : null;

export const sameSet = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined) =>
  JSON.stringify(sortedSet(a)) === JSON.stringify(sortedSet(b));

/** The part of the recorded outputs these rules read. */
export interface RecordedModels {
  allowedModels: string[] | null;
  ignoredModels: string[] | null;
  allowedModelsCanonical?: string[] | null;
  ignoredModelsCanonical?: string[] | null;
  modelAnswers?: ModelAnswers;
  /** Written by earlier versions: identifier -> canonical slug, guessed by prefix. Read only. */
  modelAliases?: Record<string, string>;
  args: GuardrailInputs | null;
}

/**
 * The service's last answer per list. State written before `modelAnswers` existed holds an
 * alias map instead: the answer is then the program's identifiers through that map, exactly
 * what that version compared against, or the recorded list where the map does not cover them.
 */
export function answersOf(recorded: RecordedModels): ModelAnswers {
  if (recorded.modelAnswers) return recorded.modelAnswers;
  const aliases = recorded.modelAliases ?? {};
  const legacy = (list: ModelList): string[] | null => {
    if (!recorded.args) return recordedCanonical(recorded, list);
    const ids = recorded.args[list];
    if (!ids) return null;
    return ids.every((id) => id in aliases)
      ? [...new Set(ids.map((id) => aliases[id]!))]
      : recordedCanonical(recorded, list);
  };
  return { allowedModels: legacy("allowedModels"), ignoredModels: legacy("ignoredModels") };
}

/**
 * What each identifier last sent was answered with; an identifier not in the map (a canonical
 * slug among them) stands for itself. The service answers in request order without
 * duplicates, so an answer with one slug per identifier sent pairs them; otherwise (two
 * identifiers of one model) nothing is paired. Nothing else is guessed.
 */
export function knownCanonical(recorded: RecordedModels, list: ModelList): Map<string, string> {
  const answered = answersOf(recorded)[list] ?? [];
  const known = new Map<string, string>();
  const sent = recorded.args ? [...new Set(recorded.args[list] ?? [])] : [];
  if (sent.length === answered.length) for (const [i, id] of sent.entries()) known.set(id, answered[i]!);
  return known;
}

/**
 * Whether a model list differs between the recorded state and the program: the program
 * changed its own identifiers (as a set) to ones that do not stand for the models the service
 * answered, or the service's canonical list drifted from its last answer. An identifier whose
 * answer is known (knownCanonical: a slug sent before, or a canonical slug answered) stands
 * for that model, so writing a model's canonical slug for its slug is no change. A new
 * identifier is a change: which model it names is the service's to say, so it is sent, and the
 * answer settles it. With no record of what was sent (adopting a guardrail), the set of
 * canonical slugs must match.
 */
export function modelListChanged(recorded: RecordedModels, inputs: GuardrailInputs, list: ModelList): boolean {
  const answered = answersOf(recorded)[list];
  const sent = recorded.args ? (recorded.args[list] ?? null) : answered;
  if (!sameSet(recordedCanonical(recorded, list), answered)) return true;
  const known = knownCanonical(recorded, list);
  const asked = inputs[list]?.map((id) => known.get(id) ?? id) ?? null;
  return !sameSet(inputs[list], sent) && !sameSet(asked, answered);
}

/** Steps after which `couldAnswer` stops looking and says "could" (it only ever widens a search). */
const SEARCH_BUDGET = 100_000;

/**
 * Whether `answer` could be the service's answer to `request` for some catalogue: each
 * identifier is either a canonical slug (then it appears in the answer as itself) or the one
 * slug of a model whose canonical slug appears in the answer, and the answer lists the
 * canonical slugs in request order without duplicates. True for the real answer under any
 * catalogue, prefix-related or not; used to recognise a guardrail whose create answer was lost.
 */
export function couldAnswer(
  request: readonly string[] | null | undefined,
  answer: readonly string[] | null | undefined,
): boolean {
  if (!request || !answer) return !request && !answer;
  const ids = [...new Set(request)];
  const literal = new Set(answer);
  if (literal.size !== answer.length || answer.length > ids.length) return false;
  const slugOf = new Map<string, string>();
  let budget = SEARCH_BUDGET;
  const walk = (i: number, p: number): boolean => {
    if (--budget < 0) return true;
    if (i === ids.length) return p === answer.length;
    const id = ids[i]!;
    if (literal.has(id)) {
      const at = answer.indexOf(id);
      if (at < p) return walk(i + 1, p);
      return at === p && walk(i + 1, p + 1);
    }
    // A slug: the next new canonical slug, or one already answered that has no slug yet.
    const candidates = answer.slice(0, p + 1).filter((c) => !slugOf.has(c));
    for (const c of candidates) {
      slugOf.set(c, id);
      const ok = walk(i + 1, answer.indexOf(c) === p ? p + 1 : p);
      slugOf.delete(c);
      if (ok) return true;
    }
    return false;
  };
  return walk(0, 0);
}
