/**
 * `requireWorkspaceDefault`, a stack rule: each listed workspace (by id or slug) has its
 * default guardrail managed in the stack, by a `WorkspaceDefaultGuardrail` of either face.
 *
 * A resource names its workspace by `workspaceId`, which the program may write as an id or a
 * slug; once it exists its outputs hold the id (`workspaceId`) and the slug (`workspaceSlug`).
 * So a listed workspace is matched against all three, a UUID in any case. A resource whose
 * workspace is not known yet (an unknown `workspaceId`, or one written in the other form and
 * not created yet, so without a `workspaceSlug`) might be the listed one: the rule is then
 * checked at up, never failed or passed on a guess.
 */
import type { PolicyResource } from "@pulumi/policy";
import { UUID_RE } from "../core/fields/constants";
import { plainProps, read } from "./props";
import type { Kind } from "./provenance";

export interface WorkspaceDefaultFinding {
  /** Listed workspaces no resource of the stack manages the default of. */
  missing: string[];
  /** A resource whose workspace is not known yet, and the property holding it: checked at up. */
  unknown?: { resource: PolicyResource; key: string };
}

const norm = (s: string) => (UUID_RE.test(s) ? s.toLowerCase() : s);
const isUuid = (s: string) => UUID_RE.test(s);

/** What a default's props say of its workspace: the forms known, or that it is not known yet. */
function workspaceOf(r: PolicyResource): { known: Set<string>; complete: boolean } | "unknown" {
  const props = plainProps(r.props);
  const id = read<unknown>(props, "workspaceId");
  if (id.unknown) return "unknown";
  const slug = read<unknown>(props, "workspaceSlug");
  const known = new Set<string>();
  for (const v of [id.value, slug.unknown ? undefined : slug.value])
    if (typeof v === "string" && v.trim() !== "") known.add(norm(v.trim()));
  // Outputs hold both forms; inputs of a resource not created yet hold the one written.
  const complete = [...known].some(isUuid) && [...known].some((k) => !isUuid(k));
  return { known, complete };
}

/** Which listed workspaces lack a managed default guardrail among `resources`. */
export function workspaceDefaultFindings(
  resources: readonly PolicyResource[],
  workspaces: readonly string[],
  kindOf: (r: PolicyResource) => Kind | undefined,
): WorkspaceDefaultFinding {
  const defaults = resources.filter((r) => kindOf(r) === "workspaceDefault");
  const seen = defaults.map((r) => [r, workspaceOf(r)] as const);
  const finding: WorkspaceDefaultFinding = { missing: [] };
  for (const w of workspaces) {
    const want = norm(w.trim());
    if (seen.some(([, ws]) => ws !== "unknown" && ws.known.has(want))) continue;
    // Could one of them be this workspace, named in the other form, or not known yet?
    const maybe = seen.find(
      ([, ws]) => ws === "unknown" || (!ws.complete && [...ws.known].every((k) => isUuid(k) !== isUuid(want))),
    );
    if (maybe) finding.unknown ??= { resource: maybe[0], key: "workspaceId" };
    else finding.missing.push(w);
  }
  return finding;
}
