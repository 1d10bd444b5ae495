/**
 * What differs for a workspace policy: the program against the state (diff: each setting, each
 * member and key joining or leaving, each opt-out, the default flag), and the service against
 * the state (the concurrency check before an update writes anything).
 */
import { asSecret } from "../markers";
import { visible } from "../text/terminal";
import { keyPath, type PropertyChange } from "../results";
import { UserError } from "../user-error";
import { ID_LISTS, type IdList, type PolicyInputs } from "./args";
import { asSet, desired, fieldsOf, key, sameSet, settingsOf, type PolicyOutputs } from "./model";
import type { WirePolicyDetail } from "./ops";
import { LIST_WIRE } from "./model";
import type { PolicyTypeName } from "../kinds";
import type { FieldName } from "../fields/fields";

/** The settings the program changed, or that drifted from what the service answered the last write. */
export function changedSettings(type: PolicyTypeName, olds: PolicyOutputs, inputs: PolicyInputs): FieldName[] {
  return fieldsOf(type).filter(
    (k) => key(k, desired(inputs, k)) !== key(k, desired(olds.args ?? {}, k)) || key(k, olds[k]) !== olds.written?.[k],
  );
}

/** The managed lists whose ids differ from the ones the service held at the last read. */
export const changedLists = (olds: PolicyOutputs, inputs: PolicyInputs): IdList[] =>
  ID_LISTS.filter((l) => inputs[l] !== undefined && !sameSet(inputs[l], olds[l]));

/** One list's change as keyed paths (`memberUserIds["user_x"]`), or its name alone when secret. */
function listChanges(l: IdList, was: readonly string[], now: readonly string[], secret: boolean): PropertyChange[] {
  if (secret) return [{ path: l, kind: "update" }];
  const [before, after] = [new Set(was), new Set(now)];
  return [
    ...asSet(now)
      .filter((id) => !before.has(id))
      .map((id): PropertyChange => ({ path: keyPath(l, id), kind: "add" })),
    ...asSet(was)
      .filter((id) => !after.has(id))
      .map((id): PropertyChange => ({ path: keyPath(l, id), kind: "delete" })),
  ];
}

/** Every change the program asks for, in the program's names. */
export function policyChanges(
  type: PolicyTypeName,
  olds: PolicyOutputs,
  inputs: PolicyInputs,
  isSecret: (arg: string) => boolean,
): PropertyChange[] {
  const name: PropertyChange[] = inputs.name !== olds.name ? [{ path: "name", kind: "update" }] : [];
  const settings = changedSettings(type, olds, inputs).map((k): PropertyChange => ({ path: k, kind: "update" }));
  const lists = changedLists(olds, inputs).flatMap((l) => listChanges(l, olds[l], inputs[l] ?? [], isSecret(l)));
  const flag: PropertyChange[] =
    (inputs.workspaceDefault ?? false) !== olds.workspaceDefault ? [{ path: "workspaceDefault", kind: "update" }] : [];
  return [...name, ...settings, ...lists, ...flag];
}

/** How many ids a message names before "and N more". */
const SHOWN_IDS = 10;

/** The first ids, each quoted and neutralised for a terminal (at most 80 characters), then how many more. */
export function shownIds(ids: readonly string[], max = SHOWN_IDS): string {
  const head = ids
    .slice(0, max)
    .map((id) => JSON.stringify(visible(id, 80)))
    .join(", ");
  return ids.length > max ? `${head} and ${ids.length - max} more` : head;
}

/** How many characters of a name the service now holds a message shows. */
const SHOWN_NAME = 200;

/** A list's change since the last read, as a person reads it: ids unless secret, counts if secret. */
export function listDrift(l: string, was: readonly string[], now: readonly string[], secret: boolean): string {
  const [before, after] = [new Set(was), new Set(now)];
  const added = asSet(now).filter((id) => !before.has(id));
  const removed = asSet(was).filter((id) => !after.has(id));
  if (secret) return `${l} (${added.length} added, ${removed.length} removed)`;
  // Ids come from the service: each neutralised for a terminal (idText), and only the first few.
  const part = (verb: string, ids: string[]) => (ids.length > 0 ? `${verb} ${shownIds(ids)}` : "");
  return `${l} (${[part("added", added), part("removed", removed)].filter(Boolean).join("; ")})`;
}

/**
 * What the service holds that differs from the state's last read: the name, the settings, the
 * default flag and each list this resource manages (`managed`: another list is not ours to
 * judge). Empty when nothing changed.
 */
export function changedSinceRead(
  type: PolicyTypeName,
  olds: PolicyOutputs,
  live: WirePolicyDetail,
  managed: readonly IdList[],
  isSecret: (arg: string) => boolean,
): string[] {
  const settings = settingsOf(type, live.config);
  const found: string[] = [];
  if (live.name !== olds.name)
    found.push(isSecret("name") ? "name" : `name (now ${JSON.stringify(visible(live.name, SHOWN_NAME))})`);
  for (const k of fieldsOf(type)) if (key(k, settings[k]) !== key(k, olds[k])) found.push(k);
  if ((live.is_workspace_default === true) !== olds.workspaceDefault) found.push("workspaceDefault");
  for (const l of managed) {
    const now = (live[LIST_WIRE[l] as keyof WirePolicyDetail] as string[] | null | undefined) ?? [];
    if (!sameSet(now, olds[l])) found.push(listDrift(l, olds[l], now, isSecret(l)));
  }
  return found;
}

/** The error of an update that met a change made since the last read: nothing is written. */
export function changedElsewhere(what: string, found: readonly string[]): UserError {
  return new UserError(
    `${what}: changed on the service since the last refresh: ${found.join("; ")}. Nothing was written, so that change is not overwritten. Run \`pulumi refresh\` to see it, then \`pulumi up\` (or change the program to keep it).`,
  );
}

/** The outputs with every copy of a secret arg in Pulumi's secret envelope (its own name, `args`, `written`). */
export function sealed(outs: PolicyOutputs, names: readonly string[]): Record<string, unknown> {
  if (names.length === 0) return outs;
  const copy: Record<string, unknown> = { ...outs, __secretArgs: [...names] };
  const args: Record<string, unknown> = { ...outs.args };
  const written: Record<string, unknown> = { ...outs.written };
  for (const n of names) {
    if (copy[n] !== undefined) copy[n] = asSecret(copy[n]);
    if (args[n] !== undefined) args[n] = asSecret(args[n]);
    if (written[n] !== undefined) written[n] = asSecret(written[n]);
  }
  return { ...copy, args, written };
}

/** An import's inputs with each secret arg in Pulumi's secret envelope, and the names recorded. */
export function sealedInputs(inputs: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  if (names.length === 0) return inputs;
  const copy: Record<string, unknown> = { ...inputs, __secretArgs: [...names] };
  for (const n of names) if (copy[n] !== undefined) copy[n] = asSecret(copy[n]);
  return copy;
}
