/**
 * One live guardrail as the settings of a declarative file: the program's camelCase names,
 * every value as the service holds it (canonical model slugs), nulls left out, plus `adoptId`
 * and the member and key sets. A value the program could not say back exactly is reported,
 * never silently changed.
 */
import { declaredGuardrailSchema } from "../declarative/file-schema";
import { spec } from "../core/fields/fields";
import { COMPARED, outputsFromWire } from "../core/guardrail/model";
import { formatPath, shown } from "../core/args/messages";
import type { WireGuardrail } from "../core/client/wire";
import type { z } from "zod";

/** A guardrail with its member and key sets, as read from the service. */
export interface LiveGuardrail {
  guardrail: WireGuardrail;
  members: string[];
  keys: string[];
}

export interface DeclaredExport {
  /** Settings in the order a file lists them; plain JSON values. */
  settings: Record<string, unknown>;
  /** Why adopting these settings would not be an exact no-op, in the user's names. */
  warnings: string[];
}

const ZDR_VENDORS = ["enforceZdrVendorA", "enforceZdrVendorB", "enforceZdrVendorC", "enforceZdrOther"] as const;

const sortedIds = (ids: readonly string[]) => [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * The declarative settings of one live guardrail.
 *
 * @param exclusive whether the sets own the whole current sets (`exclusive: true`); else they
 *   are additive and a guardrail without members (or keys) gets no set at all.
 */
export function declaredFromLive({ guardrail, members, keys }: LiveGuardrail, exclusive: boolean): DeclaredExport {
  const settings: Record<string, unknown> = { name: guardrail.name, adoptId: guardrail.id };
  if (guardrail.workspace_id) settings.workspaceId = guardrail.workspace_id;
  addSettings(settings, guardrail);
  for (const [set, ids] of [
    ["members", members],
    ["keys", keys],
  ] as const) {
    if (exclusive) settings[set] = { exclusive: true, ids: sortedIds(ids) };
    else if (ids.length > 0) settings[set] = { ids: sortedIds(ids) };
  }
  return { settings, warnings: [...zdrWarnings(settings), ...schemaWarnings(settings)] };
}

/**
 * Adds the guardrail's settings to `settings`, in table order: every field but `name`, each
 * as the provider records it, what an omitted arg means left out.
 */
export function addSettings(settings: Record<string, unknown>, guardrail: WireGuardrail): void {
  // The same wire -> program mapping the provider records as outputs, so the two never disagree.
  const outs = outputsFromWire(guardrail, undefined) as unknown as Record<string, unknown>;
  for (const p of COMPARED) {
    const value = p === "contentFilterBuiltins" ? withoutLabels(outs[p]) : outs[p];
    // What an omitted arg means (null, or the field's `absent`) is left out: the file stays minimal.
    if (p !== "name" && value !== null && value !== undefined && value !== spec(p).absent) settings[p] = value;
  }
}

/** Why adopting `settings` would not be an exact no-op, or would not load, checked with `schema`. */
export function settingsWarnings(settings: Record<string, unknown>, schema: z.ZodType): string[] {
  return [...zdrWarnings(settings), ...schemaWarnings(settings, schema)];
}

/** Builtin labels are set by the service, not by the program. */
function withoutLabels(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((b: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(b).filter(([k]) => k !== "label")),
  );
}

/**
 * A program's `enforceZdr` fills every per-vendor flag it does not give, so a guardrail that
 * holds `enforceZdr` with a vendor flag null cannot be said back: adopting it would set that flag.
 */
function zdrWarnings(settings: Record<string, unknown>): string[] {
  if (settings.enforceZdr === undefined) return [];
  return ZDR_VENDORS.filter((v) => settings[v] === undefined).map(
    (v) =>
      `${v}: the service holds null while enforceZdr is ${String(settings.enforceZdr)}; a program cannot say that, so adopting sets ${v} to ${String(settings.enforceZdr)}`,
  );
}

/** Values the declarative loader would reject (say, an enum value newer than this package). */
function schemaWarnings(settings: Record<string, unknown>, schema: z.ZodType = declaredGuardrailSchema): string[] {
  const parsed = schema.safeParse(settings, { reportInput: true });
  if (parsed.success) return [];
  return parsed.error.issues.map(
    (i) =>
      `${formatPath(i.path)}: ${i.message}${"input" in i && i.input !== undefined ? ` (got ${shown(i.input)})` : ""}; the file will not load until it is edited`,
  );
}
