/**
 * The data sources: "use a guardrail another team manages". Plain functions over a client,
 * answering in the program's names (the outputs of the `Guardrail` resource, without its
 * bookkeeping) and the set resources' names (`memberUserIds`, `keyHashes`). The dynamic face
 * exports them from the package root, the native face serves them as invokes.
 */
import type { GuardrailsClient } from "../client/client";
import { NotFoundError } from "../client/errors";
import type { WireGuardrail } from "../client/wire";
import { shown } from "../args/messages";
import { COMPARED, outputsFromWire } from "../guardrail/model";
import type { FieldName, OutputValue } from "../fields/fields";
import { compileRe2 } from "../text/re2";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";
import { type LookupArgs, type LookupName, parseLookupArgs } from "./args";

/** A guardrail as a data source answers it: its id, workspace, timestamps and every setting, in the program's names. */
export type GuardrailInfo = { [K in FieldName]: OutputValue<K> } & {
  id: string;
  /** null only for a guardrail older than workspaces. */
  workspaceId: string | null;
  createdAt: string;
  updatedAt: string | null;
};

/** What `getGuardrails` answers: the guardrails found, sorted by name then id, and their ids in the same order. */
export interface GuardrailsFound {
  guardrails: GuardrailInfo[];
  ids: string[];
}

/** The member user ids assigned to a guardrail, sorted (the names `GuardrailMemberAssignment` uses). */
export interface GuardrailMembersFound {
  guardrailId: string;
  memberUserIds: string[];
}

/** The key hashes assigned to a guardrail, sorted (the names `GuardrailKeyAssignment` uses). */
export interface GuardrailKeysFound {
  guardrailId: string;
  keyHashes: string[];
}

/** A wire guardrail in the program's names: the resource's outputs, bookkeeping left out. */
export function guardrailInfo(g: WireGuardrail): GuardrailInfo {
  const out = outputsFromWire(g, undefined);
  const fields = Object.fromEntries(COMPARED.map((k) => [k, out[k]])) as { [K in FieldName]: OutputValue<K> };
  return { id: g.id, ...fields, workspaceId: out.workspaceId, createdAt: out.createdAt, updatedAt: out.updatedAt };
}

/** Args parsed, or a UserError listing every failure with its property path. */
export function argsOf<N extends LookupName>(name: N, raw: unknown): LookupArgs<N> {
  const parsed = parseLookupArgs(name, raw);
  if (parsed.ok) return parsed.args;
  throw new UserError(`${name}: ${parsed.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
}

/** A 404 for a guardrail named by id, said in the data source's words. */
async function byId<T>(what: string, id: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new UserError(`${what}: no guardrail has id ${id} (the service answered 404)`, { cause: err });
    throw err;
  }
}

/**
 * A 404 for a workspace's default guardrail that was never written (docs/api-contract.md rule
 * 19) says so and what to do; any other failure, or an id no workspace names, goes on as it came.
 * Only on a 404 are the workspaces read, to find which one the id is the default of.
 */
function unwrittenDefault(client: GuardrailsClient, id: string): (err: unknown) => Promise<never> {
  return async (err) => {
    if (!(err instanceof NotFoundError)) throw err;
    for await (const ws of client.listWorkspaces()) {
      if (ws.default_guardrail_id.toLowerCase() !== id.toLowerCase()) continue;
      const slug = ws.slug ?? ws.id;
      throw new UserError(
        `getGuardrail: ${id} is the default guardrail of workspace ${shown(slug)} (id ${shown(ws.id)}), not materialised yet: ` +
          "the service answers 404 for it until its first write, and until then it is in force with no restriction. " +
          `Manage it with WorkspaceDefaultGuardrail (workspaceId ${shown(slug)}), which writes it; getWorkspace answers its id now`,
        { cause: err },
      );
    }
    throw err;
  };
}

const where = (workspaceId: string | undefined) => (workspaceId ? `workspace ${workspaceId}` : "the default workspace");

/**
 * One guardrail, by `id`, or by exact `name` within `workspaceId` (the default workspace when
 * omitted). Fails when nothing matches, and when a name matches more than one guardrail
 * (naming every id, so the program can switch to one).
 */
export async function getGuardrail(
  client: GuardrailsClient,
  args: { id: string } | { name: string; workspaceId?: string },
): Promise<GuardrailInfo> {
  const a = argsOf("getGuardrail", args);
  if (a.id !== undefined) {
    const id = a.id;
    return guardrailInfo(
      await byId("getGuardrail", id, () => client.getGuardrail(id).catch(unwrittenDefault(client, id))),
    );
  }
  const found: WireGuardrail[] = [];
  for await (const g of client.listGuardrails(a.workspaceId ? { workspaceId: a.workspaceId } : {}))
    if (g.name === a.name) found.push(g);
  if (found.length === 0)
    throw new UserError(`getGuardrail: no guardrail named ${shown(a.name)} in ${where(a.workspaceId)}`);
  if (found.length > 1) {
    const ids = found.map((g) => idText(g.id)).sort();
    throw new UserError(
      `getGuardrail: ${found.length} guardrails are named ${shown(a.name)} in ${where(a.workspaceId)} (${ids.join(", ")}); look one up by id`,
    );
  }
  return guardrailInfo(found[0]!);
}

/**
 * The guardrails of `workspaceId` (the default workspace when omitted) whose name matches
 * `nameRegex` (an RE2 regular expression, matched in linear time, unanchored: `^eng-` for a
 * prefix; at most 256 characters), or all of them.
 */
export async function getGuardrails(
  client: GuardrailsClient,
  args: { workspaceId?: string; nameRegex?: string } = {},
): Promise<GuardrailsFound> {
  const a = argsOf("getGuardrails", args);
  const compiled = a.nameRegex !== undefined ? compileRe2(a.nameRegex) : undefined;
  // argsOf has already refused, with the whole message, a pattern RE2 refuses.
  if (compiled && !compiled.ok) throw new UserError(`getGuardrails: nameRegex: ${compiled.reason}`);
  const re = compiled?.regex;
  const guardrails: GuardrailInfo[] = [];
  for await (const g of client.listGuardrails(a.workspaceId ? { workspaceId: a.workspaceId } : {}))
    if (!re || re.test(g.name)) guardrails.push(guardrailInfo(g));
  guardrails.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return { guardrails, ids: guardrails.map((g) => g.id) };
}

/** The member user ids assigned to a guardrail; fails when no guardrail has the id. */
export async function getGuardrailMembers(
  client: GuardrailsClient,
  args: { guardrailId: string },
): Promise<GuardrailMembersFound> {
  const { guardrailId } = argsOf("getGuardrailMembers", args);
  const ids = await byId("getGuardrailMembers", guardrailId, async () => {
    const out = new Set<string>();
    for await (const m of client.listMemberAssignments(guardrailId)) out.add(m.user_id);
    return out;
  });
  return { guardrailId, memberUserIds: [...ids].sort() };
}

/** The key hashes assigned to a guardrail; fails when no guardrail has the id. */
export async function getGuardrailKeys(
  client: GuardrailsClient,
  args: { guardrailId: string },
): Promise<GuardrailKeysFound> {
  const { guardrailId } = argsOf("getGuardrailKeys", args);
  const hashes = await byId("getGuardrailKeys", guardrailId, async () => {
    const out = new Set<string>();
    for await (const k of client.listKeyAssignments(guardrailId)) out.add(k.key_hash);
    return out;
  });
  return { guardrailId, keyHashes: [...hashes].sort() };
}
