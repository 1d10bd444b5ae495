/**
 * The effective-access lookups (issue 41), as core functions over a `Connection`; both faces
 * serve them (src/dynamic/data-sources.ts, src/native/invoke.ts) in the shape access-answer.ts gives. `getEffectiveAccess` answers the layers found (ids and names) and what they
 * leave combined (src/core/access); `getSubjectGuardrail` answers which guardrails and policies a
 * member or key is on. Both read the facts once (access-facts.ts says the calls: 11 for a member,
 * 15 for a key with its owner) and answer plain data. Args are checked with zod before any call;
 * a member id or key hash is never quoted (a program may hold it secret).
 */
import type { z } from "zod";
import { type EffectiveAccess, effectiveAccess, type LayerRef, layersOf } from "../access";
import type { Connection } from "../connection";
import { UserError } from "../user-error";
import { type AccessSubject, readAccessFacts } from "./access-facts";
import { ACCESS_ARGS, type LookupArgs, parseLookupArgs } from "./args";

/** The args of both lookups: one subject, and for a key the member who owns it (args.ts). */
export { ACCESS_ARGS };

/** The args as a program writes them. */
export type AccessArgs = z.input<typeof ACCESS_ARGS>;

/** Who was asked about, in the program's names. */
export interface AccessWho {
  workspaceId: string;
  memberId?: string;
  keyHash?: string;
  /** For a key: the owner given, or null. */
  ownerMemberId?: string | null;
  /**
   * false for a key whose owner was not given: the service does not say who owns a key, and the
   * owner's layers are left out, so the answer may claim more access than the service grants.
   */
  ownerKnown: boolean;
}

/** What `getEffectiveAccess` answers. */
export interface EffectiveAccessFound extends AccessWho {
  /** Every layer that applies, each once: guardrails, policies, workspace-wide policies. */
  layers: LayerRef[];
  /** What the layers leave, each part with the layers it comes from. */
  access: EffectiveAccess;
}

/** What `getSubjectGuardrail` answers. */
export interface SubjectGuardrailFound extends AccessWho {
  /** The guardrails that apply: the workspace default, the member's (a key's owner's) and a key's own. */
  guardrails: LayerRef[];
  /** The policies that apply: assigned, inherited as the workspace default, and workspace-wide. */
  policies: LayerRef[];
}

type AccessLookup = "getEffectiveAccess" | "getSubjectGuardrail";

/** The args parsed, or a UserError naming each failing field. */
function parse(name: AccessLookup, raw: unknown): LookupArgs<AccessLookup> {
  const parsed = parseLookupArgs(name, raw);
  if (parsed.ok) return parsed.args;
  throw new UserError(`${name}: ${parsed.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
}

async function read(name: AccessLookup, conn: Connection, raw: unknown) {
  const a = parse(name, raw);
  const subject: AccessSubject =
    a.memberId !== undefined ? { memberId: a.memberId } : { keyHash: a.keyHash!, ownerMemberId: a.ownerMemberId };
  const { facts, ownerKnown } = await readAccessFacts(conn, subject, a.workspaceId);
  const who: AccessWho = {
    workspaceId: facts.workspaceId,
    ...(a.memberId !== undefined
      ? { memberId: a.memberId }
      : { keyHash: a.keyHash!, ownerMemberId: a.ownerMemberId ?? null }),
    ownerKnown,
  };
  return { facts, who };
}

/** The effective access of a member or an API key in a workspace: the layers found and what they leave. */
export async function getEffectiveAccess(conn: Connection, args: AccessArgs): Promise<EffectiveAccessFound> {
  const { facts, who } = await read("getEffectiveAccess", conn, args);
  const access = effectiveAccess(facts);
  return { ...who, layers: access.layers, access };
}

const GUARDRAIL_LAYERS: readonly LayerRef["kind"][] = [
  "workspace-default-guardrail",
  "member-guardrail",
  "key-guardrail",
];

/** Which guardrails and policies a member or an API key is on in a workspace. */
export async function getSubjectGuardrail(conn: Connection, args: AccessArgs): Promise<SubjectGuardrailFound> {
  const { facts, who } = await read("getSubjectGuardrail", conn, args);
  const refs = layersOf(facts).map((l) => l.ref);
  return {
    ...who,
    guardrails: refs.filter((r) => GUARDRAIL_LAYERS.includes(r.kind)),
    policies: refs.filter((r) => !GUARDRAIL_LAYERS.includes(r.kind)),
  };
}
