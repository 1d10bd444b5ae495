/**
 * The user's args in a props bag, as both kinds receive it: without the bookkeeping keys a
 * face and the resource classes add. Below both kinds, which must not import each other.
 */
import { SECRET_ARGS } from "./messages";

/** Keys the Pulumi SDK and the resource classes add to a dynamic resource's props; every other key is the user's. */
const PULUMI_KEYS = new Set(["__provider", "__resource", SECRET_ARGS, "__dryRun"]);

/** Strips the bookkeeping keys (`__provider` from Pulumi, `__resource`, `__secretArgs` and the sets' `__dryRun` from the resource classes) from a props bag; a user's own `__x` stays, to be reported. */
export function userProps(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !PULUMI_KEYS.has(k)));
}
