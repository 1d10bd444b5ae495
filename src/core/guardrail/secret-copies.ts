/**
 * Every copy of a secret arg is a secret in state (issue 24, finding 1).
 *
 * The dynamic provider host does not accept secrets: the engine hands the provider plain
 * values and re-marks an output secret only when an input of the same name was secret. The
 * Guardrail's outputs keep copies of its args under other names (`args`, `modelAnswers`, the
 * canonical model lists, the per-vendor ZDR flags that fall back to `enforceZdr`, the default
 * workspace's id), which would be plain text. So the Guardrail class tells the provider which
 * args the program made secret (the hidden input `__secretArgs`: names, never values), and the
 * provider returns each copy of one in Pulumi's secret envelope, which the engine keeps (it
 * reads every provider answer with secrets kept; CLI 3.216 through 3.259 and the dynamic
 * provider host of every SDK since pass the envelope through unchanged). A program without
 * secrets gets no envelope, so its outputs, `stack output` and state stay readable.
 */
import { FIELD_NAMES, spec } from "../fields/fields";
import { SECRET_ARGS } from "../args/messages";
import { asSecret } from "../markers";
import { CANONICAL_OUTPUT, MODEL_LISTS, type ModelList } from "./model-lists";

/** Outputs other than its own name (and `args.<name>`) that copy an arg. */
function copiesOf(name: string): string[] {
  if ((MODEL_LISTS as readonly string[]).includes(name)) return [CANONICAL_OUTPUT[name as ModelList]];
  if (name === "workspaceId") return ["defaultWorkspaceId"];
  // The guardrail's own id, recorded for the policy pack (model.ts), is the adopted one's id.
  if (name === "adoptId") return ["guardrailId"];
  return FIELD_NAMES.filter((k) => spec(k).fallback === name);
}

function wrap(bag: Record<string, unknown>, key: string): void {
  if (bag[key] !== undefined) bag[key] = asSecret(bag[key]);
}

/**
 * The outputs with every copy of a secret arg as a secret, and the names recorded, so diff
 * knows what the state was written with and `read` marks the same copies. Unchanged (and no
 * names recorded) when the program has no secret.
 */
export function withSecretCopies<T extends object>(outs: T, names: readonly string[]): T | Record<string, unknown> {
  if (names.length === 0) return outs;
  const marked: Record<string, unknown> = { ...outs, [SECRET_ARGS]: [...names] };
  const args =
    marked.args && typeof marked.args === "object" ? { ...(marked.args as Record<string, unknown>) } : undefined;
  const answers =
    marked.modelAnswers && typeof marked.modelAnswers === "object"
      ? { ...(marked.modelAnswers as Record<string, unknown>) }
      : undefined;
  for (const name of names) {
    for (const key of [name, ...copiesOf(name)]) wrap(marked, key);
    // An import's `args` also holds the copies (its inputs: a vendor flag read back, issue 38).
    if (args) for (const key of [name, ...copiesOf(name)]) wrap(args, key);
    if (answers) wrap(answers, name);
  }
  if (args) marked.args = args;
  if (answers) marked.modelAnswers = answers;
  return marked;
}
