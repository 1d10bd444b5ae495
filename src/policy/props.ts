/**
 * Reading a resource's props inside a policy without ever touching an unknown.
 *
 * CrossGuard hands a policy its props behind a proxy that throws on any unknown value, and it
 * turns that throw into one advisory for the whole check. A rule that read an unknown
 * `limitUsd` before reporting what it already found would lose a real violation, and a rule
 * that skipped it silently would pass falsely. So rules read the proxy's plain target, see
 * unknowns as values, report every violation they can prove, and only then raise the
 * "checked at up" advisory (see `checkedAtUp`).
 */
import { KINDS, type PolicyKind } from "../core/kinds";
import { isAnyUnknown } from "../core/markers";
import { UserError } from "../core/user-error";
import { quoteName } from "./quote";

/** The key under which the policy SDK's proxy returns its plain target. */
const PROXY_TARGET = "__getSpecialProxyTarget";

export type Props = Record<string, unknown>;

/** The plain object behind CrossGuard's unknown-checking proxy (or the object itself). */
export function plainProps(props: unknown): Props {
  if (props === null || typeof props !== "object") return {};
  const target = (props as Record<string, unknown>)[PROXY_TARGET];
  return (target && typeof target === "object" ? target : props) as Props;
}

/** A value read from props: `unknown: true` when it is not known yet (preview). */
export type Read<T> = { unknown: true } | { unknown: false; value: T | undefined };

/** Reads a top-level value; `null` reads as absent (the service holds null for "not set"). */
export function read<T = unknown>(props: Props, key: string): Read<T> {
  const v = props[key];
  if (isAnyUnknown(v)) return { unknown: true };
  return { unknown: false, value: (v ?? undefined) as T | undefined };
}

/** Reads a list; an unknown list, or unknown items, make the result unknown for those items. */
export function readList(
  props: Props,
  key: string,
): { unknown: boolean; value: unknown[] | undefined; unknownItems: boolean } {
  const r = read<unknown>(props, key);
  if (r.unknown) return { unknown: true, value: undefined, unknownItems: false };
  if (r.value === undefined) return { unknown: false, value: undefined, unknownItems: false };
  const list = Array.isArray(r.value) ? r.value : [];
  return { unknown: false, value: list, unknownItems: list.some(containsUnknownValue) };
}

export function containsUnknownValue(value: unknown): boolean {
  if (isAnyUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknownValue);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknownValue);
  return false;
}

/**
 * The advisory for a check that needs a value not known yet: CrossGuard's own
 * unknown-value error (so it reports it as an advisory for this policy, keeping every
 * violation already reported at its level), with a message that names the guardrail and
 * says the rule is checked at `up`. `proxied` is the props object CrossGuard passed, `key`
 * the property holding the unknown.
 */
export function checkedAtUp(proxied: unknown, key: string, message: string): Error {
  const path = [key, ...unknownPath(plainProps(proxied)[key])];
  try {
    // Touching the unknown through the proxy makes the SDK throw its own error type, which
    // is what its server recognises; our code never reads the value itself.
    let v: unknown = proxied;
    for (const seg of path) v = (v as Record<PropertyKey, unknown>)[seg];
  } catch (err) {
    if (err instanceof Error) {
      err.message = message;
      return err;
    }
  }
  // Nothing unknown to touch (a guardrail's id that is only planned is absent, not unknown):
  // the SDK's own error type, from the SDK the running pack has loaded anyway; else a plain one.
  const err = sdkUnknownError(key) ?? Object.assign(new UserError(message), { name: "UnknownValueError" });
  err.message = message;
  return err;
}

function sdkUnknownError(key: string): Error | undefined {
  try {
    const sdk = require("@pulumi/policy/proxy") as {
      UnknownValueError: new (sentinel: string, path: string[]) => Error;
      unknownStringValue: string;
    };
    return new sdk.UnknownValueError(sdk.unknownStringValue, [key]);
  } catch {
    return undefined;
  }
}

/** Path to the first unknown inside a value ([] when the value itself is unknown). */
function unknownPath(value: unknown): PropertyKey[] {
  if (isAnyUnknown(value) || value === null || typeof value !== "object") return [];
  for (const [k, v] of Object.entries(value)) {
    if (containsUnknownValue(v)) return [Array.isArray(value) ? Number(k) : k, ...unknownPath(v)];
  }
  return [];
}

/** Why a rule waits for `up`: `property` of `name` is not known in a preview. */
export const unknownMessage = (name: string, property: string, policy: string, noun = "guardrail") =>
  `${noun} ${quoteName(name)}: ${property} is not known until the resources it depends on exist; ${policy} is checked at up`;

/**
 * A finding "checked at up" on `policyType` when a workspace-wide policy's type is not known yet
 * and it leaves `field` out: it may be the kind that holds `field` with the setting left out.
 */
export const typeNotKnown = (kind: PolicyKind | undefined, props: Props, field: string) =>
  kind === KINDS.WorkspaceWidePolicy.policyKind && isAnyUnknown(props.policyType) && props[field] === undefined
    ? { violations: [], unknown: "policyType" }
    : undefined;
