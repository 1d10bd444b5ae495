/**
 * Provider methods of the assignment sets, one implementation for members and keys: check
 * and diff here (check also records where added ids sit now, moves.ts), the ones that call
 * the service in read.ts and write.ts. The state map is state-map.ts, applying a plan
 * apply.ts, finding where ids went held-elsewhere.ts.
 */
import { isWellFormedIdMap, SET_ARGS, type AssignmentInputs } from "../args/assignment-args";
import { issuesToFailures, markSecret, secretArgsOf } from "../args/messages";
import { containsUnknown, isUnknown } from "../markers";
import { userProps } from "../args/user-props";
import { inProgramNames, type AssignmentSetKind } from "./kind";
import { DRY_RUN_KEY, EXTRA_KEYS, keptMoves, movesAt, movesIn, withMoves } from "./moves";
import { readSet } from "./read";
import { statusesIn } from "./state-map";
import { hidingSecretIds } from "./secret-ids";
import { createSet, deleteSet, updateSet } from "./write";
import type { Connection } from "../connection";
import { UserError } from "../user-error";
import {
  keyPath,
  updates,
  type ChangeKind,
  type CheckResult,
  type DiffResult,
  type Lifecycle,
  type PropertyChange,
} from "../results";

type Props = Record<string, unknown>;

/** The provider methods of one kind of set (what `internal.ts` exposes by name), over the provider instance's `conn`. */
export function assignmentLifecycle(kind: AssignmentSetKind, conn: Connection): Lifecycle {
  return {
    check: async (olds, news) => checkWithMoves(conn, kind, olds, news),
    diff: async (_id, olds, news) => diffSet(kind, olds, news),
    create: async (news) =>
      createSet(conn, kind, parseSet(kind, news), news.__provider, movesIn(news)).catch(hidingSecretIds(kind, news)),
    read: async (id, props) => readSet(conn, kind, id, props),
    update: async (_id, olds, news) =>
      updateSet(conn, kind, olds, parseSet(kind, news), news.__provider, movesIn(news)).catch(
        hidingSecretIds(kind, news, olds),
      ),
    delete: async (_id, props) => deleteSet(conn, kind, props).catch(hidingSecretIds(kind, props)),
  };
}

/** The user's args: without Pulumi's keys and the ones the class and `check` add (moves.ts). */
const setProps = (props: Props) => {
  const out = userProps(props);
  for (const k of EXTRA_KEYS) delete out[k];
  return out;
};

/** The program's inputs, known and checked, as the lifecycle works with them. */
export function parseSet(kind: AssignmentSetKind, news: Props): AssignmentInputs {
  const props = setProps(news);
  // A well-formed id map skips zod's per-entry parse (isWellFormedIdMap); zod checks the rest.
  const given = props[kind.stateKey];
  const fast = isWellFormedIdMap(given);
  const parsed = SET_ARGS[kind.stateKey].full.safeParse(fast ? { ...props, [kind.stateKey]: {} } : props, {
    reportInput: true,
  });
  const secret = secretArgsOf(news);
  if (!parsed.success)
    throw new UserError(
      issuesToFailures(parsed.error, [], secret)
        .map((f) => `${inProgramNames(kind, f.property, secret(kind.stateKey))}: ${f.reason}`)
        .join("; "),
    );
  const map = fast ? given : parsed.data.ids;
  // Guardrail ids are UUIDs, case-insensitive; the service's own are lower case.
  return {
    guardrailId: parsed.data.guardrailId.toLowerCase(),
    ids: new Set(Object.keys(map).filter((id) => map[id] === true)),
    exclusive: parsed.data.exclusive ?? false,
  };
}

/** Valid args get the ids the next `up` takes off other guardrails recorded as `moves` (moves.ts). */
async function checkWithMoves(
  conn: Connection,
  kind: AssignmentSetKind,
  olds: Props,
  news: Props,
): Promise<CheckResult> {
  const checked = checkSet(kind, news);
  // The program's word on a preview is for this check alone (moves.ts): no state holds it.
  const { [DRY_RUN_KEY]: _said, ...program } = news;
  if (checked.failures.length > 0 || containsUnknown(setProps(news))) return { ...checked, inputs: program };
  const inputs = parseSet(kind, news);
  const moves = await movesAt(conn, kind, olds ?? {}, news, inputs).catch(() => ({}));
  return { inputs: withMoves(news, { ...keptMoves(kind, olds ?? {}, inputs), ...moves }), failures: [] };
}

function checkSet(kind: AssignmentSetKind, news: Props): CheckResult {
  const props = setProps(news);
  const known = Object.fromEntries(Object.entries(props).filter(([, v]) => !containsUnknown(v)));
  const failures = [];
  if (!isUnknown(props.guardrailId) && !("guardrailId" in known))
    failures.push({ property: "guardrailId", reason: "is required: the id of a Guardrail (e.g. guardrail.id)" });
  // As parseSet: a well-formed id map skips zod's per-entry parse.
  const light = isWellFormedIdMap(known[kind.stateKey]) ? { ...known, [kind.stateKey]: {} } : known;
  const parsed = SET_ARGS[kind.stateKey].partial.safeParse(light, { reportInput: true });
  const secret = secretArgsOf(news);
  if (!parsed.success)
    for (const f of issuesToFailures(parsed.error, ["guardrailId", kind.argName, "exclusive"], secret))
      failures.push({ property: inProgramNames(kind, f.property, secret(kind.stateKey)), reason: f.reason });
  return {
    inputs: news,
    // Marked, not formatted: each face decides how its engine shows a failure at a secret arg.
    failures: markSecret(failures, (root) => secret(root) || (root === kind.argName && secret(kind.stateKey))),
  };
}

function diffSet(kind: AssignmentSetKind, olds: Props, news: Props): DiffResult {
  const props = setProps(news);
  const move: DiffResult = { changes: [{ path: "guardrailId", kind: "replace" }], deleteBeforeReplace: false };
  if (isUnknown(props.guardrailId)) return move;
  if (String(props.guardrailId).toLowerCase() !== String(olds.guardrailId).toLowerCase()) return move;
  if (containsUnknown(props)) return { changes: updates(Object.keys(props).filter((k) => containsUnknown(props[k]))) };
  const inputs = parseSet(kind, news);
  const map = statusesIn(olds, kind.stateKey);
  // A change: the mode, an id asked for but not assigned here, or an id recorded that the
  // program no longer lists (assigned ones are removed; the rest just leave the state).
  const added = [...inputs.ids].filter((id) => map[id] !== true);
  const dropped = Object.keys(map).filter((id) => !inputs.ids.has(id));
  const mode = inputs.exclusive !== Boolean(olds.exclusive) ? updates(["exclusive"]) : [];
  return {
    changes: [...mode, ...idChanges(kind, added, dropped, secretArgsOf(news)(kind.stateKey))],
    deleteBeforeReplace: false,
  };
}

/** One change per id added or dropped (`members["user_bob"]`); for a secret set, the set as a whole. */
function idChanges(kind: AssignmentSetKind, added: string[], dropped: string[], secret: boolean): PropertyChange[] {
  if (secret) return added.length + dropped.length > 0 ? updates([kind.stateKey]) : [];
  const entry =
    (change: ChangeKind) =>
    (id: string): PropertyChange => ({ path: keyPath(kind.stateKey, id), kind: change });
  return [...added.sort().map(entry("add")), ...dropped.sort().map(entry("delete"))];
}
