/**
 * What refresh and preview say about a Guardrail whose policies were edited apart from it
 * (policy-drift.ts). Said on stderr, as every core warning is; the native face makes each line an
 * engine warning on the resource (native/engine-log.ts). Names and ids from outside go through the
 * terminal neutraliser and every value is bounded; a secret arg's value is never shown.
 */
import { type PolicyKind, POLICY_FIELDS, POLICY_KINDS } from "../fields/policy-kinds";
import { policyTypeOfFields } from "../kinds";
import { isSigned } from "../markers";
import { idText, visible } from "../text/terminal";
import type { UnsyncedPolicy } from "./policy-drift";

/** How a message names each kind's settings. */
const NOUN: Record<PolicyKind, string> = {
  budget: "budget",
  modelAvailability: "model access",
  moderation: "moderation",
};

/** How a message names each kind, and the resource that manages it as a policy (from the kind table). */
export const KIND_WORDS = Object.fromEntries(
  POLICY_KINDS.map((k) => [k, { noun: NOUN[k], resource: policyTypeOfFields(k) ?? k }]),
) as Record<PolicyKind, { noun: string; resource: string }>;

/** Longest value shown per setting, and longest list of settings. */
const VALUE_MAX = 120;
const SETTINGS_MAX = 600;

/** JSON with each object's keys sorted: the same text whether the value came from the service or from state (which sorts them). */
const stableJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  ) ?? "null";

function settingsText(enforces: Record<string, unknown> | null, secrets: readonly string[]): string {
  const shown = Object.entries(enforces ?? {}).map(([k, v]) =>
    secrets.includes(k) || isSigned(v) ? `${k}=[secret]` : `${k}=${visible(stableJson(v), VALUE_MAX)}`,
  );
  return shown.length === 0 ? "nothing of this kind" : visible(shown.join(", "), SETTINGS_MAX);
}

/** How a warning names the guardrail: its name neutralised, or `[secret]` when the program holds it secret. */
const guardrailWho = (name: string, secrets: readonly string[]) =>
  secrets.includes("name") ? "guardrail [secret]" : `guardrail "${visible(name)}"`;

/** The warning about one unsynced kind of guardrail `name`. */
export function driftWarning(name: string, u: UnsyncedPolicy, secrets: readonly string[] = []): string {
  const words = KIND_WORDS[u.kind];
  const who = guardrailWho(name, secrets);
  const docs = `see "When its policies were edited apart" in docs/resources/guardrail.md`;
  if (u.unlisted === true)
    return (
      `${who}: its ${words.noun} policy ${idText(u.policyId)} is no longer listed in Guardrail Policies (the last refresh ` +
      `listed it as this guardrail's): its enforcement may have changed, and the service does not say whether it was deleted; ` +
      `\`pulumi up\` cannot check or restore it through this Guardrail: look the policy up in Guardrail Policies, and manage ` +
      `these settings as a ${words.resource} or remove them from the Guardrail (${docs})`
    );
  if (u.deleted)
    return (
      `${who}: its ${words.noun} policy was deleted in Guardrail Policies, so the service no longer enforces this ` +
      `guardrail's ${words.noun} settings (${POLICY_FIELDS[u.kind].join(", ")}); \`pulumi up\` cannot restore them through ` +
      `this Guardrail: manage them as a ${words.resource}, or remove them from the Guardrail (${docs})`
    );
  return (
    `${who}: its ${words.noun} policy ${idText(u.policyId)} was edited in Guardrail Policies and no longer follows ` +
    `this guardrail; the service now enforces: ${settingsText(u.enforces, secrets)}; \`pulumi up\` cannot change it ` +
    `through this Guardrail: manage it as a ${words.resource} and remove its settings from the Guardrail (${docs})`
  );
}

/** When the policy lists cannot be read: the refresh goes on, and says the check did not happen. */
export function unreadWarning(name: string, err: unknown, secrets: readonly string[] = []): string {
  const why = visible(err instanceof Error ? err.message : String(err), 300);
  return (
    `${guardrailWho(name, secrets)}: could not check whether its Guardrail Policies were edited apart from it (${why}); ` +
    "unsyncedPolicies keeps what the last refresh recorded"
  );
}
