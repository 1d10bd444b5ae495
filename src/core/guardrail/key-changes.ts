/**
 * A changed list setting as entries added, deleted or updated, each at its key path: a
 * provider, data region or model by itself (`allowedModels["vendor-a/model-x"]`), a builtin
 * filter by slug, a custom filter by pattern. A list set where there was none (or dropped) is
 * the property itself added (or deleted). `undefined`: no key paths say it (the whole property
 * changes), e.g. a custom pattern listed twice.
 */
import type { GuardrailInputs } from "../args/guardrail-args";
import { spec, type FieldName } from "../fields/fields";
import { keyPath, type ChangeKind, type PropertyChange } from "../results";
import { comparableInputs, comparableOutputs, type GuardrailOutputs } from "./model";
import { answersOf, knownCanonical, MODEL_LISTS, recordedCanonical, type ModelList } from "./model-lists";

type Entry = [key: string, value: string];

/** Changes between two keyed lists (each key once), in key order. */
function byKey(p: FieldName, have: readonly Entry[], want: readonly Entry[]): PropertyChange[] {
  const [h, w] = [new Map(have), new Map(want)];
  const keys = [...new Set([...h.keys(), ...w.keys()])].sort();
  return keys.flatMap((k): PropertyChange[] => {
    const kind: ChangeKind | undefined = !h.has(k)
      ? "add"
      : !w.has(k)
        ? "delete"
        : h.get(k) !== w.get(k)
          ? "update"
          : undefined;
    return kind ? [{ path: keyPath(p, k), kind }] : [];
  });
}

const entries = (list: unknown, keyOf: (x: never) => string): Entry[] =>
  ((list ?? []) as never[]).map((x) => [keyOf(x), JSON.stringify(x)]);

/**
 * A model list: what the program lists now against what was there (the identifiers last sent,
 * or after drift the canonical slugs the service holds). An identifier whose canonical slug the
 * service answered before is that model, so writing a model's canonical slug for its slug (or
 * the other way round, once answered) is no entry's change; an identifier never answered is
 * new, since which model it names is the service's to say.
 */
export function modelChanges(outs: GuardrailOutputs, inputs: GuardrailInputs, list: ModelList): PropertyChange[] {
  const answered = answersOf(outs)[list] ?? [];
  const held = recordedCanonical(outs, list) ?? [];
  const drifted = JSON.stringify([...held].sort()) !== JSON.stringify([...answered].sort());
  const known = knownCanonical(outs, list);
  const of = (id: string) => known.get(id) ?? id;
  const before = drifted ? held : [...new Set(outs.args ? (outs.args[list] ?? []) : answered)];
  const now = [...new Set(inputs[list] ?? [])];
  const [was, is] = [new Set(before.map(of)), new Set(now.map(of))];
  return [
    ...now.filter((id) => !was.has(of(id))).map((id) => ({ path: keyPath(list, id), kind: "add" as const })),
    ...before.filter((id) => !is.has(of(id))).map((id) => ({ path: keyPath(list, id), kind: "delete" as const })),
  ].sort((a, b) => a.path.localeCompare(b.path));
}

/** Indexes in `b` of the longest run of `a`'s keys kept in order (the rest moved). */
function keptInOrder(a: readonly string[], b: readonly string[]): Set<string> {
  const len = a.map(() => b.map(() => 0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      len[i]![j] = a[i] === b[j] ? 1 + (len[i + 1]?.[j + 1] ?? 0) : Math.max(len[i + 1]?.[j] ?? 0, len[i]![j + 1] ?? 0);
  const kept = new Set<string>();
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) kept.add(a[i++]!), j++;
    else if ((len[i + 1]?.[j] ?? 0) >= (len[i]?.[j + 1] ?? 0)) i++;
    else j++;
  }
  return kept;
}

/** Custom filters, applied in order: by pattern, and a filter that moved among the kept ones is updated. */
function orderedChanges(p: FieldName, have: Entry[], want: Entry[]): PropertyChange[] | undefined {
  const [hk, wk] = [have.map(([k]) => k), want.map(([k]) => k)];
  if (new Set(hk).size !== hk.length || new Set(wk).size !== wk.length) return undefined;
  const changes = byKey(p, have, want);
  const both = (ks: string[], other: string[]) => ks.filter((k) => other.includes(k));
  const kept = keptInOrder(both(hk, wk), both(wk, hk));
  const moved = both(wk, hk).filter((k) => !kept.has(k) && !changes.some((c) => c.path === keyPath(p, k)));
  return [...changes, ...moved.map((k) => ({ path: keyPath(p, k), kind: "update" as const }))];
}

/** The keyed changes of one changed list setting; `undefined` for a scalar or when keys cannot say it. */
export function keyedChanges(
  outs: GuardrailOutputs,
  inputs: GuardrailInputs,
  p: FieldName,
): PropertyChange[] | undefined {
  const kind = spec(p).kind;
  if (kind === "scalar") return undefined;
  const [want, have] = [comparableInputs(inputs)[p], comparableOutputs(outs)[p]];
  if (want === null || have === null)
    return have === want ? undefined : [{ path: p, kind: want === null ? "delete" : "add" }];
  if ((MODEL_LISTS as readonly string[]).includes(p)) return modelChanges(outs, inputs, p as ModelList);
  if (kind === "set")
    return byKey(
      p,
      entries(have, (x: string) => x),
      entries(want, (x: string) => x),
    );
  if (kind === "filterSet")
    return byKey(
      p,
      entries(have, (b: { slug: string }) => b.slug),
      entries(want, (b: { slug: string }) => b.slug),
    );
  return orderedChanges(
    p,
    entries(have, (f: { pattern: string }) => f.pattern),
    entries(want, (f: { pattern: string }) => f.pattern),
  );
}
