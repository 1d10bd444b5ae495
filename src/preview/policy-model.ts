/**
 * What the review of Guardrail Policies (policies.ts) reads of each policy in a preview: its id
 * lists, default flag and settings, as plain data.
 */
import { FIELD_NAMES } from "../core/fields/fields";
import type { Judged } from "../core/fields/loosening";
import { KINDS, POLICY_TYPE_NAMES, type PolicyTypeName } from "../core/kinds";
import { WW_POLICY_TYPES } from "../core/policies/workspace-wide-args";
import type { Side } from "./judge";
import type { Verdict } from "./model";
import { typeOf } from "./steps";
import { isAnyUnknown } from "../core/markers";
import { isSecret } from "./values";

export type Bag = Record<string, unknown>;

/** The id lists of a policy, each with the subject it holds and what a change to it means. */
export const LISTS = [
  { arg: "memberUserIds", noun: "member", optOut: false },
  { arg: "keyHashes", noun: "key", optOut: false },
  { arg: "optedOutMemberUserIds", noun: "member", optOut: true },
  { arg: "optedOutKeyHashes", noun: "key", optOut: true },
] as const;
export type ListArg = (typeof LISTS)[number]["arg"];

/** A workspace policy of the preview. */
export interface PolicyOfPreview {
  logical: string;
  type: PolicyTypeName | WideType;
  name: string;
  op: string;
  workspace: string | undefined;
  before?: Bag | undefined;
  after?: Bag | undefined;
  /** The workspace it leaves, when its `workspaceId` changes (shown as given; `(secret)` when secret). */
  moved?: string | undefined;
}

/** One line about who a policy holds: a subject joining or leaving, an opt-out, the default flag. */
export interface SubjectLine {
  text: string;
  verdict: Verdict;
}

/** What the review says of one policy. */
export interface PolicyChange {
  logical: string;
  label: string;
  op: string;
  judged: Judged[];
  subjects: SubjectLine[];
  /** The heading of its subject lines: `Assignments` (a workspace policy) or `Coverage` (a workspace-wide one). */
  heading: string;
}

/** The workspace-wide kind (issue 40): it belongs to the organization and covers workspaces. */
export type WideType = "WorkspaceWidePolicy";
export const WIDE: WideType = "WorkspaceWidePolicy";
export const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
export const policyType = (urn: string): PolicyTypeName | WideType | undefined => {
  const t = typeOf(urn);
  if (t === WIDE) return t;
  return t !== "" && "policy" in KINDS[t] ? (t as PolicyTypeName) : undefined;
};
/** A policy's noun: its kind's (`budget policy`), a workspace-wide one's from its `policyType`. */
export function nounOf(p: PolicyOfPreview): string {
  if (p.type !== WIDE) return KINDS[p.type].policy.noun;
  const word = p.after?.policyType ?? p.before?.policyType;
  const fields =
    typeof word === "string" && Object.hasOwn(WW_POLICY_TYPES, word)
      ? WW_POLICY_TYPES[word as keyof typeof WW_POLICY_TYPES]
      : undefined;
  const row = POLICY_TYPE_NAMES.find((t) => KINDS[t].policy.fields === fields);
  return `workspace-wide ${row ? KINDS[row].policy.noun : "policy"}`;
}
/** A policy's id list (a workspace-wide policy's coverage too) as its ids, whether a list or the dynamic face's map. */
export const ids = (
  bag: Bag | undefined,
  arg: ListArg | "workspaceIds" | "optedOutWorkspaceIds",
): string[] | "secret" | "unknown" | undefined => {
  const v = bag?.[arg];
  if (isSecret(v) || (Array.isArray(v) && v.some(isSecret))) return "secret";
  // A list, or an id, not known until apply: anyone may leave it (a loosening until a preview shows it).
  if (isAnyUnknown(v) || (Array.isArray(v) && v.some(isAnyUnknown))) return "unknown";
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  // The dynamic face records an id list as a map `{id: true}` (core/policies/id-maps.ts).
  if (v && typeof v === "object") return Object.keys(v).filter((k) => (v as Bag)[k] === true);
  return undefined;
};
export const isDefault = (bag: Bag | undefined) => bag?.workspaceDefault === true;
/** A default flag not known until apply (or secret): it may turn on or off. */
export const defaultOpaque = (bag: Bag | undefined) =>
  bag?.workspaceDefault !== undefined && (isAnyUnknown(bag.workspaceDefault) || isSecret(bag.workspaceDefault));
/** A side holding only a policy's settings (the rest of its args are not settings). */
export const settings = (bag: Bag | undefined): Side => ({
  inputs: Object.fromEntries(FIELD_NAMES.filter((f) => bag?.[f] !== undefined).map((f) => [f, bag![f]])),
});
export const NOTHING: Side = { inputs: {} };

/** A loosening read as its tightening: a policy gained over nothing. */
export const tighter = (j: Judged): Judged =>
  j.direction === "loosening" || j.direction === "unknown" ? { ...j, direction: "tightening" } : j;
