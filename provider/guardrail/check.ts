/**
 * `check`: validate every arg before any call, all failures at once. Values still unknown
 * during preview are skipped, never reported and never sent anywhere.
 */
import { guardrailArgsSchema, type GuardrailInputs } from "../schema/guardrail-args";
import { issuesToFailures, type PropertyFailure } from "../schema/issues";
import { containsUnknown, isUnknown } from "../schema/unknown";

/** Strips Pulumi's bookkeeping keys (`__provider`, ...) from a props bag. */
export function userProps(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !k.startsWith("__")));
}

export interface CheckOutcome {
  failures: PropertyFailure[];
  /** Parsed inputs when every value is known and valid. */
  inputs?: GuardrailInputs;
}

export function checkGuardrailArgs(news: Record<string, unknown>): CheckOutcome {
  const props = userProps(news);
  const known: Record<string, unknown> = {};
  let anyUnknown = false;
  for (const [key, value] of Object.entries(props)) {
    if (containsUnknown(value)) {
      anyUnknown = true;
      // A list with some unknown items: check the known ones; an unknown scalar: skip.
      if (Array.isArray(value) && !isUnknown(value)) {
        const items = value.filter((v) => !containsUnknown(v));
        if (items.length > 0) known[key] = items;
      }
      continue;
    }
    known[key] = value;
  }
  if (anyUnknown && !("name" in known)) known.name = "unknown-during-preview";
  const parsed = guardrailArgsSchema.safeParse(known, { reportInput: true });
  if (!parsed.success) return { failures: issuesToFailures(parsed.error, Object.keys(guardrailArgsSchema.shape)) };
  return anyUnknown ? { failures: [] } : { failures: [], inputs: parsed.data };
}

/** Parses inputs that `check` already accepted (create/update/diff get known values). */
export function parseInputs(news: Record<string, unknown>): GuardrailInputs {
  const parsed = guardrailArgsSchema.safeParse(userProps(news), { reportInput: true });
  if (!parsed.success) {
    throw new Error(`invalid guardrail args: ${issuesToFailures(parsed.error).map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
  }
  // UUIDs are case-insensitive (RFC 9562); the service's own ids are lower case, so that is
  // the form sent, recorded and compared.
  const { workspaceId, adoptId } = parsed.data;
  return { ...parsed.data, ...(workspaceId ? { workspaceId: workspaceId.toLowerCase() } : {}), ...(adoptId ? { adoptId: adoptId.toLowerCase() } : {}) };
}
