/**
 * A workspace policy's import id: `<workspaceId>/<policyId>`. The service reads a policy only
 * within its workspace (rule 26), and a policy's record does not name it, so a bare policy id
 * cannot be imported.
 */
import { shown } from "../args/messages";
import { UUID_RE } from "../fields/constants";
import { KINDS, type PolicyTypeName } from "../kinds";
import { UserError } from "../user-error";

/**
 * The workspace reference (id or slug) and the policy id of an import id; a policy id that is a
 * UUID in its lower-case form, as the service spells it (a Guardrail's import takes any case too).
 */
export function parseImportId(type: PolicyTypeName, id: string): [string, string] {
  const parts = id.split("/");
  if (parts.length === 2 && parts[0] && parts[1])
    return [parts[0], UUID_RE.test(parts[1]) ? parts[1].toLowerCase() : parts[1]];
  throw new UserError(
    `cannot import ${KINDS[type].policy.noun} ${shown(id)}: the import id is <workspaceId>/<policyId> (the workspace's id or slug, a slash, the policy's id), e.g. 3f2b8c1e-0000-4000-8000-000000000000/pol_123`,
  );
}
