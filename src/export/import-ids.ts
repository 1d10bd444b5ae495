/**
 * The import id of a dynamic-face resource on its move to the native face. A guardrail gets
 * its id, with (core/guardrail/import-id.ts) the model identifiers its program sent where they
 * differ from the service's answer (an alias), so the program still previews with no change;
 * a list whose copy is secret is not carried (the preview then shows `~ allowedModels`, and one
 * update settles it, as after any `pulumi import`). A set gets the managed form (core/assignments/import-id.ts) naming exactly what its
 * dynamic state managed: its mode and the ids its program listed. The plain form would import
 * the guardrail's whole live set: ids assigned out of band would come into the set's care and
 * the program's next `up` would unassign them. A set whose state cannot say what it managed
 * (its ids are secret, so only ciphertext is exported; or the outputs are not the shape the
 * dynamic face writes) is refused: the migration never guesses which ids a set owns.
 */
import { managedImportId } from "../core/assignments/import-id";
import { managedGuardrailImportId, type SentModels } from "../core/guardrail/import-id";
import { MODEL_LISTS, sameSet } from "../core/guardrail/model-lists";
import { FOREIGN } from "../core/assignments/status";
import { shown } from "../core/args/messages";
import { GUARDRAIL_TYPE, KEY_ASSIGNMENT_TYPE, MEMBER_ASSIGNMENT_TYPE } from "../core/type-tokens";

const STATE_KEY: Record<string, "members" | "keys"> = {
  [MEMBER_ASSIGNMENT_TYPE]: "members",
  [KEY_ASSIGNMENT_TYPE]: "keys",
};
const ARG: Record<string, string> = { members: "memberUserIds", keys: "keyHashes" };

/** An exported secret: ciphertext, or the plain envelope `--show-secrets` prints. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const isSecret = (v: unknown) => !!v && typeof v === "object" && SIG_KEY in (v as object);

/**
 * The import id of a resource the migration moves (see the file's comment).
 *
 * @param fail throws the migration's error with the reason.
 */
export function importIdOf(
  r: { urn: string; type: string; id?: unknown; outputs?: unknown },
  fail: (why: string) => never,
): string {
  const id = r.id as string;
  if (r.type === GUARDRAIL_TYPE) return managedGuardrailImportId(id, sentModels(r.outputs));
  const key = STATE_KEY[r.type];
  if (!key) return id;
  const outs = r.outputs as Record<string, unknown> | null | undefined;
  const map = outs?.[key];
  const exclusive = outs?.exclusive ?? false;
  if (isSecret(map) || isSecret(exclusive) || isSecret(outs))
    fail(
      `${shown(r.urn)}: its ${ARG[key]} are secret, and the migration would have to write them in plain text (in the import id pulumi shows) to import only those; make them plain in the program, pulumi up, migrate, then make them secret again on the native face`,
    );
  if (!map || typeof map !== "object" || Array.isArray(map) || typeof exclusive !== "boolean")
    fail(
      `${shown(r.urn)}: its state does not say which ${ARG[key]} it manages (no ${key} map); run pulumi refresh, then migrate`,
    );
  const statuses = map as Record<string, unknown>;
  const ids = Object.keys(statuses).filter((k) => statuses[k] !== FOREIGN);
  return managedImportId(id.slice(0, id.length - key.length - 1), key, { exclusive, ids });
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
