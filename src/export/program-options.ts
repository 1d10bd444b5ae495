/**
 * Resource options a state may record that the programs of `guardrails-export --language` do not
 * write (they write `protect` only). Pasted, such a program would drop the option at the next
 * `pulumi up`: without `retainOnDelete` a later delete deletes the guardrail on the service;
 * without `ignoreChanges` an update overwrites what the stack chose to leave alone. Refused,
 * naming the first, so the user adds it by hand.
 */
import type { StateResource } from "./from-state";
import { StateMigrationError } from "./from-state";

const UNWRITTEN = [
  "retainOnDelete",
  "deletedWith",
  "ignoreChanges",
  "replaceOnChanges",
  "additionalSecretOutputs",
  "customTimeouts",
  "hideDiff",
] as const;

/** Whether a recorded option says nothing: absent, false, empty, or an object of empty values. */
const unset = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === false ||
  v === "" ||
  (Array.isArray(v) && v.length === 0) ||
  (!Array.isArray(v) && typeof v === "object" && Object.values(v as object).every((x) => !x));

/** Refuses a resource whose state sets an option the program would not write; `name` is already neutralised. */
export function refuseUnwritten(r: StateResource & Record<string, unknown>, name: string): void {
  const set = UNWRITTEN.find((o) => !unset(r[o]));
  if (set)
    throw new StateMigrationError(
      `${name}: its state sets the resource option \`${set}\`, which this command does not write: add it to the program by hand`,
    );
}
