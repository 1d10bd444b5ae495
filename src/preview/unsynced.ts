/**
 * The drift report's lines for Guardrails whose policies were edited apart from them (issue 40):
 * the refresh records each such kind in the output `unsyncedPolicies`
 * (core/guardrail/policy-drift.ts). `pulumi up` cannot repair it, so no step shows it as a change;
 * the report reads it from the refreshed state instead, so it is never a false "no drift".
 */
import { KIND_WORDS } from "../core/guardrail/drift-warning";
import { code } from "../core/text/markdown";
import { guardrailLabel } from "./marks";
import { nameOf } from "./steps";
import { typeOf, type PreviewStep } from "./summary";

/** At most this many entries are read per Guardrail (three kinds; more is a hostile state). */
const PER_GUARDRAIL = 6;

/** Per Guardrail URN, its last known outputs: the refreshed ones (a step's new state) over the recorded ones. */
function lastOutputs(steps: PreviewStep[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const s of steps) {
    if (typeOf(s.urn) !== "Guardrail") continue;
    const outs = s.newState?.outputs ?? (out.has(s.urn) ? undefined : s.oldState?.outputs);
    if (outs && typeof outs === "object") out.set(s.urn, outs as Record<string, unknown>);
  }
  return out;
}

/** One Markdown line per unsynced kind of each Guardrail the preview shows, sorted. */
export function unsyncedFacts(steps: PreviewStep[]): string[] {
  const lines: string[] = [];
  for (const [urn, outs] of lastOutputs(steps)) {
    const entries = Array.isArray(outs.unsyncedPolicies) ? outs.unsyncedPolicies.slice(0, PER_GUARDRAIL) : [];
    const label = `${typeof outs.name === "string" ? `${guardrailLabel(outs.name, false, 200)} ` : ""}(${code(nameOf(urn), 200)})`;
    for (const e of entries as Array<Record<string, unknown>>) {
      // An own key only: a kind spelled `__proto__` or `toString` is no kind.
      if (!Object.hasOwn(KIND_WORDS, String(e?.kind))) continue;
      const words = KIND_WORDS[e.kind as keyof typeof KIND_WORDS];
      lines.push(
        e.unlisted === true
          ? `- ${label}: its ${words.noun} policy ${code(String(e.policyId ?? "?"), 80)} is no longer listed in Guardrail Policies (the last refresh listed it as the guardrail's); its enforcement may have changed, and \`up\` cannot check or restore it (look it up in Guardrail Policies; manage its settings as a \`${words.resource}\`, or remove them from the Guardrail).`
          : e.deleted === true
            ? `- ${label}: its ${words.noun} policy was deleted in Guardrail Policies; the service no longer enforces the guardrail's ${words.noun} settings, and \`up\` cannot restore them (manage them as a \`${words.resource}\`, or remove them from the Guardrail).`
            : `- ${label}: its ${words.noun} policy ${code(String(e.policyId ?? "?"), 80)} was edited in Guardrail Policies and no longer follows the guardrail; \`up\` cannot repair it (manage it as a \`${words.resource}\` and remove its settings from the Guardrail).`,
      );
    }
  }
  return lines.sort();
}
