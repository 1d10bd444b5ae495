/**
 * The import id of a dynamic-face resource on its move to the native face. A guardrail gets
 * its id, with (core/guardrail/import-id.ts) the model identifiers its program sent where they
 * differ from the service's answer (an alias), so the program still previews with no change;
 * a list whose copy is secret is not carried (the preview then shows `~ allowedModels`, and one
 * update settles it, as after any `pulumi import`). A set gets the managed form (core/assignments/import-id.ts) naming exactly what its
 * dynamic state managed: its mode and the ids its program listed. The plain form would import
 * the guardrail's whole live set: ids assigned out of band would come into the set's care and
 * the program's next `up` would unassign them. Either names the args the program made secret,
 * so the import records them (and every copy) as secrets and the first native preview has no
 * change (issue 38); what an id carries of a secret (a set's ids, a secret model list) is
 * sealed for the migration's run (core/import-seal.ts), read from `--show-secrets`. A set
 * whose state cannot say what it managed (its ids are secret and no opened copy was given;
 * or the outputs are not the shape the dynamic face writes; or a failed `up` marked ids
 * unconfirmed) is refused: the migration never guesses which ids a set owns.
 */
import { managedImportId } from "../core/assignments/import-id";
import { managedGuardrailImportId, type SentModels } from "../core/guardrail/import-id";
import { MODEL_LISTS, sameSet } from "../core/guardrail/model-lists";
import { isSigned } from "../core/markers";
import { FOREIGN, parseUnconfirmed } from "../core/assignments/status";
import { shown } from "../core/args/messages";
import { dynamicKindOf, dynamicSetOf, GUARDRAIL_TYPE } from "../core/type-tokens";
import { POLICY_TYPE_NAMES, type PolicyTypeName } from "../core/kinds";
import { policyImportId, secretNamesRefused, workspaceWideImportId } from "../core/policies/import-id";
import { UUID_RE } from "../core/fields/constants";

/** An exported secret: ciphertext, or the plain envelope `--show-secrets` prints (any signed value, markers.ts). */
const isSecret = isSigned;
const holdsSecret = (v: unknown): boolean =>
  isSecret(v) || (!!v && typeof v === "object" && Object.values(v as object).some(holdsSecret));

/**
 * The args a dynamic-face resource's program made secret, in the program's words: the names
 * its state records (`__secretArgs`, inputs and outputs) and every input that holds a secret.
 */
export function secretArgsOf(r: { type: string; inputs?: unknown; outputs?: unknown }): string[] {
  const names = new Set<string>();
  for (const bag of [r.inputs, r.outputs]) {
    if (!bag || typeof bag !== "object") continue;
    const recorded = (bag as Record<string, unknown>).__secretArgs;
    if (Array.isArray(recorded)) for (const n of recorded) if (typeof n === "string") names.add(n);
  }
  if (r.inputs && typeof r.inputs === "object")
    for (const [k, v] of Object.entries(r.inputs)) if (!k.startsWith("__") && holdsSecret(v)) names.add(k);
  const set = dynamicSetOf(r.type);
  if (set && names.delete(set.stateKey)) names.add(set.argName);
  return [...names].filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n) && n.length <= 64).sort();
}

/**
 * What a migration knows beyond the state's ciphertext: the resource as `pulumi stack export
 * --show-secrets` printed it (secrets opened), and the run's key that seals what the import
 * id carries of them (core/import-seal.ts).
 */
export interface Revealed {
  resource: { outputs?: unknown };
  sealKey: string;
}

/**
 * The import id of a resource the migration moves (see the file's comment). It names the
 * args that were secret; with `revealed`, what it carries of them is sealed.
 *
 * @param fail throws the migration's error with the reason.
 */
export function importIdOf(
  r: { urn: string; type: string; id?: unknown; inputs?: unknown; outputs?: unknown },
  fail: (why: string) => never,
  revealed?: Revealed,
): string {
  const id = r.id as string;
  const secret = secretArgsOf(r);
  const sealKey = secret.length > 0 ? revealed?.sealKey : undefined;
  const values = revealed?.resource.outputs ?? r.outputs;
  if (r.type === GUARDRAIL_TYPE) return managedGuardrailImportId(id, sentModels(values), secret, sealKey);
  const kind = dynamicKindOf(r.type);
  const policy = kind === "WorkspaceWidePolicy" || POLICY_TYPE_NAMES.includes(kind as PolicyTypeName);
  // A policy's import id puts its id before `/`, `?` and the JSON: an id holding one would name
  // another policy or another form (core/policies/import-id.ts).
  if (policy && /[/?]/.test(id))
    fail(`${shown(r.urn)}: its id ${shown(id)} is not a policy id (it holds / or ?); run pulumi refresh, then migrate`);
  // The import refuses a name that is not an arg: refused here, before anything is written.
  const stray = policy ? secretNamesRefused(kind as PolicyTypeName | "WorkspaceWidePolicy", secret) : undefined;
  if (stray) fail(`${shown(r.urn)}: its state's __secretArgs ${stray}; run pulumi up with the program, then migrate`);
  if (kind === "WorkspaceWidePolicy") return workspaceWideImportId(id, secret);
  if (policy) return policyIdOf(r.urn, id, values, secret, fail, sealKey);
  const set = dynamicSetOf(r.type);
  if (!set) return id;
  const { stateKey: key, argName } = set;
  const outs = values as Record<string, unknown> | null | undefined;
  const map = outs?.[key];
  const exclusive = outs?.exclusive ?? false;
  if (isSecret(map) || isSecret(exclusive) || isSecret(outs))
    fail(
      `${shown(r.urn)}: its ${argName} are secret, and the migration would have to write them in plain text (in the import id pulumi shows) to import only those; make them plain in the program, pulumi up, migrate, then make them secret again on the native face`,
    );
  if (!map || typeof map !== "object" || Array.isArray(map) || typeof exclusive !== "boolean")
    fail(
      `${shown(r.urn)}: its state does not say which ${argName} it manages (no ${key} map); run pulumi refresh, then migrate`,
    );
  const statuses = map as Record<string, unknown>;
  // A failed up's mark (issue 38): whether the id is here, and of a 0.5.0-dev mark whether it is
  // the program's, is not known. A refresh settles it; the migration does not guess.
  const marked = Object.keys(statuses).filter((k) => parseUnconfirmed(statuses[k]) !== undefined);
  if (marked.length > 0)
    fail(
      `${shown(r.urn)}: its state marks ${marked.length} ${argName} unconfirmed (a failed pulumi up); run pulumi refresh, then migrate`,
    );
  const ids = Object.keys(statuses).filter((k) => statuses[k] !== FOREIGN);
  return managedImportId(id.slice(0, id.length - key.length - 1), key, { exclusive, ids }, secret, sealKey);
}

/**
 * A workspace policy's import id: `<workspaceId>/<policyId>` (the native face reads a policy
 * within its workspace), from the state's `workspaceId` (the id the dynamic face recorded); a
 * secret one sealed (core/policies/import-id.ts). The id lists are not carried: the import reads
 * them from the service, as the dynamic face's refresh does.
 */
function policyIdOf(
  urn: string,
  id: string,
  values: unknown,
  secret: readonly string[],
  fail: (why: string) => never,
  sealKey: string | undefined,
): string {
  const ws = (values as Record<string, unknown> | null | undefined)?.workspaceId;
  if (isSecret(ws) || (secret.includes("workspaceId") && !sealKey))
    fail(
      `${shown(urn)}: its workspaceId is secret, and the import id must name the workspace; run guardrails-migrate-to-native, which reads it with pulumi stack export --show-secrets and seals it (never in plain text), or make it plain in the program, pulumi up, then migrate`,
    );
  if (typeof ws !== "string" || ws === "")
    fail(
      `${shown(urn)}: its state records no workspaceId (not the shape the dynamic face writes); run pulumi refresh, then migrate`,
    );
  // The dynamic face records the workspace's id (a UUID), never a slug: anything else would be
  // written into the import id as a path or a second id.
  if (!UUID_RE.test(ws))
    fail(
      `${shown(urn)}: its state's workspaceId is not a workspace id (a UUID)${secret.includes("workspaceId") ? "" : ` but ${shown(ws)}`}; run pulumi refresh, then migrate`,
    );
  return policyImportId(ws, id, secret, sealKey);
}

const plainIds = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** The model lists whose identifiers the program sent differ from the service's answer, in plain text. */
function sentModels(outputs: unknown): SentModels {
  const o = outputs as { args?: unknown; modelAnswers?: unknown } | null | undefined;
  const args = o?.args as Record<string, unknown> | null | undefined;
  const answers = o?.modelAnswers as Record<string, unknown> | null | undefined;
  const out: SentModels = {};
  if (!args || typeof args !== "object" || !answers || typeof answers !== "object") return out;
  for (const list of MODEL_LISTS) {
    const sent = args[list];
    const answer = answers[list];
    if (plainIds(sent) && plainIds(answer) && !sameSet(sent, answer)) out[list] = { sent, answer };
  }
  return out;
}

/**
 * A `pulumi stack export --show-secrets` document with every secret envelope replaced by
 * its value (the envelope holds it as JSON text in `plaintext`).
 */
export function openedSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(openedSecrets);
  if (!v || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  if (isSigned(o) && typeof o.plaintext === "string") {
    try {
      return openedSecrets(JSON.parse(o.plaintext));
    } catch {
      return v;
    }
  }
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, openedSecrets(x)]));
}
