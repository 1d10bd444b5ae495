/**
 * The import ids of the Guardrail Policies. A workspace policy: `<workspaceId>/<policyId>`. The
 * service reads a policy only within its workspace (rule 26), and a policy's record does not name
 * it, so a bare policy id cannot be imported. A workspace-wide policy: its id alone.
 *
 * Either may end in `?{"secret": [arg names]}`, as `guardrails-migrate-to-native` writes it from
 * a dynamic-face state (export/import-ids.ts): the import records those args, and every copy of
 * them, as secrets, so the program that made them secret previews with no change. A workspace
 * policy whose `workspaceId` was secret is `<policyId>?{"secret": [...], "sealed": "..."}`: the
 * workspace's id sealed for the migration's run (import-seal.ts), never in plain text. Pure but
 * for the environment read of the seal's key.
 */
import { shown } from "../args/messages";
import { UUID_RE } from "../fields/constants";
import { isArgNames, opened, sealJson, secretNamesProblem } from "../import-seal";
import { KINDS, type PolicyTypeName } from "../kinds";
import { UserError } from "../user-error";
import { POLICY_ARGS } from "./args";
import { WORKSPACE_WIDE_ARG_NAMES } from "./workspace-wide-args";

/** A workspace policy's import id, parsed: the workspace reference (id or slug), the policy id, the secret arg names. */
export interface PolicyImport {
  workspace: string;
  policyId: string;
  secret: string[];
}

/** A policy id that is a UUID in its lower-case form, as the service spells it (a Guardrail's import takes any case too). */
const canonical = (id: string) => (UUID_RE.test(id) ? id.toLowerCase() : id);

/** The head (before `?`) and the carried JSON object (opened for `resourceId`), or a refusal. */
function split(id: string, refuse: (why: string) => never): { head: string; carried: Record<string, unknown> } {
  const q = id.indexOf("?");
  if (q < 0) return { head: id, carried: {} };
  const head = id.slice(0, q);
  let v: unknown;
  try {
    v = JSON.parse(id.slice(q + 1));
  } catch {
    return refuse("what follows ? is not JSON");
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return refuse("what follows ? is not a JSON object");
  const policyId = head.split("/").pop() ?? head;
  return { head, carried: opened(v as Record<string, unknown>, canonical(policyId), refuse) };
}

/** The `secret` names of a carried object, each an arg of the kind (`args`), or a refusal. */
function secretOf(
  carried: Record<string, unknown>,
  args: readonly string[],
  typeName: string,
  refuse: (why: string) => never,
) {
  const secret = carried.secret ?? [];
  if (!isArgNames(secret)) return refuse("secret must be a list of arg names");
  const stray = secretNamesProblem(secret, args, typeName);
  return stray ? refuse(stray) : [...secret];
}

/** Reads a workspace policy's import id (see the file's comment); throws a UserError saying the form. */
export function parseImportId(type: PolicyTypeName, id: string): PolicyImport {
  const refuse = (why?: string): never => {
    throw new UserError(
      `cannot import ${KINDS[type].policy.noun} ${shown(id)}: the import id is <workspaceId>/<policyId> (the workspace's id or slug, a slash, the policy's id), e.g. 3f2b8c1e-0000-4000-8000-000000000000/pol_123${why ? `; here ${why}` : ""}`,
    );
  };
  const { head, carried } = split(id, refuse);
  const { secret: _s, workspaceId, ...rest } = carried;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) return refuse(`unknown key ${shown(unknown)}`);
  const secret = secretOf(carried, Object.keys(POLICY_ARGS[type].shape), type, refuse);
  const parts = head.split("/");
  if (workspaceId !== undefined) {
    // The sealed form: the workspace from the sealed part, the head the policy id alone.
    if (typeof workspaceId !== "string" || !workspaceId || parts.length !== 1 || !parts[0])
      return refuse("the sealed workspace goes with the policy id alone");
    // The migration seals the id the dynamic face recorded: a UUID. Anything else is not shown
    // (it is a secret's copy), and a sealed workspace is recorded secret whatever the list says.
    if (!UUID_RE.test(workspaceId)) return refuse("the sealed workspace is not a workspace id (a UUID)");
    const all = secret.includes("workspaceId") ? secret : [...secret, "workspaceId"];
    return { workspace: workspaceId.toLowerCase(), policyId: canonical(parts[0]), secret: all };
  }
  if (parts.length === 2 && parts[0] && parts[1]) return { workspace: parts[0], policyId: canonical(parts[1]), secret };
  return refuse();
}

/**
 * The sealed workspace of an import id as a bag `hidingSecrets` reads (secret-text.ts), so no
 * failure of the import names it; undefined for a refresh (`state` held) or any other id.
 */
export function sealedWorkspaceOf(type: PolicyTypeName, id: string, state: object | undefined) {
  if (state && Object.keys(state).length > 0) return undefined;
  try {
    const { workspace, secret } = parseImportId(type, id);
    return secret.includes("workspaceId") ? { workspaceId: workspace, __secretArgs: ["workspaceId"] } : undefined;
  } catch {
    return undefined; // the read itself refuses the id
  }
}

/**
 * The import id of a workspace policy that names its `secret` args; with `sealKey`, the workspace
 * sealed in it (when `workspaceId` is one of them: its id is then a secret's copy).
 */
export function policyImportId(workspaceId: string, policyId: string, secret: readonly string[], sealKey?: string) {
  if (secret.length === 0) return `${workspaceId}/${policyId}`;
  const names = { secret: [...secret].sort() };
  if (!secret.includes("workspaceId")) return `${workspaceId}/${policyId}?${JSON.stringify(names)}`;
  if (!sealKey) throw new UserError("a secret workspaceId is carried only sealed");
  return `${policyId}?${JSON.stringify({ sealed: sealJson({ workspaceId }, sealKey, policyId), ...names })}`;
}

/** Reads a workspace-wide policy's import id: its id, the secret arg names. */
export function parseWorkspaceWideImportId(id: string): { policyId: string; secret: string[] } {
  const refuse = (why: string): never => {
    throw new UserError(
      `cannot import workspace-wide policy ${shown(id)}: the import id is the policy's id, optionally followed by ?{"secret":[arg names]}; here ${why}`,
    );
  };
  const { head, carried } = split(id, refuse);
  const { secret: _s, ...rest } = carried;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) return refuse(`unknown key ${shown(unknown)}`);
  return { policyId: head, secret: secretOf(carried, WORKSPACE_WIDE_ARG_NAMES, "WorkspaceWidePolicy", refuse) };
}

/** Why an import id of `type` cannot name `names` secret (one is not an arg of the kind), or undefined. */
export const secretNamesRefused = (type: PolicyTypeName | "WorkspaceWidePolicy", names: readonly string[]) =>
  secretNamesProblem(
    names,
    type === "WorkspaceWidePolicy" ? WORKSPACE_WIDE_ARG_NAMES : Object.keys(POLICY_ARGS[type].shape),
    type,
  );

/** The import id of a workspace-wide policy that names its `secret` args. */
export const workspaceWideImportId = (policyId: string, secret: readonly string[]) =>
  secret.length === 0 ? policyId : `${policyId}?${JSON.stringify({ secret: [...secret].sort() })}`;
