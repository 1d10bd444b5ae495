/**
 * The import id of an assignment set. `<guardrail id>/members` (`/keys`) imports the
 * guardrail's whole set as it is now, additive. `<guardrail id>/members?{"exclusive":true,
 * "ids":["user_alice"]}` imports the set a program managed, exactly: the ids it listed and its
 * mode (what `guardrails-migrate-to-native` reads from a dynamic-face state), so ids assigned
 * out of band are not taken into its care and an `up` never unassigns them. Either form may add
 * `"secret": [arg names]` (the args the program made secret; the import records them as
 * secrets), and the managed form may carry its mode and ids sealed (`{"sealed": "..."}`,
 * import-seal.ts) when they were secret. Anything else is
 * refused before any call, saying the forms. The resource id recorded is `<guardrail id>/members`
 * either way. Pure: no client.
 */
import { shown } from "../args/messages";
import { idProblem } from "../args/assignment-args";
import { UUID_RE } from "../fields/constants";
import { isArgNames, opened, sealJson, secretNamesProblem } from "../import-seal";
import { UserError } from "../user-error";
import type { AssignmentSetKind } from "./kind";

/** What a program managed: its mode and the ids it listed. */
export interface ManagedSet {
  exclusive: boolean;
  ids: string[];
}

/** What an import id names. `managed` is absent for the plain form (the whole set, additive). */
export interface SetImport {
  guardrailId: string;
  managed?: ManagedSet;
  /** The args the import records as secrets (names, in the program's or the state's words). */
  secret?: string[];
}

/** Most ids a managed import id lists (the service's sets are far smaller). */
export const MAX_IMPORT_IDS = 10_000;

/**
 * The managed form of a set's import id. With `secret` names, they are carried; with
 * `sealKey` too, the mode and ids are sealed (import-seal.ts), since they may be secret.
 */
export function managedImportId(
  guardrailId: string,
  stateKey: string,
  managed: ManagedSet,
  secret: readonly string[] = [],
  sealKey?: string,
): string {
  const ids = [...new Set(managed.ids)].sort();
  const set = { exclusive: managed.exclusive, ids };
  const body = sealKey && secret.length > 0 ? { sealed: sealJson(set, sealKey, `${guardrailId}/${stateKey}`) } : set;
  return `${guardrailId}/${stateKey}?${JSON.stringify({ ...body, ...(secret.length > 0 ? { secret: [...secret].sort() } : {}) })}`;
}

function refuse(kind: AssignmentSetKind, id: string, why: string): never {
  throw new UserError(
    `${kind.typeName}: cannot import ${shown(id)}: the id of a ${kind.noun} set is <guardrail id>/${kind.stateKey} (e.g. 3f2b8c1e-0000-4000-8000-000000000000/${kind.stateKey}), or <guardrail id>/${kind.stateKey}?{"exclusive":false,"ids":[...]} to import only the ids a program manages; here ${why}`,
  );
}

/** The args a set's import id may name as secret (the ids by their arg's name or the state's). */
const setArgs = (kind: AssignmentSetKind) => ["guardrailId", "exclusive", kind.argName, kind.stateKey];

function parseManaged(
  kind: AssignmentSetKind,
  id: string,
  resourceId: string,
  text: string,
): ManagedSet & { secret?: string[] } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return refuse(kind, id, "what follows ? is not JSON");
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return refuse(kind, id, "what follows ? is not a JSON object");
  const o = opened(v as Record<string, unknown>, resourceId, (why) => refuse(kind, id, why));
  const extra = Object.keys(o).filter((k) => k !== "exclusive" && k !== "ids" && k !== "secret");
  if (extra.length > 0) return refuse(kind, id, `unknown key ${shown(extra[0])}`);
  if (typeof o.exclusive !== "boolean") return refuse(kind, id, "exclusive must be true or false");
  if (!Array.isArray(o.ids) || o.ids.length > MAX_IMPORT_IDS)
    return refuse(kind, id, `ids must be a list of at most ${MAX_IMPORT_IDS} ids`);
  for (const x of o.ids)
    if (typeof x !== "string" || idProblem(x)) return refuse(kind, id, "ids must be non-empty strings");
  if (new Set(o.ids).size !== o.ids.length) return refuse(kind, id, "ids lists an id twice");
  if (o.secret !== undefined && !isArgNames(o.secret)) return refuse(kind, id, "secret must be a list of arg names");
  const stray = o.secret === undefined ? undefined : secretNamesProblem(o.secret, setArgs(kind), kind.typeName);
  if (stray) return refuse(kind, id, stray);
  return { exclusive: o.exclusive, ids: o.ids as string[], ...(o.secret ? { secret: o.secret } : {}) };
}

/** Reads a set's import id (see the file's comment); throws a UserError saying the forms. */
export function parseSetImportId(kind: AssignmentSetKind, id: string): SetImport {
  const q = id.indexOf("?");
  const head = q < 0 ? id : id.slice(0, q);
  const [guardrailId = "", suffix, ...rest] = head.split("/");
  if (!UUID_RE.test(guardrailId)) refuse(kind, id, "the guardrail id is not a UUID");
  if (suffix !== kind.stateKey || rest.length > 0) refuse(kind, id, `it does not end in /${kind.stateKey}`);
  const out: SetImport = { guardrailId: guardrailId.toLowerCase() };
  if (q >= 0) {
    const { secret, ...managed } = parseManaged(kind, id, `${out.guardrailId}/${kind.stateKey}`, id.slice(q + 1));
    out.managed = managed;
    if (secret) out.secret = secret;
  }
  return out;
}
