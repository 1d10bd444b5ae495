/**
 * `check`: validate every arg before any call, all failures at once. Values still unknown
 * during preview are never reported and never sent anywhere, but they hide nothing else: the
 * whole args object is validated, and only failures at (or inside) an unknown value are
 * dropped, so a missing `name` or a bad pattern beside an unknown field still fails preview.
 */
import { createBody } from "./bodies";
import { guardrailArgsSchema, type GuardrailInputs } from "../args/guardrail-args";
import { MAX_REQUEST_BODY_BYTES } from "../fields/constants";
import { issuesToFailures, secretArgsOf, type PropertyFailure } from "../args/messages";
import { userProps } from "../args/user-props";
import { containsUnknown, isUnknown } from "../markers";
import { UserError } from "../user-error";
import type { z } from "zod";

/** What `check` found: every failure, in the program's names. */
export interface CheckOutcome {
  failures: PropertyFailure[];
}

export function checkGuardrailArgs(news: Record<string, unknown>): CheckOutcome {
  return checkArgsWith(guardrailArgsSchema, news, (inputs) => inputs);
}

/**
 * `check` over any args schema whose settings are the field table's (Guardrail, a workspace's
 * default guardrail): every failure but those at an unknown value, then the body limit of the
 * guardrail inputs `asGuardrail` makes of the parsed args.
 */
export function checkArgsWith<S extends z.ZodObject>(
  schema: S,
  news: Record<string, unknown>,
  asGuardrail: (inputs: z.output<S>) => GuardrailInputs,
): CheckOutcome {
  const props = userProps(news);
  const anyUnknown = containsUnknown(props);
  const parsed = schema.safeParse(props, { reportInput: true });
  if (!parsed.success) {
    const issues = parsed.error.issues.filter((issue) => !touchesUnknown(props, issue.path));
    return { failures: issuesToFailures({ issues }, Object.keys(schema.shape), secretArgsOf(news)) };
  }
  if (anyUnknown) return { failures: [] };
  const tooLarge = bodyLimitFailure(asGuardrail(parsed.data));
  return { failures: tooLarge ? [tooLarge] : [] };
}

/** Whether the value at `path`, or any value on the way to it, is unknown. */
function touchesUnknown(props: Record<string, unknown>, path: readonly PropertyKey[]): boolean {
  let v: unknown = props;
  for (const seg of path) {
    if (isUnknown(v)) return true;
    if (v === null || typeof v !== "object") return false;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return isUnknown(v);
}

/**
 * The service refuses request bodies over its limit (413); a create body that big is caught
 * here, naming the largest property, rather than at `up`. A PATCH body never holds more than
 * the create body would.
 */
function bodyLimitFailure(inputs: GuardrailInputs): PropertyFailure | undefined {
  const size = Buffer.byteLength(JSON.stringify(createBody(inputs)));
  if (size <= MAX_REQUEST_BODY_BYTES) return undefined;
  const sizes = Object.entries(inputs).map(([k, v]) => [k, Buffer.byteLength(JSON.stringify(v ?? null))] as const);
  const [largest = "name", largestSize = 0] = sizes.reduce((a, b) => (b[1] > a[1] ? b : a), ["", -1] as readonly [
    string,
    number,
  ]);
  return {
    property: largest,
    reason: `makes the request body ${size} bytes, over the service's limit of ${MAX_REQUEST_BODY_BYTES} bytes (${largest} alone is ${largestSize} bytes); shorten it`,
  };
}

/** Parses inputs that `check` already accepted (create/update/diff get known values). */
export function parseInputs(news: Record<string, unknown>): GuardrailInputs {
  const parsed = guardrailArgsSchema.safeParse(userProps(news), { reportInput: true });
  if (!parsed.success) {
    throw new UserError(
      `invalid guardrail args: ${issuesToFailures(parsed.error, [], secretArgsOf(news))
        .map((f) => `${f.property}: ${f.reason}`)
        .join("; ")}`,
    );
  }
  // UUIDs are case-insensitive (RFC 9562); the service's own ids are lower case, so that is
  // the form sent, recorded and compared.
  const { workspaceId, adoptId } = parsed.data;
  return {
    ...parsed.data,
    ...(workspaceId ? { workspaceId: workspaceId.toLowerCase() } : {}),
    ...(adoptId ? { adoptId: adoptId.toLowerCase() } : {}),
  };
}
