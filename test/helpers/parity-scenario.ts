/**
 * The parity suite's programs, as data (parity-program.ts writes each face's program from
 * them), and the checks of what the service holds, read past both faces.
 */
import {
  DEMO_DEFAULT_WORKSPACE as DEFAULT_WS,
  DEMO_EXTRA_WORKSPACE as W2,
  DEMO_KEY_HASHES as HASH,
} from "../../emulator";
import type { Program } from "./program";
import { http } from "./spawn-emulator";
import { type Face, KINDS, type Kind, type ResourceSpec, type Value, idOf } from "./parity-program";

/** The kinds each face serves: every kind, on both faces (a face's run can be narrowed here). */
export const SERVED: Record<Face, readonly Kind[]> = { dynamic: KINDS, native: KINDS };

/** The workspace policies (issue 40) the scenario holds. */
export const POLICY_KINDS = ["BudgetPolicy", "ModelAccessPolicy", "ModerationPolicy"] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];
/** Each policy's Pulumi name and path segment. */
export const POLICY: Record<PolicyKind, { name: string; segment: string }> = {
  BudgetPolicy: { name: "budget", segment: "budget" },
  ModelAccessPolicy: { name: "models", segment: "model-availability" },
  ModerationPolicy: { name: "moderation", segment: "moderation" },
};

export const ENG_NAME = "Parity engineering";
export const OPS_NAME = "Parity operations";
export const LEGACY_NAME = "Parity legacy";
export { W2 };

/** The program at one point of the scenario. */
export interface Version {
  /** Changes to eng's args. */
  eng?: Record<string, Value>;
  members: string[];
  keys: string[];
  /** A second guardrail (the partial-failure step creates it while eng's update fails). */
  ops?: boolean;
  /** A guardrail adopted by id (`adoptId`). */
  adopt?: string;
  /** Changes to the args of W2's default guardrail (WorkspaceDefaultGuardrail). */
  wsDefault?: Record<string, Value>;
  /** Changes to the policies' args, by kind. */
  policies?: Partial<Record<PolicyKind, Record<string, Value>>>;
  /** Changes to the workspace-wide policy's args. */
  wide?: Record<string, Value>;
}

/** The policies as the parity programs first write them: members and a key, a default with opt-outs. */
const POLICIES: Record<PolicyKind, Record<string, Value>> = {
  BudgetPolicy: {
    workspaceId: DEFAULT_WS,
    name: "Parity budget",
    limitUsd: 30,
    resetInterval: "weekly",
    memberUserIds: ["user_alice"],
    keyHashes: [HASH[0]!],
  },
  ModelAccessPolicy: {
    workspaceId: DEFAULT_WS,
    name: "Parity models",
    allowedProviders: ["provider-a"],
    workspaceDefault: true,
    optedOutMemberUserIds: ["user_bob"],
    optedOutKeyHashes: [HASH[1]!],
  },
  ModerationPolicy: {
    workspaceId: DEFAULT_WS,
    name: "Parity moderation",
    contentFilterBuiltins: [{ slug: "email", action: "redact" }],
    memberUserIds: ["user_carol"],
    keyHashes: [],
  },
};

/** The workspace-wide (the API's "account") budget policy as the parity programs first write it. */
export const WIDE: Record<string, Value> = {
  name: "Parity org budget",
  policyType: "budget",
  limitUsd: 100,
  resetInterval: "monthly",
  workspaceIds: [DEFAULT_WS],
};

/** W2's default guardrail as the parity programs set it. */
export const W2_DEFAULT: Record<string, Value> = {
  workspaceId: W2,
  allowedDataRegions: ["europe"],
  limitUsd: 40,
  resetInterval: "monthly",
};

const ENG: Record<string, Value> = {
  name: ENG_NAME,
  description: "Owned by the parity suite",
  limitUsd: 50,
  resetInterval: "monthly",
  allowedModels: ["vendor-a/model-x"],
  contentFilterBuiltins: [{ slug: "email", action: "redact" }],
};

/** The resources of a version, in declaration order. */
export function resources(v: Version): ResourceSpec[] {
  const out: ResourceSpec[] = [{ kind: "Guardrail", name: "eng", args: { ...ENG, ...v.eng } }];
  out.push({
    kind: "GuardrailMemberAssignment",
    name: "eng-members",
    args: { guardrailId: idOf("eng"), memberUserIds: v.members, exclusive: true },
  });
  out.push({
    kind: "GuardrailKeyAssignment",
    name: "eng-keys",
    args: { guardrailId: idOf("eng"), keyHashes: v.keys },
  });
  out.push({ kind: "WorkspaceDefaultGuardrail", name: "w2-default", args: { ...W2_DEFAULT, ...v.wsDefault } });
  for (const k of POLICY_KINDS)
    out.push({ kind: k, name: POLICY[k].name, args: { ...POLICIES[k], ...v.policies?.[k] } });
  out.push({ kind: "WorkspaceWidePolicy", name: "wide", args: { ...WIDE, ...v.wide } });
  if (v.ops)
    out.push({ kind: "Guardrail", name: "ops", args: { name: OPS_NAME, limitUsd: 20, resetInterval: "weekly" } });
  if (v.adopt)
    out.push({
      kind: "Guardrail",
      name: "legacy",
      args: { name: LEGACY_NAME, limitUsd: 5, resetInterval: "daily", adoptId: v.adopt },
    });
  return out;
}

/** A guardrail as the service holds it (wire names), or undefined when it answers 404. */
export async function guardrail(p: Program, id: string): Promise<Record<string, any> | undefined> {
  const res = await p.api("GET", `/guardrails/${id}`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`GET guardrail ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A workspace policy as the service holds it (the detail record), or undefined when it answers 404. */
export async function policy(p: Program, kind: PolicyKind, id: string): Promise<Record<string, any> | undefined> {
  const res = await p.api("GET", `/guardrails/policies/${POLICY[kind].segment}/${id}?workspace_id=${DEFAULT_WS}`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`GET ${kind} ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A workspace-wide policy as the service lists it (it has no get by id), or undefined when not listed. */
export async function widePolicy(p: Program, id: string): Promise<Record<string, any> | undefined> {
  const res = await p.api("GET", "/guardrails/policies/account");
  if (res.status !== 200) throw new Error(`GET account policies: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as Array<Record<string, any>>).find((x) => x.id === id);
}

/** Every guardrail the service holds, in any workspace, by name (the emulator's admin view). */
export async function guardrailsByName(p: Program): Promise<Record<string, Record<string, any>>> {
  const state = (await http(p.emulator.url)("GET", "/__emulator/state")).body as {
    guardrails: Array<Record<string, any>>;
  };
  return Object.fromEntries(state.guardrails.map((g) => [g.name, g]));
}

/** The ids assigned to guardrail `id` in one set, sorted. */
export async function assigned(p: Program, id: string, set: "members" | "keys"): Promise<string[]> {
  const rows = (await p.api("GET", `/guardrails/${id}/assignments/${set}?limit=100`)).body.data as Array<
    Record<string, string>
  >;
  return rows.map((r) => (set === "members" ? r.user_id : r.key_hash) as string).sort();
}

/** The recorded outputs of one resource in the stack's state (plain export), by Pulumi name. */
export async function recorded(p: Program, name: string): Promise<Record<string, any> | undefined> {
  const { json } = await p.exportState();
  const r = (json.deployment.resources as Array<{ urn: string; outputs?: Record<string, any> }>).find((x) =>
    x.urn.endsWith(`::${name}`),
  );
  return r?.outputs;
}
