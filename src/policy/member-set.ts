/**
 * `requireMemberSet`, a stack rule: every guardrail has a `GuardrailMemberAssignment` with at
 * least one member. A set is judged by where its members go, the guardrail whose id its
 * `guardrailId` holds; `dependsOn` and the resources the value was computed from are only
 * evidence while the value is not known (issue 24, finding 10):
 *
 * - a known value counts for the guardrail with that id (a guardrail's outputs record it as
 *   `guardrailId`; CrossGuard shows no resource ids), whatever the set depends on;
 * - an unknown value (preview) computed from exactly one resource, a guardrail
 *   (`guardrailId: g.id`), counts for that guardrail;
 * - any other unknown value could name several guardrails: their rule is checked at up;
 * - a known value that names no guardrail of the stack counts for none, unless a guardrail's id
 *   is not known yet (its create or update is only planned): then that one is checked at up.
 *   State written before ids were recorded keeps one fallback: a set computed from that
 *   guardrail alone counts for it.
 *
 * A member counts only where it stays: not when a set of another guardrail that may share the
 * workspace lists it too (the service moves it, docs/api-contract.md rule 5), and not beside an
 * exclusive set without members, which removes every member at each up.
 */
import type { PolicyResource } from "@pulumi/policy";
import { HOLDER_RULE, mayCompete, UNKNOWN_WORKSPACE } from "../core/holders";
import { isAnyUnknown } from "../core/markers";
import { plainProps, read, readList } from "./props";
import { quoteName } from "./quote";
import { isNativeToken, type Kind } from "./provenance";

export interface MemberSetFinding {
  /** [guardrail's program name, violation] pairs. */
  violations: { name: string; urn: string; message: string }[];
  /** A guardrail whose sets are not known yet: the rule is checked at `up`. */
  unknown?: { resource: PolicyResource; name: string; key: string; what: string };
}

/** Where a set's members go: one guardrail, none of the stack's, or one of several (not known yet). */
export type Target = { to: PolicyResource } | { to: null } | { maybe: PolicyResource[] };

export function memberSetFindings(
  resources: readonly PolicyResource[],
  kindOf: (r: PolicyResource) => Kind | undefined,
): MemberSetFinding {
  const guardrails = resources.filter((r) => kindOf(r) === "guardrail");
  const sets = resources.filter((r) => kindOf(r) === "memberAssignment");
  const ids = new Map(guardrails.map((g) => [g, idOf(g)] as const));
  const targets = new Map(sets.map((s) => [s, targetOf(s, ids)] as const));
  const finding: MemberSetFinding = { violations: [] };
  for (const g of guardrails) {
    const own = sets.filter((s) => {
      const t = targets.get(s)!;
      return "to" in t && t.to === g;
    });
    // A member another guardrail of its workspace also lists may end up there (one guardrail per workspace).
    const rival = (id: string) =>
      sets.find((t) => !own.includes(t) && listed(t).includes(id) && maySharePlace(g, targets.get(t)!));
    const members = own.map((s) => membersOf(s, rival));
    // An exclusive set makes the guardrail's members its own: an empty one removes the others' at each up.
    const emptyExclusive = own.filter(
      (s, i) => members[i] !== "unknown" && listed(s).length === 0 && exclusiveOf(s) !== false,
    );
    const wipe = emptyExclusive.find((s) => exclusiveOf(s) === true);
    if (wipe) {
      finding.violations.push({
        name: g.name,
        urn: g.urn,
        message: `has an exclusive member set ${quoteName(wipe.name)} with no members, which removes every member at each up; give it members or make it not exclusive`,
      });
      continue;
    }
    if (members.some((m) => m === "some") && emptyExclusive.length === 0) continue;
    const pendingMembers = own.find((_, i) => members[i] === "unknown");
    const pendingTarget = sets.find((s) => {
      const t = targets.get(s)!;
      return "maybe" in t && t.maybe.includes(g) && membersOf(s) !== "none";
    });
    if (pendingMembers)
      finding.unknown ??= {
        resource: pendingMembers,
        name: g.name,
        key: idsKey(pendingMembers),
        what: "members of its member set",
      };
    else if (emptyExclusive[0])
      finding.unknown ??= {
        resource: emptyExclusive[0],
        name: g.name,
        key: "exclusive",
        what: "whether its member set with no members is exclusive",
      };
    else if (pendingTarget)
      finding.unknown ??= {
        resource: pendingTarget,
        name: g.name,
        key: "guardrailId",
        what: "which guardrail each member set names",
      };
    else if (own.length === 0)
      finding.violations.push({
        name: g.name,
        urn: g.urn,
        message: `has no GuardrailMemberAssignment whose guardrailId is its id; every guardrail needs a member set (pass guardrailId: <guardrail>.id)${ids.get(g) === null ? OLD_STATE : ""}`,
      });
    else if (own.some((s) => listed(s).length))
      finding.violations.push({
        name: g.name,
        urn: g.urn,
        message: `has members only in common with member set ${quoteName(rival(own.flatMap(listed)[0]!)!.name)} of another guardrail that may be in its workspace; ${HOLDER_RULE.member}, so the service moves it to one of them; give it a member of its own`,
      });
    else
      finding.violations.push({
        name: g.name,
        urn: g.urn,
        message: "has a member set with no members; every guardrail needs at least one member",
      });
  }
  return finding;
}

const OLD_STATE =
  "; its state, from an earlier version, does not record its id, so a literal guardrailId cannot be matched to it until `pulumi refresh`";

/** A set's `exclusive`: absent is false (the provider's default); "unknown" while not known. */
function exclusiveOf(s: PolicyResource): boolean | "unknown" {
  const exclusive = read(plainProps(s.props), "exclusive");
  return exclusive.unknown ? "unknown" : exclusive.value === true;
}

/** Whether a set has a member that stays: listed, assigned (`true`) and not also listed by a `rival` set. */
function membersOf(
  s: PolicyResource,
  rival: (id: string) => PolicyResource | undefined = () => undefined,
): "some" | "none" | "unknown" {
  const ids = idsOf(s);
  if (ids === "unknown") return "unknown";
  return ids.some((id) => !rival(id)) ? "some" : "none";
}

/** The members a set assigns; [] while not known. */
function listed(s: PolicyResource): string[] {
  const ids = idsOf(s);
  return ids === "unknown" ? [] : ids;
}

/** The property that holds a set's ids: see `idsOf`. */
const idsKey = (s: PolicyResource) =>
  isNativeToken(s.type) && Object.hasOwn(plainProps(s.props), "memberUserIds") ? "memberUserIds" : "members";

/**
 * The members a set assigns, or "unknown" (preview). The dynamic face's inputs and the
 * provider's outputs hold the map `members` (`{id: true}`, or where an id went); the native
 * face's inputs hold the program's list `memberUserIds`, which it reads first (a known id
 * beside an unknown item is a member already).
 */
function idsOf(s: PolicyResource): string[] | "unknown" {
  const props = plainProps(s.props);
  if (idsKey(s) === "memberUserIds") {
    const list = readList(props, "memberUserIds");
    if (list.unknown) return "unknown";
    const ids = (list.value ?? []).filter((x): x is string => typeof x === "string" && !isAnyUnknown(x));
    return ids.length === 0 && list.unknownItems ? "unknown" : ids;
  }
  const members = read<Record<string, unknown>>(props, "members");
  if (members.unknown) return "unknown";
  return Object.entries(members.value ?? {})
    .filter(([, v]) => v === true)
    .map(([id]) => id);
}

/**
 * Whether a set's members might go to guardrail `g`'s workspace: unless it goes to another
 * guardrail of the stack whose workspace is known to differ from `g`'s. A guardrail without a
 * `workspaceId` is in the default one, whose id the stack does not show.
 */
function maySharePlace(g: PolicyResource, target: Target): boolean {
  if (!("to" in target) || target.to === null) return true;
  if (target.to === g) return false;
  return mayCompete("member", workspaceOf(g), workspaceOf(target.to));
}

/** A guardrail's `workspaceId` as the holder rule compares it: null for the default one. */
function workspaceOf(g: PolicyResource): string | null | typeof UNKNOWN_WORKSPACE {
  const ws = read<unknown>(plainProps(g.props), "workspaceId");
  if (ws.unknown) return UNKNOWN_WORKSPACE;
  return typeof ws.value === "string" ? ws.value.trim() : null;
}

/** A guardrail's id from its outputs; `null` in state older than the record; `undefined` before it exists. */
export function idOf(g: PolicyResource): string | null | undefined {
  const props = plainProps(g.props);
  const id = read<string>(props, "guardrailId");
  if (!id.unknown && typeof id.value === "string") return id.value.trim().toLowerCase();
  // Outputs (createdAt is set) without the id: written by an earlier version.
  return read(props, "createdAt").unknown || props.createdAt === undefined ? undefined : null;
}

export function targetOf(s: PolicyResource, ids: ReadonlyMap<PolicyResource, string | null | undefined>): Target {
  const guardrails = [...ids.keys()];
  const deps = s.propertyDependencies?.guardrailId ?? [];
  const sole = deps.length === 1 && guardrails.includes(deps[0]!) ? deps[0]! : undefined;
  const value = read<unknown>(plainProps(s.props), "guardrailId");
  if (value.unknown)
    return sole
      ? { to: sole }
      : { maybe: deps.some((d) => guardrails.includes(d)) ? deps.filter((d) => guardrails.includes(d)) : guardrails };
  const id = typeof value.value === "string" ? value.value.trim().toLowerCase() : undefined;
  const named = id === undefined ? undefined : guardrails.find((g) => ids.get(g) === id);
  if (named) return { to: named };
  if (sole && ids.get(sole) === null) return { to: sole };
  const notYet = guardrails.filter((g) => ids.get(g) === undefined);
  return notYet.length ? { maybe: notYet } : { to: null };
}
