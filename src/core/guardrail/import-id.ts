/**
 * The import id of a guardrail: its UUID, or `<uuid>?{"allowedModels":{"sent":[...],
 * "answer":[...]}}` (either list or both), with `"secret": [arg names]` (the args the
 * program made secret: the import records them, and every copy of them, as secrets) and
 * `"sealed": "..."` (the model lists, when secret, sealed for the migration's run: import-seal.ts). The second form is what `guardrails-migrate-to-native`
 * writes from a dynamic-face state: the model identifiers the program sent (an alias, say) and
 * the canonical slugs the service answered. Where the service still holds that answer, the
 * import records the identifiers as the program's, so a program that names a model by its
 * alias previews with no change; otherwise the live slugs are recorded, as for the plain form.
 * Anything else is refused before any call. Pure: no client.
 */
import { shown } from "../args/messages";
import { UUID_RE } from "../fields/constants";
import { guardrailArgsSchema } from "../args/guardrail-args";
import { isArgNames, opened, sealJson, secretNamesProblem } from "../import-seal";
import { UserError } from "../user-error";
import { MODEL_LISTS, sameSet, type ModelList } from "./model-lists";

/** Per model list, the identifiers sent and the service's answer to them. */
export type SentModels = Partial<Record<ModelList, { sent: string[]; answer: string[] }>>;

/** Most identifiers a list carries; longest identifier. */
const MAX_MODELS = 1000;
const MAX_MODEL_ID = 500;

/**
 * The import id that carries `models` and the `secret` arg names (the plain UUID when it
 * carries neither). With `sealKey`, the models are sealed (import-seal.ts): they may hold a
 * secret list's identifiers.
 */
export function managedGuardrailImportId(
  guardrailId: string,
  models: SentModels,
  secret: readonly string[] = [],
  sealKey?: string,
): string {
  const hasModels = Object.keys(models).length > 0;
  if (!hasModels && secret.length === 0) return guardrailId;
  const carried = hasModels ? (sealKey ? { sealed: sealJson(models, sealKey, guardrailId) } : models) : {};
  return `${guardrailId}?${JSON.stringify({ ...carried, ...(secret.length > 0 ? { secret: [...secret].sort() } : {}) })}`;
}

function refuse(id: string, why: string): never {
  throw new UserError(
    `Guardrail: cannot import ${shown(id)}: the id of a guardrail is its UUID (e.g. 3f2b8c1e-0000-4000-8000-000000000000); here ${why}`,
  );
}

const modelIds = (v: unknown): v is string[] =>
  Array.isArray(v) &&
  v.length <= MAX_MODELS &&
  v.every((x) => typeof x === "string" && x.trim() !== "" && x.length <= MAX_MODEL_ID);

/** The args a guardrail's import id may name as secret. */
const GUARDRAIL_ARGS = Object.keys(guardrailArgsSchema.shape);

function parseModels(id: string, guardrailId: string, text: string): { models: SentModels; secret: string[] } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return refuse(id, "what follows ? is not JSON");
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return refuse(id, "what follows ? is not a JSON object");
  const { secret = [], ...rest } = opened(v as Record<string, unknown>, guardrailId, (why) => refuse(id, why));
  if (!isArgNames(secret)) return refuse(id, "secret must be a list of arg names");
  const stray = secretNamesProblem(secret, GUARDRAIL_ARGS, "Guardrail");
  if (stray) return refuse(id, stray);
  const out: SentModels = {};
  for (const [k, entry] of Object.entries(rest)) {
    if (!(MODEL_LISTS as readonly string[]).includes(k)) return refuse(id, `unknown key ${shown(k)}`);
    const e = entry as Record<string, unknown> | null;
    if (!e || typeof e !== "object" || Object.keys(e).sort().join() !== "answer,sent")
      return refuse(id, `${k} must be {"sent": [...], "answer": [...]}`);
    if (!modelIds(e.sent) || !modelIds(e.answer)) return refuse(id, `${k} must hold lists of model identifiers`);
    out[k as ModelList] = { sent: e.sent, answer: e.answer };
  }
  return { models: out, secret };
}

/** Reads a guardrail's import id (see the file's comment); throws a UserError saying the form. */
export function parseGuardrailImportId(id: string): { guardrailId: string; models: SentModels; secret: string[] } {
  const q = id.indexOf("?");
  const guardrailId = q < 0 ? id : id.slice(0, q);
  if (!UUID_RE.test(guardrailId)) refuse(id, "it is not a UUID");
  const carried = q < 0 ? { models: {}, secret: [] } : parseModels(id, guardrailId.toLowerCase(), id.slice(q + 1));
  return { guardrailId: guardrailId.toLowerCase(), ...carried };
}

/**
 * An import's outputs and inputs with each carried list's identifiers in the program's place,
 * where the service still holds their answer (its canonical list, `held`); `args` then records
 * the inputs as the program's last args, as a create would. Unchanged when none applies.
 */
export function withSentModels<O extends { args: unknown }>(
  outs: O,
  inputs: Record<string, unknown>,
  held: (list: ModelList) => string[] | null,
  models: SentModels,
): { outs: O; inputs: Record<string, unknown> } {
  const applied = MODEL_LISTS.filter((list) => {
    const m = models[list];
    return m !== undefined && sameSet(held(list), m.answer);
  });
  if (applied.length === 0) return { outs, inputs };
  const ins = { ...inputs };
  const o: Record<string, unknown> = { ...outs };
  for (const list of applied) {
    ins[list] = [...models[list]!.sent];
    o[list] = [...models[list]!.sent];
  }
  o.args = JSON.parse(JSON.stringify(ins));
  return { outs: o as O, inputs: ins };
}
