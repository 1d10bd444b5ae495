/**
 * The data sources on the dynamic face: plain async functions over the client (and the
 * `...Output` forms of those that take a member id or key hash, which may be secret), with the names,
 * args and answers of the native face's invokes (src/core/data-sources), so a program reads the
 * same on either face. They run in the program, reading the stack config (`guardrails:apiKey`,
 * `guardrails:baseUrl`, the tuning settings) and the environment as the resources do, with the
 * same checks at the first use (config-warnings.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import type { GuardrailsClient } from "../core/client/client";
import type { Connection } from "../core/connection";
import type { AccessArgs } from "../core/data-sources/access";
import * as access from "../core/data-sources/access-answer";
import type {
  AccessAllowListInfo,
  AccessLayerInfo,
  EffectiveAccessInfo,
  EffectiveAccessResult,
  SubjectGuardrailResult,
} from "../core/data-sources/access-answer";
import * as lookups from "../core/data-sources/lookups";
import type {
  GuardrailInfo,
  GuardrailKeysFound,
  GuardrailMembersFound,
  GuardrailsFound,
} from "../core/data-sources/lookups";
import type { PolicyTypeWord } from "../core/data-sources/args";
import * as policies from "../core/data-sources/policies";
import type {
  PoliciesFound,
  PolicyInfo,
  PolicySettingsInfo,
  PolicySummaryInfo,
  SubjectAssignmentInfo,
  SubjectPoliciesFound,
  WorkspaceWidePolicyInfo,
} from "../core/data-sources/policies";
import * as workspaces from "../core/data-sources/workspaces";
import type { WorkspaceInfo, WorkspacesFound } from "../core/data-sources/workspaces";
import { configure, processConfig } from "../core/settings/config";
import { explainAuthError, explainUrlError } from "../core/settings/key-source";
import { reportConfigOnce } from "./config-warnings";

export type {
  AccessAllowListInfo,
  AccessLayerInfo,
  EffectiveAccessInfo,
  EffectiveAccessResult,
  GuardrailInfo,
  GuardrailKeysFound,
  GuardrailMembersFound,
  GuardrailsFound,
  PoliciesFound,
  PolicyTypeWord,
  PolicyInfo,
  PolicySettingsInfo,
  PolicySummaryInfo,
  SubjectAssignmentInfo,
  SubjectGuardrailResult,
  SubjectPoliciesFound,
  WorkspaceInfo,
  WorkspacesFound,
  WorkspaceWidePolicyInfo,
};

/** Runs a lookup with the connection the stack config and environment describe. */
async function withConnection<T>(fn: (conn: Connection) => Promise<T>): Promise<T> {
  reportConfigOnce();
  const config = pulumi.runtime.allConfig();
  configure((key) => config[key]);
  try {
    return await fn(processConfig);
  } catch (err) {
    throw explainUrlError(explainAuthError(err));
  }
}

/** Runs a lookup with the client the stack config and environment describe. */
const withClient = <T>(fn: (client: GuardrailsClient) => Promise<T>): Promise<T> =>
  withConnection((conn) => fn(conn.client()));

/**
 * One guardrail another team manages, by `id`, or by exact `name` within `workspaceId` (the
 * default workspace when omitted). Rejects when nothing matches, and when a name matches more
 * than one guardrail (the message names every id).
 */
export function getGuardrail(args: { id: string } | { name: string; workspaceId?: string }): Promise<GuardrailInfo> {
  return withClient((client) => lookups.getGuardrail(client, args));
}

/**
 * The guardrails of `workspaceId` (the default workspace when omitted), sorted by name then id,
 * optionally only those whose name matches `nameRegex` (an RE2 regular expression, matched in
 * linear time: no lookarounds, no backreferences; unanchored; at most 256 characters).
 */
export function getGuardrails(args: { workspaceId?: string; nameRegex?: string } = {}): Promise<GuardrailsFound> {
  return withClient((client) => lookups.getGuardrails(client, args));
}

/** The member user ids assigned to a guardrail, sorted (the names `GuardrailMemberAssignment` uses). */
export function getGuardrailMembers(args: { guardrailId: string }): Promise<GuardrailMembersFound> {
  return withClient((client) => lookups.getGuardrailMembers(client, args));
}

/** The key hashes assigned to a guardrail, sorted (the names `GuardrailKeyAssignment` uses). */
export function getGuardrailKeys(args: { guardrailId: string }): Promise<GuardrailKeysFound> {
  return withClient((client) => lookups.getGuardrailKeys(client, args));
}

/**
 * One workspace, by `id`, `slug` or exact `name` (give exactly one), with the id of its default
 * guardrail (`defaultGuardrailId`). Rejects when nothing matches, and when a name matches more
 * than one workspace (the message names every id).
 */
export function getWorkspace(args: { id: string } | { slug: string } | { name: string }): Promise<WorkspaceInfo> {
  return withClient((client) => workspaces.getWorkspace(client, args));
}

/** Every workspace of the organization, sorted by name then id (a workspace without a name last). */
export function getWorkspaces(): Promise<WorkspacesFound> {
  return withClient((client) => workspaces.getWorkspaces(client));
}

/**
 * The Guardrail Policies of a workspace (its id or slug), summaries sorted by kind, name and id:
 * with `policyType`, that kind's only (one list read), else all three (three lists). Every page
 * is read. A slug costs one more call.
 */
export function getPolicies(args: { workspaceId: string; policyType?: PolicyTypeWord }): Promise<PoliciesFound> {
  return withClient((client) => policies.getPolicies(client, args));
}

/**
 * One Guardrail Policy, by kind, id and workspace (its id or slug), with its settings, members,
 * keys, opt-outs, default flag, `reference` and legacy fields: one call (a slug costs one more).
 */
export function getPolicy(args: { policyType: PolicyTypeWord; id: string; workspaceId: string }): Promise<PolicyInfo> {
  return withClient((client) => policies.getPolicy(client, args));
}

/** The args of `getSubjectPolicies`: one member (`memberId`) or one API key (`keyHash`) in a workspace. */
export type SubjectPoliciesArgs = ({ memberId: string; keyHash?: never } | { keyHash: string; memberId?: never }) & {
  /** The workspace: its id (UUID) or slug. */
  workspaceId: string;
  /**
   * Whether to read the workspace-wide policies covering the workspace (one more call). A
   * workspace-scoped key cannot: pass false with one. @default true
   */
  workspaceWide?: boolean;
};

/**
 * The Guardrail Policies that apply to one member or API key in a workspace: per kind, the
 * policies assigned to it directly, the workspace defaults it inherits and whether it opted out,
 * and the workspace-wide policies covering the workspace. Four calls (a slug costs one more).
 * Messages never quote the member id or key hash. To keep a secret id secret, call
 * `getSubjectPoliciesOutput`, whose answer is secret when an arg is.
 */
export function getSubjectPolicies(args: SubjectPoliciesArgs): Promise<SubjectPoliciesFound> {
  return withClient((client) => policies.getSubjectPolicies(client, args));
}

/**
 * `getSubjectPolicies` over Pulumi inputs: pass a secret member id or key hash (for example a
 * key's hash read as a secret) and the answer is a secret output, as Pulumi's generated
 * `get...Output` functions do.
 */
export function getSubjectPoliciesOutput(
  args: pulumi.Input<{
    memberId?: pulumi.Input<string>;
    keyHash?: pulumi.Input<string>;
    workspaceId: pulumi.Input<string>;
    workspaceWide?: pulumi.Input<boolean>;
  }>,
): pulumi.Output<SubjectPoliciesFound> {
  return pulumi.output(args).apply((a) => getSubjectPolicies(a as SubjectPoliciesArgs));
}

/**
 * The args of `getEffectiveAccess` and `getSubjectGuardrail`: one member (`memberId`) or one API
 * key (`keyHash`, with `ownerMemberId`, the member who owns it, when known: the service does not
 * say), in `workspaceId` (its id or slug; omitted: the organization's only workspace).
 */
export type AccessLookupArgs = AccessArgs;

/** `AccessLookupArgs` as Pulumi inputs: any of them may be secret, and the answer then is. */
export type AccessLookupInputs = pulumi.Input<{
  memberId?: pulumi.Input<string>;
  keyHash?: pulumi.Input<string>;
  ownerMemberId?: pulumi.Input<string>;
  workspaceId?: pulumi.Input<string>;
}>;

/**
 * What a member or an API key can use in a workspace after every layer applies (issue 41,
 * docs/effective-access.md): the layers found, each with its kind, id and name, and the combined
 * access, each part with the layers it comes from. Each org-wide assignment listing is read once
 * (11 calls for a member, 15 for a key with its owner, one page each). A key without
 * `ownerMemberId` leaves its owner's layers out (`ownerKnown: false`): the answer may then claim
 * more access than the service grants. Messages never quote the member id or key hash; to keep
 * a secret one secret, call `getEffectiveAccessOutput`.
 */
export function getEffectiveAccess(args: AccessLookupArgs): Promise<EffectiveAccessResult> {
  return withConnection((conn) => access.effectiveAccessAnswer(conn, args));
}

/** `getEffectiveAccess` over Pulumi inputs: a secret member id or key hash makes the answer secret. */
export function getEffectiveAccessOutput(args: AccessLookupInputs): pulumi.Output<EffectiveAccessResult> {
  return pulumi.output(args).apply((a) => getEffectiveAccess(a as AccessLookupArgs));
}

/**
 * Which guardrails and which Guardrail Policies a member or an API key is on in a workspace: the
 * workspace default guardrail (when it applies), the member's (a key's owner's) and a key's own;
 * the policies assigned, inherited as the workspace default, and workspace-wide. The same reads
 * and args as `getEffectiveAccess`.
 */
export function getSubjectGuardrail(args: AccessLookupArgs): Promise<SubjectGuardrailResult> {
  return withConnection((conn) => access.subjectGuardrailAnswer(conn, args));
}

/** `getSubjectGuardrail` over Pulumi inputs: a secret member id or key hash makes the answer secret. */
export function getSubjectGuardrailOutput(args: AccessLookupInputs): pulumi.Output<SubjectGuardrailResult> {
  return pulumi.output(args).apply((a) => getSubjectGuardrail(a as AccessLookupArgs));
}
