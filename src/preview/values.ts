/**
 * Values of `pulumi preview --json` as a reviewer reads them: a secret is `[secret]` whatever
 * form the engine gave it, a value not known yet is `(known after apply)`, lists are
 * comma-separated. Not yet neutralised: markdown.ts does that where the value is written.
 */
import { containsUnknown, isAnyUnknown, isSigned } from "../core/markers";

/** A secret as the engine writes it in preview JSON: `[secret]`, or a signed object (markers.ts: any signed value stays unquoted). */
export function isSecret(v: unknown): boolean {
  return v === "[secret]" || isSigned(v);
}

/** A value nobody can judge from the preview: secret, or not known until apply, anywhere inside it. */
export function isOpaque(v: unknown): boolean {
  if (isSecret(v) || isAnyUnknown(v) || containsUnknown(v)) return true;
  if (Array.isArray(v)) return v.some(isOpaque);
  if (v && typeof v === "object") return Object.values(v).some(isOpaque);
  return false;
}

/** A value as a reviewer reads it: secrets masked, lists comma-separated. */
export function show(v: unknown): string {
  if (isSecret(v)) return "[secret]";
  if (v === undefined || v === null) return "(not set)";
  if (isAnyUnknown(v)) return "(known after apply)";
  if (Array.isArray(v))
    return v.length === 0 ? "(empty)" : v.map((x) => (typeof x === "object" ? compact(x) : String(x))).join(", ");
  if (typeof v === "object") return compact(v);
  return String(v);
}

function compact(v: unknown): string {
  if (isSecret(v)) return "[secret]";
  if (v && typeof v === "object" && !Array.isArray(v))
    return `{${Object.entries(v)
      .filter(([, x]) => x !== null && x !== undefined)
      .map(([k, x]) => `${k}: ${isSecret(x) ? "[secret]" : typeof x === "object" ? compact(x) : String(x)}`)
      .join(", ")}}`;
  return String(v);
}
