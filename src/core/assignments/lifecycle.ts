/**
 * Provider methods of the assignment sets, one implementation for members and keys: check
 * and diff here (check also records where added ids sit now, moves.ts), the ones that call
 * the service in read.ts and write.ts. The state map is state-map.ts, applying a plan
 * apply.ts, finding where ids went held-elsewhere.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { SET_ARGS, type AssignmentInputs } from "../args/assignment-args";
import { forEngine, issuesToFailures, secretArgsOf } from "../args/messages";
import { containsUnknown, isUnknown } from "../unknown";
import { userProps } from "../guardrail/check";
import type { AssignmentSetKind } from "./kind";
import { EXTRA_KEYS, keptMoves, movesAt, movesIn, withMoves } from "./moves";
import { readSet } from "./read";
import { statusesIn } from "./state-map";
import { createSet, deleteSet, updateSet } from "./write";
import { UserError } from "../user-error";

type Props = Record<string, unknown>;

/** The provider methods of one kind of set (what `internal.ts` exposes by name). */
export function assignmentLifecycle(kind: AssignmentSetKind) {
  return {
    check: async (olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> => checkWithMoves(kind, olds, news),
    diff: async (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> => diffSet(kind, olds, news),
    create: async (news: Props): Promise<pulumi.dynamic.CreateResult> => createSet(kind, parseSet(kind, news), news.__provider, movesIn(news)),
    read: async (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> => readSet(kind, id, props),
    update: async (_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => updateSet(kind, olds, parseSet(kind, news), news.__provider, movesIn(news)),
    delete: async (_id: string, props: Props): Promise<void> => deleteSet(kind, props),
  };
}

/** The user's args: without Pulumi's keys and the ones the class and `check` add (moves.ts). */
const setProps = (props: Props) => {
  const out = userProps(props);
  for (const k of EXTRA_KEYS) delete out[k];
  return out;
};

/**
 * A zod path in the program's words: the state key (`members`) becomes the arg (`memberUserIds`).
 * Past the state key, a path names an id; when the ids are secret, the path stops at the arg.
 */
function argPath(kind: AssignmentSetKind, property: string, isSecret: (root: string) => boolean = () => false): string {
  if (isSecret(kind.stateKey) && new RegExp(`^${kind.stateKey}\\b`).test(property)) return kind.argName;
  return property.replace(new RegExp(`^${kind.stateKey}\\b`), kind.argName);
}

/** The program's inputs, known and checked, as the lifecycle works with them. */
export function parseSet(kind: AssignmentSetKind, news: Props): AssignmentInputs {
  const parsed = SET_ARGS[kind.stateKey].full.safeParse(setProps(news), { reportInput: true });
  const secret = secretArgsOf(news);
  if (!parsed.success) throw new UserError(issuesToFailures(parsed.error, [], secret).map((f) => `${argPath(kind, f.property, secret)}: ${f.reason}`).join("; "));
  const map = parsed.data.ids;
  // Guardrail ids are UUIDs, case-insensitive; the service's own are lower case.
  return { guardrailId: parsed.data.guardrailId.toLowerCase(), ids: new Set(Object.keys(map).filter((id) => map[id] === true)), exclusive: parsed.data.exclusive ?? false };
}

/** Valid args get the ids the next `up` takes off other guardrails recorded as `moves` (moves.ts). */
async function checkWithMoves(kind: AssignmentSetKind, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const checked = checkSet(kind, news);
  if ((checked.failures ?? []).length > 0 || containsUnknown(setProps(news))) return checked;
  const inputs = parseSet(kind, news);
  const moves = await movesAt(kind, olds ?? {}, news, inputs).catch(() => ({}));
  return { inputs: withMoves(news, { ...keptMoves(kind, olds ?? {}, inputs), ...moves }), failures: [] };
}

function checkSet(kind: AssignmentSetKind, news: Props): pulumi.dynamic.CheckResult {
  const props = setProps(news);
  const known = Object.fromEntries(Object.entries(props).filter(([, v]) => !containsUnknown(v)));
  const failures = [];
  if (!isUnknown(props.guardrailId) && !("guardrailId" in known)) failures.push({ property: "guardrailId", reason: "is required: the id of a Guardrail (e.g. guardrail.id)" });
  const parsed = SET_ARGS[kind.stateKey].partial.safeParse(known, { reportInput: true });
  const secret = secretArgsOf(news);
  if (!parsed.success) for (const f of issuesToFailures(parsed.error, ["guardrailId", kind.argName, "exclusive"], secret)) failures.push({ property: argPath(kind, f.property, secret), reason: f.reason });
  return { inputs: news, failures: forEngine(failures, (root) => secret(root) || (root === kind.argName && secret(kind.stateKey))) };
}

function diffSet(kind: AssignmentSetKind, olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const props = setProps(news);
  if (isUnknown(props.guardrailId)) return { changes: true, replaces: ["guardrailId"], deleteBeforeReplace: false };
  if (String(props.guardrailId).toLowerCase() !== String(olds.guardrailId).toLowerCase()) return { changes: true, replaces: ["guardrailId"], deleteBeforeReplace: false };
  if (containsUnknown(props)) return { changes: true, replaces: [] };
  const inputs = parseSet(kind, news);
  const map = statusesIn(olds, kind.stateKey);
  // A change: the mode, an id asked for but not assigned here, or an id recorded that the
  // program no longer lists (assigned ones are removed; the rest just leave the state).
  const changes = inputs.exclusive !== Boolean(olds.exclusive) || [...inputs.ids].some((id) => map[id] !== true) || Object.keys(map).some((id) => !inputs.ids.has(id));
  return { changes, replaces: [], deleteBeforeReplace: false };
}
