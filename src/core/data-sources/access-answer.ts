/**
 * The effective-access lookups' answers as both faces serve them (issue 41): the core's answer
 * (access.ts) in the program's words and in a shape every SDK can type. A layer's policy kind is
 * its `policyType` word (`modelAccess`, as `getPolicies` and `getPolicy` answer it, so a layer
 * can be passed to `getPolicy`); an allow list says `restricted` in so many words (a Go program
 * cannot tell a null list from an empty one); the subject, workspace and layers are said once, at
 * the top, so a secret member id or key hash is held by its own field and by no other.
 */
import type {
  AllowList,
  DenyList,
  EffectiveAccess,
  EffectiveBudget,
  Enforced,
  LayerKind,
  LayerRef,
  Permission,
  PermissionName,
  ZdrGroup,
} from "../access";
import { PERMISSIONS, ZDR_GROUPS } from "../access";
import { hidingSecrets } from "../args/secret-text";
import type { Connection } from "../connection";
import {
  type AccessArgs,
  type EffectiveAccessFound,
  getEffectiveAccess,
  getSubjectGuardrail,
  type SubjectGuardrailFound,
} from "./access";
import { type PolicyTypeWord, typeWordOf } from "./args";

/** A layer as the lookups answer it. */
export interface AccessLayerInfo {
  /** `workspace-default-guardrail`, `member-guardrail`, `key-guardrail`, `policy`, `workspace-default-policy` or `workspace-wide-policy`. */
  kind: LayerKind;
  /** The guardrail's or policy's id. */
  id: string;
  /** Its name; null when the service gave none. */
  name: string | null;
  /** A policy's kind, in `getPolicy`'s words. */
  policyType?: PolicyTypeWord;
  /** For a policy reached through a subject: the member or the key (a key's own, or its owner's). */
  via?: "member" | "key";
}

/** An allow list (models, providers, data regions) every layer together leaves. */
export interface AccessAllowListInfo {
  /** Whether any layer holds a list: false means no restriction, and `allowed` is null. */
  restricted: boolean;
  /** What every list together allows (an empty list allows nothing); null when `restricted` is false. */
  allowed: string[] | null;
  /** Each layer holding a list, with it: each alone denies what it leaves out. */
  restrictedBy: Array<{ layer: AccessLayerInfo; ids: string[] }>;
}

/** What every layer together leaves a member or key: each part with the layers it comes from. */
export interface EffectiveAccessInfo {
  allowedModels: AccessAllowListInfo;
  ignoredModels: { entries: Array<{ id: string; from: AccessLayerInfo[] }> };
  allowedProviders: AccessAllowListInfo;
  ignoredProviders: { entries: Array<{ id: string; from: AccessLayerInfo[] }> };
  zdr: Record<ZdrGroup, { enforced: boolean; by: AccessLayerInfo[] }>;
  permissions: Record<PermissionName, { value: false | null; decidedBy: AccessLayerInfo[]; onIn: AccessLayerInfo[] }>;
  allowedDataRegions: AccessAllowListInfo;
  builtinFilters: Array<{
    slug: string;
    action: string;
    scanScope?: string;
    from: AccessLayerInfo[];
    actionFrom: AccessLayerInfo[];
  }>;
  customFilters: Array<{ pattern: string; action: string; label?: string | null | undefined; from: AccessLayerInfo }>;
  promptInjection: { scanScope: string; from: AccessLayerInfo[] } | null;
  budgets: Array<Omit<EffectiveBudget, "from"> & { from: AccessLayerInfo }>;
  modelAliases: Record<string, string>;
}

/** Who was asked about, as both lookups answer it. */
interface AccessWhoInfo {
  workspaceId: string;
  memberId?: string;
  keyHash?: string;
  ownerMemberId?: string | null;
  ownerKnown: boolean;
}

/** What `getEffectiveAccess` answers on both faces. */
export interface EffectiveAccessResult extends AccessWhoInfo {
  layers: AccessLayerInfo[];
  access: EffectiveAccessInfo;
}

/** What `getSubjectGuardrail` answers on both faces. */
export interface SubjectGuardrailResult extends AccessWhoInfo {
  guardrails: AccessLayerInfo[];
  policies: AccessLayerInfo[];
}

const layer = (r: LayerRef): AccessLayerInfo => ({
  kind: r.kind,
  id: r.id,
  name: r.name,
  ...(r.policyKind !== undefined ? { policyType: typeWordOf(r.policyKind) } : {}),
  ...(r.via !== undefined ? { via: r.via } : {}),
});
const layers = (rs: readonly LayerRef[]) => rs.map(layer);

const allow = (l: AllowList): AccessAllowListInfo => ({
  restricted: l.allowed !== null,
  allowed: l.allowed,
  restrictedBy: l.restrictedBy.map((r) => ({ layer: layer(r.layer), ids: r.ids })),
});
const deny = (l: DenyList) => ({ entries: l.entries.map((e) => ({ id: e.id, from: layers(e.from) })) });
const enforced = (e: Enforced) => ({ enforced: e.enforced, by: layers(e.by) });
const permission = (p: Permission) => ({ value: p.value, decidedBy: layers(p.decidedBy), onIn: layers(p.onIn) });

/** Every part of `a`, its layers in the program's words. */
export function accessInfo(a: EffectiveAccess): EffectiveAccessInfo {
  return {
    allowedModels: allow(a.allowedModels),
    ignoredModels: deny(a.ignoredModels),
    allowedProviders: allow(a.allowedProviders),
    ignoredProviders: deny(a.ignoredProviders),
    zdr: Object.fromEntries(ZDR_GROUPS.map((g) => [g, enforced(a.zdr[g])])) as EffectiveAccessInfo["zdr"],
    permissions: Object.fromEntries(
      PERMISSIONS.map((p) => [p, permission(a.permissions[p])]),
    ) as EffectiveAccessInfo["permissions"],
    allowedDataRegions: allow(a.allowedDataRegions),
    builtinFilters: a.builtinFilters.map((b) => ({ ...b, from: layers(b.from), actionFrom: layers(b.actionFrom) })),
    customFilters: a.customFilters.map((c) => ({ ...c, from: layer(c.from) })),
    promptInjection: a.promptInjection && {
      scanScope: a.promptInjection.scanScope,
      from: layers(a.promptInjection.from),
    },
    budgets: a.budgets.map((b) => ({ ...b, from: layer(b.from) })),
    modelAliases: { ...a.modelAliases },
  };
}

/** `getEffectiveAccess`'s core answer as the faces serve it. */
export function effectiveAccessResult(found: EffectiveAccessFound): EffectiveAccessResult {
  const { layers: refs, access, ...who } = found;
  return { ...who, layers: layers(refs), access: accessInfo(access) };
}

/** `getSubjectGuardrail`'s core answer as the faces serve it. */
export function subjectGuardrailResult(found: SubjectGuardrailFound): SubjectGuardrailResult {
  return { ...found, guardrails: layers(found.guardrails), policies: layers(found.policies) };
}

/**
 * A catch handler that names no member id or key hash of `args`, secret or not: the client shows
 * the subject's path segment as REDACTED, but a server's message may echo the id (in any case).
 */
const quiet = (args: AccessArgs) =>
  hidingSecrets({ ...(args as Record<string, unknown>), __secretArgs: ["memberId", "keyHash", "ownerMemberId"] });

/** `getEffectiveAccess` as both faces serve it. */
export function effectiveAccessAnswer(conn: Connection, args: AccessArgs): Promise<EffectiveAccessResult> {
  return getEffectiveAccess(conn, args).then(effectiveAccessResult, quiet(args));
}

/** `getSubjectGuardrail` as both faces serve it. */
export function subjectGuardrailAnswer(conn: Connection, args: AccessArgs): Promise<SubjectGuardrailResult> {
  return getSubjectGuardrail(conn, args).then(subjectGuardrailResult, quiet(args));
}
