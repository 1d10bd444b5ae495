/**
 * A resource (a Guardrail, a policy) whose args are secret never has their values named by a failure: the service's own
 * text may echo them (a 400 quoting `member_ids[0]: unknown member "user_x"`), and so may any
 * message built from it. As a secret set's failures (assignments/secret-ids.ts), every string of
 * every secret arg the program or the state holds is replaced by `[secret]` before the error
 * leaves the core, and the error keeps no `cause` (the original names them).
 */
import { withoutIds } from "../text/without-ids";

/** The names a bag marks secret (`__secretArgs`; a malformed record: every key). */
function secretNamesOf(bag: Record<string, unknown>): string[] {
  const n = bag.__secretArgs;
  if (n === undefined) return [];
  return Array.isArray(n) && n.every((x) => typeof x === "string") ? n : Object.keys(bag);
}

/** Every string inside `v`, its blanks dropped (withoutIds reads a text without them, so an id split by them is matched whole). */
function stringsIn(v: unknown, out: string[]): void {
  if (typeof v === "string") {
    const bare = v.replace(/\s/g, "");
    if (bare !== "") out.push(bare);
  } else if (Array.isArray(v)) for (const x of v) stringsIn(x, out);
  else if (v && typeof v === "object") for (const x of Object.values(v)) stringsIn(x, out);
}

/** The values no message may name: each secret arg's strings, in each bag and its recorded `args`. */
export function secretStrings(...bags: Array<Record<string, unknown> | undefined>): string[] {
  const out: string[] = [];
  for (const bag of bags) {
    if (!bag) continue;
    const args = (bag.args ?? {}) as Record<string, unknown>;
    for (const n of secretNamesOf(bag)) if (!n.startsWith("__")) stringsIn([bag[n], args[n]], out);
  }
  return [...new Set(out)];
}

/** A catch handler: the failure again with no secret value named; as it was when there is none. */
export function hidingSecrets(...bags: Array<Record<string, unknown> | undefined>) {
  const hidden = secretStrings(...bags);
  return (err: unknown): never => {
    if (hidden.length === 0 || !(err instanceof Error)) throw err;
    const message = withoutIds(err.message, hidden);
    const said = (err as { serverMessage?: unknown }).serverMessage;
    if (message === err.message && (typeof said !== "string" || withoutIds(said, hidden) === said)) throw err;
    // The same class (and so `status`, a UserError's quiet exit), with the text redacted and no cause.
    const copy = Object.assign(Object.create(Object.getPrototypeOf(err) as object) as Error, err);
    const set = (k: string, value: unknown) =>
      Object.defineProperty(copy, k, { value, writable: true, configurable: true, enumerable: false });
    set("message", message);
    set("cause", undefined);
    set("stack", `${err.name}: ${message}`);
    if (typeof said === "string") set("serverMessage", withoutIds(said, hidden));
    throw copy;
  };
}
