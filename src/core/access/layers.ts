/**
 * Which layers apply to one member or key in one workspace (issue 41), from the facts. Each rule
 * cites its source; docs/effective-access.md has the table. `{docs}` is
 * https://openrouter.ai/docs.
 */
import { POLICY_FIELDS, POLICY_KINDS, type PolicyKind } from "../fields/policy-kinds";
import type { AccessFacts, GuardrailFacts, Layer, LayerRef, LayerSettings, PolicyFacts } from "./types";

type Who = { kind: "member" | "key"; id: string };

/** The subjects whose assignments count: a member; or a key and the member who owns it. */
function subjectsOf(facts: AccessFacts): Who[] {
  const s = facts.subject;
  if ("member" in s) return [{ kind: "member", id: s.member }];
  return [
    { kind: "key", id: s.key },
    ...(s.ownerMember !== null ? [{ kind: "member" as const, id: s.ownerMember }] : []),
  ];
}

/** A subject's own guardrail: the member's, or the key's. */
const ownGuardrail = (facts: AccessFacts, who: Who): GuardrailFacts | null =>
  who.kind === "member" ? facts.memberGuardrail : facts.keyGuardrail;

/**
 * Whether a guardrail sets a kind, so that it also appears as a policy of that kind (rule 31:
 * "only the parts the guardrail actually sets"); a budget needs a limit or an interval
 * (`includeByokInBudgets` alone restricts no spend).
 */
export function setsKind(settings: LayerSettings, kind: PolicyKind): boolean {
  const s = settings as Record<string, unknown>;
  if (kind === "budget") return s.limitUsd != null || s.resetInterval != null;
  return POLICY_FIELDS[kind].some((f) => s[f] != null);
}

const guardrailLayer = (g: GuardrailFacts, kind: LayerRef["kind"]): Layer => ({
  ref: { kind, id: g.id, name: g.name },
  settings: g.settings,
});

/**
 * The guardrail layers. The workspace default applies to every member and key "that has no
 * guardrail assignment of its own" (docs/api-contract.md rule 18); a key's layers include its
 * owner's ("All of an organization member's created API keys will implicitly follow that user's
 * guardrail assignment", {docs}/guides/features/guardrails, "Assigning Guardrails"). Silent on a
 * key without a guardrail whose owner has one, and the other way round: the default applies when
 * either of them holds none, the reading that never claims more access (docs/effective-access.md).
 */
function guardrailLayers(facts: AccessFacts, subjects: Who[]): Layer[] {
  const out: Layer[] = [];
  if (facts.workspaceDefault && subjects.some((w) => ownGuardrail(facts, w) === null))
    out.push(guardrailLayer(facts.workspaceDefault, "workspace-default-guardrail"));
  if (subjects.some((w) => w.kind === "member") && facts.memberGuardrail)
    out.push(guardrailLayer(facts.memberGuardrail, "member-guardrail"));
  if (subjects.some((w) => w.kind === "key") && facts.keyGuardrail)
    out.push(guardrailLayer(facts.keyGuardrail, "key-guardrail"));
  return out;
}

const listed = (p: PolicyFacts, who: Who) => (who.kind === "member" ? p.memberIds : p.keyHashes).includes(who.id);
const optedOut = (p: PolicyFacts, who: Who) =>
  (who.kind === "member" ? p.optedOutMemberIds : p.optedOutKeyHashes).includes(who.id);

/** A policy still mapped from a guardrail that is already a layer: the same layer, counted once (rule 31). */
const mirrors = (p: PolicyFacts, guardrails: Layer[]) =>
  p.isLegacyMapped === true && guardrails.some((g) => p.legacyGuardrailIds?.includes(g.ref.id));

/**
 * The policy layers of one subject and kind. The policies assigned to it directly; else the
 * workspace default of the kind unless it opted out: a subject with "a different policy of this
 * type assigned directly" is overridden (rule 27, `overridden_member_ids`), and its own guardrail
 * setting the kind is such a policy (rule 31: each guardrail "also appears" as policies assigned to
 * its members and keys).
 */
function policiesOf(facts: AccessFacts, who: Who, kind: PolicyKind, guardrails: Layer[]): Layer[] {
  const ofKind = facts.policies.filter((p) => p.kind === kind);
  const direct = ofKind.filter((p) => listed(p, who));
  const own = ownGuardrail(facts, who);
  const layer = (p: PolicyFacts, ref: LayerRef["kind"]): Layer => ({
    ref: { kind: ref, id: p.id, name: p.name, policyKind: kind, via: who.kind },
    settings: p.settings,
  });
  if (direct.length > 0 || (own !== null && setsKind(own.settings, kind)))
    return direct.filter((p) => !mirrors(p, guardrails)).map((p) => layer(p, "policy"));
  return ofKind
    .filter((p) => p.isWorkspaceDefault && !optedOut(p, who))
    .map((p) => layer(p, "workspace-default-policy"));
}

/**
 * Workspace-wide policies "apply to every member and API key in a workspace, and can't be
 * overridden" ({docs}/guides/features/guardrails/policies, "Where policies apply"; rule 28):
 * those naming the workspace, or every workspace when `isDefault`, minus the opted-out ones.
 */
function workspaceWideLayers(facts: AccessFacts): Layer[] {
  return facts.workspaceWide
    .filter((p) => !p.optedOutWorkspaceIds.includes(facts.workspaceId))
    .filter((p) => p.isDefault || p.workspaceIds.includes(facts.workspaceId))
    .map((p) => ({
      ref: { kind: "workspace-wide-policy" as const, id: p.id, name: p.name, policyKind: p.kind },
      settings: p.settings,
    }));
}

/** Every layer that applies to the subject, each once: guardrails, policies per subject and kind, workspace-wide. */
export function layersOf(facts: AccessFacts): Layer[] {
  const subjects = subjectsOf(facts);
  const guardrails = guardrailLayers(facts, subjects);
  const seen = new Set<string>();
  const policies = subjects
    .flatMap((who) => POLICY_KINDS.flatMap((kind) => policiesOf(facts, who, kind, guardrails)))
    .filter((l) => !seen.has(l.ref.id) && seen.add(l.ref.id) !== undefined);
  return [...guardrails, ...policies, ...workspaceWideLayers(facts)];
}
