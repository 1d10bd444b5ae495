/**
 * `GET /__emulator/enforcement?member=<id>|key=<hash>&workspace=<id>`: what the emulator enforces
 * for one subject in one workspace, the oracle of the migration test (issue 40) and of issue 41.
 * Documented in docs/api-contract.md, "The emulator's enforcement answer".
 *
 * Layers: the workspace's default guardrail, when the subject (a key: or its owning member) has
 * no guardrail there of its own (rule 18 says it applies to every key and member without one, and
 * a key's layers include its owner's); every other guardrail through its policies (rule 31:
 * its mapped policies, or the policies it became once edited); per kind, the policies assigned
 * directly, else the workspace default unless opted out (rules 25 and 27); and the workspace-wide
 * policies covering the workspace (rule 28). A key adds the layers of the member who owns it.
 */
import { KEYS, MEMBERS } from "./assignment-kinds";
import { budgetOf, moderation, modelAvailability, type Settings } from "./enforcement-combine";
import { badRequest } from "./http-error";
import type { Policies } from "./policies";
import { assignmentState, requireSubject, type Subject } from "./policy-assignments";
import { coveredWorkspaces, POLICY_TYPES } from "./policy-records";
import type { Store } from "./store";
import { defaultGuardrailId } from "./workspaces";

/** Where a layer comes from. */
export type Source =
  | { type: "guardrail"; id: string; via: "workspace_default" }
  | {
      type: "policy";
      id: string;
      policy_type: string;
      via: "direct" | "workspace_default";
      subject: "member" | "key";
      legacy_guardrail_ids: string[];
    }
  | { type: "workspace_wide_policy"; id: string; policy_type: string };

interface Layer {
  source: Source;
  settings: Settings;
}

/** The subjects whose assignments count: the member, or the key and the member who owns it. */
function subjectsOf(store: Store, query: URLSearchParams): Subject[] {
  const member = query.get("member");
  const key = query.get("key");
  if ((member === null) === (key === null)) throw badRequest("give exactly one of member=<user id> or key=<key hash>");
  if (member !== null) return [{ kind: "member", id: member }];
  const owner = store.data.keyInfo?.[key as string]?.member_user_id;
  return [{ kind: "key", id: key as string }, ...(owner ? [{ kind: "member" as const, id: owner }] : [])];
}

/** Whether a subject holds a guardrail of its own in `ws` (a key: one in that workspace). */
function ownsGuardrail(store: Store, ws: string, s: Subject): boolean {
  const kind = s.kind === "member" ? MEMBERS : KEYS;
  return kind
    .rows(store.data)
    .some((r) => !r.deleted && kind.assignee(r) === s.id && store.guardrail(r.guardrail_id)?.workspace_id === ws);
}

function policyLayers(policies: Policies, ws: string, subjects: Subject[]): Layer[] {
  const layers: Layer[] = [];
  const seen = new Set<string>();
  for (const s of subjects)
    for (const kind of POLICY_TYPES) {
      const state = assignmentState(policies, kind, ws, s);
      const via = (ids: string[], how: "direct" | "workspace_default") =>
        ids.map((id) => ({ p: policies.find(kind, ws, id), how }));
      for (const { p, how } of [
        ...via(state.policy_ids, "direct"),
        ...via(state.workspace_default_policy_ids, "workspace_default"),
      ]) {
        if (seen.has(p.id)) continue;
        seen.add(p.id);
        const source: Source = {
          type: "policy",
          id: p.id,
          policy_type: kind,
          via: how,
          subject: s.kind,
          legacy_guardrail_ids: [...p.legacy_guardrail_ids],
        };
        layers.push({ source, settings: p.config });
      }
    }
  return layers;
}

/** The enforcement answer for `?member=|key=` and `workspace=`. */
export function enforcement(store: Store, policies: Policies, query: URLSearchParams) {
  const ws = query.get("workspace") ?? store.data.defaultWorkspaceId;
  if (!store.data.workspaces.includes(ws)) throw badRequest(`workspace: unknown workspace "${ws}"`);
  const subjects = subjectsOf(store, query);
  for (const s of subjects) requireSubject(policies, ws, s);
  const layers: Layer[] = [];
  const dflt = store.guardrail(defaultGuardrailId(ws));
  if (dflt && subjects.some((s) => !ownsGuardrail(store, ws, s)))
    layers.push({ source: { type: "guardrail", id: dflt.id, via: "workspace_default" }, settings: dflt });
  layers.push(...policyLayers(policies, ws, subjects));
  for (const p of store.accountPolicies())
    if (coveredWorkspaces(p, store.data.workspaces).includes(ws))
      layers.push({
        source: { type: "workspace_wide_policy", id: p.id, policy_type: p.policy_type },
        settings: p.config,
      });
  const settings = layers.map((l) => l.settings);
  return {
    subject:
      subjects[0]?.kind === "member"
        ? { member: subjects[0].id }
        : { key: subjects[0]?.id, owner_member: subjects[1]?.id ?? null },
    workspace_id: ws,
    sources: layers.map((l) => l.source),
    budgets: layers.flatMap((l) => {
      const b = budgetOf(l.settings);
      return b ? [{ ...b, source: l.source }] : [];
    }),
    model_availability: modelAvailability(settings),
    moderation: moderation(settings),
  };
}
