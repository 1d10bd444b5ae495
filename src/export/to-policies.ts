/**
 * Moving from guardrails to Guardrail Policies (issue 40; docs/guides/moving-to-policies.md):
 * the policies equal to each guardrail's parts, assigned to the same members and keys (step 1),
 * and the workspace default policies equal to each workspace's default guardrail (step 2). Pure:
 * it plans from what was read (`fetchGuardrails`, or a test's own reads) and writes nothing.
 *
 * Why the plan never loosens anything: a policy is added beside the guardrail that already
 * restricts the same members and keys with the same settings (the stricter rule wins, every
 * budget is checked on its own), so they are restricted twice, equally. The default policies
 * opt out every member and key that holds a guardrail of the workspace whose guardrail does not
 * set that kind: the default guardrail never applied to them (docs/api-contract.md rule 18), and
 * once their guardrail goes the plan leaves them exactly as restricted as before.
 */
import { shown } from "../core/args/messages";
import type { GuardrailsClient } from "../core/client/client";
import { POLICY_FIELDS } from "../core/fields/policy-kinds";
import { KINDS, POLICY_TYPE_NAMES, type PolicyTypeName } from "../core/kinds";
import { addSettings, type LiveGuardrail } from "./declared";
import { type CurrentDefault, readCurrentDefaults } from "./current-defaults";
import { idShown } from "./elsewhere";
import { checkOptions, clientFromEnv, type ExportOptions } from "./export";
import { fetchGuardrails, type FetchSelection } from "./fetch";
import { assignStableIds } from "./stable-id";
import { renderPoliciesProgram } from "./policies-program";
import type { LiveDefault } from "./workspace-defaults";

/** The three workspace policy kinds, in the order a plan lists them (the kind table's). */
export const POLICY_RESOURCES: readonly PolicyTypeName[] = POLICY_TYPE_NAMES;

/** The suffix of a planned policy's resource name: the kind's path segment (`model-availability`). */
const suffixOf = (type: PolicyTypeName) => KINDS[type].policy.segment;

/** One policy to create: a Pulumi resource of `type` named `resourceName`, with `args` as a program writes them. */
export interface PlannedPolicy {
  type: PolicyTypeName;
  /** The Pulumi resource name: the guardrail's stable id (as `guardrails-export` names it) and the kind. */
  resourceName: string;
  /** The guardrail whose part this is (for a default policy, the workspace's default guardrail). */
  guardrailId: string;
  /** `workspaceId`, `name`, the kind's settings, and who it applies to. */
  args: Record<string, unknown>;
}

/** A guardrail that steps 3 and 4 unassign and delete. */
export interface MovedGuardrail {
  id: string;
  name: string;
  workspaceId: string;
  members: string[];
  keys: string[];
}

/** The move, step by step: what to create, and which guardrails then go. */
export interface PolicyMove {
  /** Step 1: the policies of each guardrail, assigned to its members and keys. */
  policies: PlannedPolicy[];
  /** Step 2: each workspace's default policies, equal to its configured default guardrail. */
  defaults: PlannedPolicy[];
  /** Steps 3 and 4: the guardrails whose members and keys are unassigned, and which are then deleted. */
  guardrails: MovedGuardrail[];
  /** What the plan could not copy, each naming the guardrail and why. */
  notes: string[];
}

/** What `policiesFromGuardrails` needs beside the guardrails. */
export interface PolicyMoveOptions {
  /** The configured default guardrails of the workspaces (step 2). @default none: no step 2 */
  defaults?: readonly LiveDefault[];
  /** The workspace of a guardrail older than workspaces (contract rule 10). @default such a guardrail is left out, with a note */
  defaultWorkspaceId?: string;
  /**
   * The workspaces' current default policies. A workspace has one default per kind, so a new
   * default unsets the old one, which may be stricter: step 2 leaves such a kind out, with a
   * note, unless the current default bears the planned one's name (this program's own, from an
   * earlier run). @default none
   */
  defaultPolicies?: readonly CurrentDefault[];
}

const sorted = (ids: Iterable<string>) => [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * The settings of `type` a guardrail holds, in the program's names; undefined when it sets none
 * of them. A budget is set by `limitUsd` only: `includeByokInBudgets` or `resetInterval` without
 * a limit restricts no spend (and a BudgetPolicy requires `limitUsd`).
 */
export function partOf(type: PolicyTypeName, settings: Record<string, unknown>): Record<string, unknown> | undefined {
  const fields = POLICY_FIELDS[KINDS[type].policy.fields] as readonly string[];
  const part = Object.fromEntries(fields.filter((f) => settings[f] !== undefined).map((f) => [f, settings[f]]));
  if (KINDS[type].policy.fields === "budget") return part.limitUsd === undefined ? undefined : part;
  return Object.keys(part).length > 0 ? part : undefined;
}

/** The guardrail's settings as a program writes them (nulls and what omission means left out). */
function settingsOf(g: LiveGuardrail["guardrail"]): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  addSettings(settings, g);
  return settings;
}

/**
 * The move from `guardrails` (each with its members and keys) to policies.
 *
 * @returns step 1's policies (one per kind each guardrail sets), step 2's default policies (one
 *   per kind each configured default guardrail sets, with the opt-outs that keep it exact), the
 *   guardrails steps 3 and 4 retire, and notes on what was left out.
 */
export function policiesFromGuardrails(
  guardrails: readonly LiveGuardrail[],
  options: PolicyMoveOptions = {},
): PolicyMove {
  const notes: string[] = [];
  const ids = assignStableIds(guardrails.map((l) => l.guardrail));
  const policies: PlannedPolicy[] = [];
  const moved: MovedGuardrail[] = [];
  const holders: Holders = new Map();
  for (const live of guardrails) {
    const g = live.guardrail;
    const workspaceId = g.workspace_id ?? options.defaultWorkspaceId;
    const named = `guardrail ${shown(g.name)} (${idShown(g.id)})`;
    if (!workspaceId) {
      notes.push(
        `${named} has no workspace (it is older than workspaces): left out; give defaultWorkspaceId (--workspace <the default workspace's id>) to move it`,
      );
      continue;
    }
    const settings = settingsOf(g);
    const members = sorted(live.members);
    const keys = sorted(live.keys);
    const kinds = new Set<PolicyTypeName>();
    for (const type of POLICY_RESOURCES) {
      const part = partOf(type, settings);
      if (!part) continue;
      kinds.add(type);
      policies.push({
        type,
        resourceName: `${ids.get(g.id)}-${suffixOf(type)}`,
        guardrailId: g.id,
        args: { workspaceId, name: g.name, ...part, memberUserIds: members, keyHashes: keys },
      });
    }
    if (settings.resetInterval !== undefined && settings.limitUsd === undefined)
      notes.push(`${named}: resetInterval without limitUsd restricts no spend; no BudgetPolicy is planned for it`);
    if (kinds.size === 0) notes.push(`${named} sets nothing a policy holds: it restricts nobody; no policy is planned`);
    if (members.length + keys.length === 0)
      notes.push(`${named} is assigned to nobody: its policies are planned unassigned, as it is`);
    const held = holders.get(workspaceId) ?? { members: new Map(), keys: new Map() };
    holders.set(workspaceId, held);
    for (const m of members) held.members.set(m, new Set([...(held.members.get(m) ?? []), ...kinds]));
    for (const k of keys) held.keys.set(k, new Set([...(held.keys.get(k) ?? []), ...kinds]));
    moved.push({ id: g.id, name: g.name, workspaceId, members, keys });
  }
  const defaults = defaultPoliciesOf(options, holders, notes);
  return { policies, defaults, guardrails: moved, notes };
}

/** Per workspace, each holder (member or key) and the kinds its guardrail sets. */
type Holders = Map<string, { members: Map<string, Set<PolicyTypeName>>; keys: Map<string, Set<PolicyTypeName>> }>;

/** Step 2: each configured default guardrail's kinds as default policies, with the opt-outs that keep it exact. */
function defaultPoliciesOf(options: PolicyMoveOptions, holders: Holders, notes: string[]): PlannedPolicy[] {
  const defaults: PlannedPolicy[] = [];
  // A workspace's id in its default policies' names: its first 8 characters, whole when another workspace shares them.
  const short = (id: string) => id.slice(0, 8).toLowerCase();
  const shared = (id: string) =>
    (options.defaults ?? []).some((d) => d.workspace.id !== id && short(d.workspace.id) === short(id));
  for (const { workspace, guardrail } of options.defaults ?? []) {
    const settings = settingsOf(guardrail);
    const held = holders.get(workspace.id);
    // Who holds a guardrail here was never under the default guardrail (rule 18): opted out of
    // each default kind their own guardrail does not set (a kind it sets is a direct policy, which overrides the default).
    const outOf = (all: Map<string, Set<PolicyTypeName>> | undefined, type: PolicyTypeName) =>
      sorted([...(all ?? new Map<string, Set<PolicyTypeName>>())].filter(([, k]) => !k.has(type)).map(([id]) => id));
    for (const type of POLICY_RESOURCES) {
      const part = partOf(type, settings);
      if (!part) continue;
      const current = options.defaultPolicies?.find((d) => d.workspaceId === workspace.id && d.type === type);
      if (current && current.name !== guardrail.name) {
        notes.push(
          `workspace ${idShown(workspace.id)} already has a default ${KINDS[type].policy.noun} ${shown(current.name)} (${idShown(current.id)}): a new default would unset it, so step 2 plans none of this kind; its default guardrail keeps restricting as it does`,
        );
        continue;
      }
      defaults.push({
        type,
        resourceName: `workspace-default-${shared(workspace.id) ? workspace.id.toLowerCase() : short(workspace.id)}-${suffixOf(type)}`,
        guardrailId: guardrail.id,
        args: {
          workspaceId: workspace.id,
          name: guardrail.name,
          ...part,
          workspaceDefault: true,
          optedOutMemberUserIds: outOf(held?.members, type),
          optedOutKeyHashes: outOf(held?.keys, type),
        },
      });
    }
  }
  return defaults;
}

/**
 * The move read from the service: the selected guardrails with their members and keys, and the
 * configured default guardrails of their workspaces (`fetchGuardrails`: GET calls only).
 */
export async function readPolicyMove(
  client: GuardrailsClient,
  selection: FetchSelection,
  options: Omit<PolicyMoveOptions, "defaults"> = {},
): Promise<PolicyMove> {
  const { live, defaults, leftOut } = await fetchGuardrails(client, selection);
  const defaultPolicies = await readCurrentDefaults(
    client,
    defaults.map((d) => d.workspace.id),
  );
  const move = policiesFromGuardrails(live, { ...options, defaults, defaultPolicies });
  for (const g of leftOut)
    move.notes.push(
      `guardrail ${shown(g.name)} (${idShown(g.id)}) has no workspace (it is older than workspaces) and was not read: run without --workspace, or with --all-workspaces`,
    );
  return move;
}

/** The program of steps 1 and 2, and the move it was written from. */
export interface PoliciesProgram {
  move: PolicyMove;
  /** The TypeScript program (`renderPoliciesProgram`). */
  text: string;
}

/**
 * Reads the selected guardrails and the workspaces' default guardrails (GET calls only) and
 * writes the program of steps 1 and 2 of the move to policies. The selection is the export's
 * (`workspaces`, `allWorkspaces`, `only`, `exclude`), checked the same way before any call.
 */
export async function exportPoliciesProgram(
  options: Pick<ExportOptions, "client" | "workspaces" | "allWorkspaces" | "only" | "exclude"> = {},
): Promise<PoliciesProgram> {
  const selection = checkOptions(options);
  const client = options.client ?? clientFromEnv();
  try {
    const move = await readPolicyMove(client, selection);
    return { move, text: renderPoliciesProgram(move) };
  } finally {
    if (!options.client) await client.close();
  }
}
