/**
 * An API error wrapped so it names the resource it came from (`guardrail "eng": ...`), in the
 * program's names: the service says `allowed_models[1]`, the program wrote `allowedModels[1]`.
 * Every kind's lifecycle wraps its failures so.
 */
import { GuardrailsError } from "../client/errors";
import { FIELD_NAMES, spec } from "../fields/fields";

/** Wire name -> program name, from the field table (and the names inside its values). */
const USER_NAMES = new Map<string, string>([
  ["workspace_id", "workspaceId"],
  ...FIELD_NAMES.flatMap((k) => [[spec(k).wire, k] as [string, string], ...Object.entries(spec(k).inner ?? {})]),
]);
const WIRE_NAME = new RegExp(`\\b(${[...USER_NAMES.keys()].sort((a, b) => b.length - a.length).join("|")})\\b`, "g");

/** The service names fields in snake_case (`allowed_models[1]`); the program calls them `allowedModels[1]`. */
export function inUserNames(message: string): string {
  return message.replace(WIRE_NAME, (w) => USER_NAMES.get(w) ?? w);
}

/** `annotate` for any resource named `what` (e.g. `default guardrail of workspace "eng"`). */
export function annotateAs(what: string, err: unknown): Error {
  if (err instanceof GuardrailsError) return err.wrap(`${what}: ${inUserNames(err.message)}`);
  return err instanceof Error ? err : new Error(String(err));
}
