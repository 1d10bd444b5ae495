/**
 * The drift a guardrail hides (issue 40; docs/api-contract.md rules 29 to 31). Each guardrail
 * also appears as up to three policies, and guardrail writes flow into them; once someone edits
 * one of them in Guardrail Policies (or deletes it), that kind no longer follows the guardrail,
 * and the guardrail record itself does not say so. A refresh lists the three kinds in the
 * guardrail's workspace (once per workspace and kind per provider process, shared by every
 * Guardrail: `workspacePolicies`) and records each kind the guardrail still sets whose policy is
 * no longer mapped, or is gone, as `unsyncedPolicies`; refresh and preview warn about it
 * (drift-warning.ts). A kind the guardrail no longer sets is not its drift: moving those
 * settings to a policy resource and out of the Guardrail is how the warning ends.
 *
 * A kind's policy missing from the lists says "deleted" only when the lists show the mapping at
 * all (some row carries the legacy fields). When every list of the workspace is empty, that is
 * ambiguous (a service that shows no mapping looks the same), so no deletion is inferred; but
 * each refresh records the policy it saw mapped per kind (`mappedPolicyIds`), and a kind whose
 * recorded policy is no longer listed is reported as such (`unlisted`), never silently.
 */
import type { GuardrailsClient } from "../client/client";
import { collect } from "../client/pagination";
import { PolicyClient } from "../client/policies";
import type { WirePolicySummary } from "../client/policy-wire";
import { spec } from "../fields/fields";
import { POLICY_FIELDS, POLICY_KINDS, type PolicyKind } from "../fields/policy-kinds";
import { asSecret } from "../markers";
import type { Connection } from "../connection";
import { firstTime } from "../settings/said-once";
import { driftWarning, unreadWarning } from "./drift-warning";
import type { GuardrailOutputs } from "./model";
import { knownDefaultWorkspace } from "./workspace";
import { sameUuid } from "../fields/constants";

/** One kind of the guardrail that the service no longer takes from it (the output `unsyncedPolicies`). */
export interface UnsyncedPolicy {
  /** `budget`, `modelAvailability` or `moderation`. */
  kind: PolicyKind;
  /** The policy that now holds the kind; null when it was deleted. */
  policyId: string | null;
  /** Whether the mapped policy was deleted through the policy API (then nothing of the kind is enforced from this guardrail). */
  deleted: boolean;
  /** The settings that policy now holds, in the program's arg names (unset ones left out); null when deleted or unlisted. */
  enforces: Record<string, unknown> | null;
  /**
   * The policy `policyId`, recorded at the last refresh as this guardrail's, is no longer listed,
   * and the lists do not show whether it was deleted: its enforcement may have changed. Absent
   * when false (and in state written before it existed).
   */
  unlisted?: boolean;
}

/** Per kind the guardrail sets, the policy the last refresh listed as this guardrail's (the output `mappedPolicyIds`). */
export type MappedPolicyIds = Partial<Record<PolicyKind, string>>;

/** What a refresh found: the unsynced kinds, and the policy listed per kind. */
interface Found {
  unsynced: UnsyncedPolicy[];
  mapped: MappedPolicyIds;
}

type Summary = WirePolicySummary<PolicyKind>;

/**
 * Per client (one per provider instance and settings: connection.ts), the lists read so far,
 * as promises, so Guardrails refreshed at once share one call. Kept for the process: the next
 * `pulumi` run starts a new provider process and reads again.
 */
const LISTS = new WeakMap<GuardrailsClient, Map<string, Promise<Summary[]>>>();

/** The policies of one kind in a workspace: listed at most once per client. A failure is kept too (no retry storm). */
function workspacePolicies(client: GuardrailsClient, kind: PolicyKind, workspaceId: string): Promise<Summary[]> {
  const lists = LISTS.get(client) ?? new Map<string, Promise<Summary[]>>();
  LISTS.set(client, lists);
  const key = `${kind}\0${workspaceId.toLowerCase()}`;
  let list = lists.get(key);
  if (!list) {
    list = collect(new PolicyClient(client).listPolicies(kind, workspaceId) as AsyncIterable<Summary>);
    list.catch(() => undefined); // read by each caller; never an unhandled rejection
    lists.set(key, list);
  }
  return list;
}

/**
 * Whether the guardrail sets `kind`, by rule 31's "only the parts the guardrail actually sets"
 * (a budget by its limit or reset interval; `includeByokInBudgets` alone sets nothing).
 */
export function setsKind(kind: PolicyKind, outs: Partial<Record<string, unknown>>): boolean {
  const fields: readonly string[] = kind === "budget" ? ["limitUsd", "resetInterval"] : POLICY_FIELDS[kind];
  return fields.some((k) => outs[k] !== null && outs[k] !== undefined);
}

/** A policy's config in the program's arg names, unset settings left out; secret args' values marked secret. */
function enforcedBy(kind: PolicyKind, p: Summary, secrets: readonly string[]): Record<string, unknown> {
  const config = p.config as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of POLICY_FIELDS[kind]) {
    const v = config[spec(k).wire];
    if (v === null || v === undefined) continue;
    const value = spec(k).fromWire(v as never);
    out[k] = secrets.includes(k) || secrets.includes(spec(k).fallback ?? "") ? asSecret(value) : value;
  }
  return out;
}

/** The unsynced kinds of guardrail `gid`, from the three lists of its workspace and the policies the last refresh saw (`seen`). */
function unsyncedOf(
  gid: string,
  outs: GuardrailOutputs,
  lists: Record<PolicyKind, Summary[]>,
  seen: MappedPolicyIds,
  secrets: readonly string[],
): Found {
  // A service whose lists carry no legacy fields at all says nothing about the mapping: no "deleted" is inferred from it.
  const mappingShown = POLICY_KINDS.some((k) => lists[k].some((p) => p.is_legacy_mapped !== null));
  const found: Found = { unsynced: [], mapped: {} };
  for (const kind of POLICY_KINDS) {
    if (!setsKind(kind, outs as unknown as Record<string, unknown>)) continue;
    const mine = lists[kind].filter((p) => (p.legacy_guardrail_ids ?? []).some((g) => sameUuid(g, gid)));
    for (const p of mine)
      if (p.is_legacy_mapped === false)
        found.unsynced.push({ kind, policyId: p.id, deleted: false, enforces: enforcedBy(kind, p, secrets) });
    const last = typeof seen[kind] === "string" ? seen[kind] : undefined;
    // The policy last seen is kept while none is listed, so the next refresh says it again.
    const listed = mine[0]?.id ?? last;
    if (listed) found.mapped[kind] = listed;
    if (mine.length > 0) continue;
    if (mappingShown) found.unsynced.push({ kind, policyId: null, deleted: true, enforces: null });
    else if (last) found.unsynced.push({ kind, policyId: last, deleted: false, unlisted: true, enforces: null });
  }
  return found;
}

const isKind = (k: unknown): k is PolicyKind =>
  typeof k === "string" && (POLICY_KINDS as readonly string[]).includes(k);
/** A policy id as a state may record one: text of a sane length (a 1 MB id is not kept for ever). */
const isPolicyId = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= 200;

/** The recorded `mappedPolicyIds`, each entry a kind and an id (state of earlier versions has none; hostile entries are dropped). */
const seenIn = (outs: GuardrailOutputs | undefined): MappedPolicyIds => {
  const m: unknown = outs?.mappedPolicyIds;
  if (!m || typeof m !== "object" || Array.isArray(m)) return {};
  return Object.fromEntries(Object.entries(m).filter(([k, v]) => isKind(k) && isPolicyId(v)));
};

/** The recorded `unsyncedPolicies` entries that are entries (a hostile or damaged state's others are dropped, never a crash). */
const recordedIn = (outs: GuardrailOutputs | undefined): UnsyncedPolicy[] => {
  const u: unknown = outs?.unsyncedPolicies;
  return (Array.isArray(u) ? u : []).filter(
    (e): e is UnsyncedPolicy => !!e && typeof e === "object" && isKind((e as UnsyncedPolicy).kind),
  );
};

/**
 * The refreshed outputs with `unsyncedPolicies` (left out when none, as state written before
 * 0.6.0 has it), after warning about each entry. When the lists cannot be read, it warns and
 * keeps what the previous refresh recorded: a failed check is never reported as "in sync".
 */
export async function withPolicyDrift(
  conn: Connection,
  gid: string,
  outs: GuardrailOutputs,
  previous: GuardrailOutputs | undefined,
  secrets: readonly string[],
): Promise<GuardrailOutputs> {
  const { unsyncedPolicies: _, mappedPolicyIds: _m, ...rest } = outs;
  const kept = (u: UnsyncedPolicy[] | undefined, m: MappedPolicyIds = seenIn(previous)) => ({
    ...rest,
    ...(u && u.length > 0 ? { unsyncedPolicies: u } : {}),
    ...(m && Object.keys(m).length > 0 ? { mappedPolicyIds: m } : {}),
  });
  // A guardrail older than workspaces maps into the default workspace (rule 31's choice), when the state knows it.
  const ws = outs.workspaceId ?? (previous ? knownDefaultWorkspace(previous) : null);
  if (!ws) return kept(recordedIn(previous));
  const client = conn.client();
  let lists: Record<PolicyKind, Summary[]>;
  try {
    const read = await Promise.all(POLICY_KINDS.map((k) => workspacePolicies(client, k, ws)));
    lists = Object.fromEntries(POLICY_KINDS.map((k, i) => [k, read[i]])) as Record<PolicyKind, Summary[]>;
  } catch (err) {
    console.error(unreadWarning(outs.name, err, secrets));
    return kept(recordedIn(previous));
  }
  const found = unsyncedOf(gid, outs, lists, seenIn(previous), secrets);
  say(gid, outs.name, found.unsynced, secrets);
  return kept(found.unsynced, found.mapped);
}

/** The recorded entries (unsynced kinds, policies last seen) for the kinds `settings` (the program's args or outputs) still set. */
export function stillSet(
  recorded: GuardrailOutputs | undefined,
  settings: object,
): { unsyncedPolicies?: UnsyncedPolicy[]; mappedPolicyIds?: MappedPolicyIds } {
  const sets = (kind: PolicyKind) => setsKind(kind, settings as Record<string, unknown>);
  const kept = recordedIn(recorded).filter((u) => sets(u.kind));
  const seen = Object.entries(seenIn(recorded)).filter(([k]) => sets(k as PolicyKind));
  return {
    ...(kept.length > 0 ? { unsyncedPolicies: kept } : {}),
    ...(seen.length > 0 ? { mappedPolicyIds: Object.fromEntries(seen) } : {}),
  };
}

/**
 * A preview of a Guardrail whose state records unsynced kinds: the same warnings as the refresh
 * that recorded them (for the kinds the program still sets), so it is never a silent "no change".
 * The diff reports no change for them: an update cannot reach a kind that no longer follows the guardrail.
 */
export function warnRecordedDrift(
  id: string,
  olds: GuardrailOutputs,
  settings: object,
  secrets: readonly string[],
): void {
  say(id, olds.name, stillSet(olds, settings).unsyncedPolicies ?? [], secrets);
}

/**
 * Warns about each entry once per provider process: a refresh's read and the diff the CLI runs on
 * its result (and `up --refresh`'s) say it once; the next `pulumi` run says it again.
 */
function say(gid: string, name: string, unsynced: readonly UnsyncedPolicy[], secrets: readonly string[]): void {
  for (const u of unsynced)
    if (
      firstTime(`unsynced policy\0${gid.toLowerCase()}\0${u.kind}\0${u.policyId ?? "deleted"}\0${u.unlisted === true}`)
    )
      console.error(driftWarning(name, u, secrets));
}
