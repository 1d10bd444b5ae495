/**
 * The drift check's Markdown: from `pulumi preview --refresh --json` on the default branch, a
 * headline saying whether the service still matches Git, what was changed by hand (in the words
 * of the change, not of the repair), then the usual preview summary of what `pulumi up` would do.
 */
import { FOREIGN, NOT_ASSIGNED, parseOnGuardrail, parseUnconfirmed } from "../core/assignments/status";
import { code } from "../core/text/markdown";
import { UserError } from "../core/user-error";
import { guardrailLabel } from "./marks";
import { summarizePreview, typeOf, type PreviewJson, type PreviewStep } from "./summary";
import { nameOf } from "./steps";
import { isTypeName, KINDS, type SetStateKey } from "../core/kinds";
import { unsyncedFacts } from "./unsynced";

/** An id or a key from the service as a code span (at most 200 characters). */
const literal = (s: string) => code(s, 200);
/** A guardrail's name as the PR summary shows it: a code span, marked when it can pass for another (issue 38). */
const named = (s: string) => guardrailLabel(s, false, 200);

/** The parts of `pulumi preview --json` the drift check reads beyond the steps. */
export interface DriftPreviewJson extends PreviewJson {
  diagnostics?: Array<{ severity?: string; message?: string }>;
}

/** The preview failed or is not a preview, so nobody can say whether the service drifted. */
export class DriftUnknownError extends UserError {}

/** A set's state key, by its type name; `undefined` for any other resource. */
const setKeyOf = (type: string): SetStateKey | undefined => {
  const row = isTypeName(type) ? KINDS[type] : undefined;
  return row && "set" in row ? row.set.stateKey : undefined;
};
const changed = (op: string) => op !== "same" && op !== "read" && op !== "refresh";

/** The changed steps of a preview; throws DriftUnknownError when it did not complete. */
export function driftSteps(preview: DriftPreviewJson): PreviewStep[] {
  if (!preview || typeof preview !== "object" || !Array.isArray(preview.steps)) {
    throw new DriftUnknownError(
      "the input has no `steps` list; expected the JSON of `pulumi preview --refresh --json`",
    );
  }
  const errors = (preview.diagnostics ?? []).filter((d) => d?.severity === "error");
  if (errors.length > 0)
    throw new DriftUnknownError(
      `the preview reported ${errors.length} error(s), so drift is unknown; the first: ${String(
        errors[0]!.message ?? "",
      )
        .trim()
        .slice(0, 500)}`,
    );
  return preview.steps.filter((s) => s && typeof s.op === "string" && typeof s.urn === "string" && changed(s.op));
}

/**
 * True when `pulumi up` would change something, or a Guardrail's policies were edited apart from
 * it (`unsyncedPolicies`, which no `up` can repair): the service no longer matches Git.
 */
export function hasDrift(preview: DriftPreviewJson): boolean {
  return driftSteps(preview).length > 0 || unsyncedFacts(preview.steps ?? []).length > 0;
}

/** Markdown for the drift issue (or the job summary when there is none). */
export function summarizeDrift(preview: DriftPreviewJson): string {
  const steps = driftSteps(preview);
  const unsynced = unsyncedFacts(preview.steps ?? []);
  if (steps.length === 0 && unsynced.length === 0)
    return "## Guardrails: no drift\n\nThe service matches Git: `pulumi preview --refresh` found nothing to change.\n";
  const names = guardrailNames(preview.steps ?? []);
  const refreshed = new Set((preview.steps ?? []).filter((s) => s.op === "refresh" && s.oldState).map((s) => s.urn));
  // Sorted, so the text does not depend on the order the engine finished its steps in.
  const facts = steps.flatMap((s) => describe(s, names, refreshed.has(s.urn))).sort();
  const shown =
    facts.length > MAX_FACTS ? [...facts.slice(0, MAX_FACTS), `- … and ${facts.length - MAX_FACTS} more`] : facts;
  return bounded(
    [
      "## Guardrails drift: the service no longer matches Git",
      ...(steps.length > 0
        ? [
            `\`pulumi preview --refresh\` found ${steps.length} resource(s) that \`pulumi up\` would change. What differs:`,
            shown.join("\n"),
          ]
        : []),
      ...(unsynced.length > 0
        ? [
            'Guardrail policies edited in Guardrail Policies: the service no longer takes these kinds from the guardrail, and `pulumi up` cannot repair it (docs/resources/guardrail.md, "When its policies were edited apart"):',
            unsynced.slice(0, MAX_FACTS).join("\n"),
          ]
        : []),
      ...(steps.length > 0
        ? ["What `pulumi up` would do (before: the service now; after: Git):", summarizePreview(preview).trimEnd()]
        : []),
    ].join("\n\n") + "\n",
  );
}

/** At most this many lines of hand changes, and characters in all: a GitHub issue body holds 65,536. */
export const MAX_FACTS = 200;
export const MAX_DRIFT_CHARS = 60_000;

/** Cuts at a line end under the limit, and says how much is left out. */
function bounded(text: string): string {
  if (text.length <= MAX_DRIFT_CHARS) return text;
  const cut = text.lastIndexOf("\n", MAX_DRIFT_CHARS - 200);
  return `${text.slice(0, cut)}\n\n… cut here: ${text.length - cut} more characters. The drift job's log has the whole preview.\n`;
}

/** A guardrail's label: its name (when it has one) and its logical name, `` `Display name` (`logical`) ``. */
interface Label {
  name?: string;
  text: string;
}

/** Guardrail id -> its label, from every step that knows the id. */
function guardrailNames(steps: PreviewStep[]): Map<string, Label> {
  const names = new Map<string, Label>();
  for (const s of steps) {
    if (typeOf(s.urn) !== "Guardrail") continue;
    const name = s.newState?.inputs?.name ?? s.oldState?.inputs?.name ?? s.oldState?.outputs?.name;
    const label: Label =
      typeof name === "string"
        ? { name, text: `${named(name)} (${literal(nameOf(s.urn))})` }
        : { text: `(${literal(nameOf(s.urn))})` };
    for (const id of [s.oldState?.id, s.newState?.id]) if (typeof id === "string" && id) names.set(id, label);
  }
  return names;
}

/** One line per difference a step stands for, in the words of what happened on the service. */
function describe(s: PreviewStep, names: Map<string, Label>, wasInState: boolean): string[] {
  const logical = literal(nameOf(s.urn));
  const kind = setKeyOf(typeOf(s.urn));
  if (typeOf(s.urn) === "Guardrail") {
    const label =
      names.get(String(s.oldState?.id ?? ""))?.text ??
      `${typeof s.newState?.inputs?.name === "string" ? `${named(s.newState.inputs.name)} ` : ""}(${logical})`;
    if (s.op === "create")
      return [
        wasInState
          ? `- ${label} is gone from the service (deleted by hand?); \`up\` creates it again, with a new id.`
          : `- ${label} is in Git but was never applied; \`up\` creates it.`,
      ];
    if (s.op === "delete") return [`- ${label} is no longer in Git but still in the stack; \`up\` deletes it.`];
    if (s.op === "update") {
      const before = s.oldState?.inputs ?? {};
      const after = s.newState?.inputs ?? {};
      const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
        .filter((k) => !k.startsWith("__") && JSON.stringify(before[k]) !== JSON.stringify(after[k]))
        .sort();
      return [`- ${label}: ${keys.length ? keys.map(literal).join(", ") : "settings"} changed on the service.`];
    }
    return [`- ${label}: \`up\` would ${s.op} it.`];
  }
  if (!kind) return [];
  const owner =
    names.get(String(s.oldState?.inputs?.guardrailId ?? s.newState?.inputs?.guardrailId ?? ""))?.text ?? logical;
  if (s.op !== "update")
    return s.op === "create" && wasInState
      ? []
      : [`- ${kind === "members" ? "Member" : "Key"} set ${logical} of ${owner}: \`up\` would ${s.op} it.`];
  const held = (s.oldState?.outputs?.[kind] ?? {}) as Record<string, unknown>;
  const lines: string[] = [];
  for (const id of Object.keys(held).sort()) {
    const v = held[id];
    if (v === true) continue;
    // Statuses name the guardrail where the provider knew it; earlier versions wrote only its id.
    const moved = typeof v === "string" ? parseOnGuardrail(v) : undefined;
    // A failed up's mark (issue 38) is no hand's doing.
    const unconfirmed = parseUnconfirmed(v);
    const byName =
      moved?.name === undefined ? [] : [...new Set(names.values())].filter((label) => label.name === moved.name);
    const known =
      moved &&
      (names.get(moved.id) ??
        (byName.length === 1 ? byName[0] : undefined) ??
        [...names].find(([id]) => moved.name !== undefined && id.startsWith(moved.id))?.[1]);
    const where = moved
      ? `moved by hand to ${known?.text ?? (moved.name !== undefined ? named(moved.name) : literal(moved.id))}`
      : v === NOT_ASSIGNED
        ? "unassigned by hand"
        : v === FOREIGN
          ? "assigned here by hand, not in Git"
          : unconfirmed
            ? `not known whether assigned here (an \`up\` failed before the service said)${unconfirmed.foreign ? ", not in Git" : ""}`
            : `${literal(String(v))} (by hand)`;
    lines.push(`- ${literal(id)} of ${owner}: ${where}.`);
  }
  return lines.length
    ? lines
    : [`- ${kind === "members" ? "Member" : "Key"} set ${logical} of ${owner} differs from Git.`];
}
