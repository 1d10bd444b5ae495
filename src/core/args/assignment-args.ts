/**
 * Args of the assignment sets as the provider receives them. The resource classes turn the
 * user's id list into a map `{id: true}`, because the engine diffs objects key by key but
 * arrays index by index: a map makes a preview name each id added or removed.
 */
import { z } from "zod";
import type { ArgDoc } from "../arg-doc";
import { UUID_RE } from "../fields/constants";

/** What is wrong with one id of a set, or undefined when nothing is (both faces say it so). */
export function idProblem(id: string): string | undefined {
  if (id.trim() === "") return "ids must be non-empty strings";
  if (id.length > 500) return "ids must be at most 500 characters";
  return undefined;
}

/**
 * Whether `map` is an id map zod would accept as it is: a plain object whose every key passes
 * `idProblem` and whose every value is `true` or a status string. One loop, where zod's record
 * parses each key and value apart: 10,000 ids cost it about 0.1 s in a fresh provider process
 * (issue 43). A map that is not plainly well formed is left to zod, for its messages.
 */
export function isWellFormedIdMap(map: unknown): map is Record<string, true | string> {
  if (map === null || typeof map !== "object") return false;
  const proto = Object.getPrototypeOf(map);
  if (proto !== Object.prototype && proto !== null) return false;
  const record = map as Record<string, unknown>;
  for (const id in record) {
    const v = record[id];
    if ((v !== true && typeof v !== "string") || idProblem(id) !== undefined) return false;
  }
  return true;
}

/** The id map: `true` is what programs send; a status string is what `read` records. */
const idMap = (argName: string) =>
  z
    // A status string is what `read` records for an id that is not assigned here (the engine
    // diffs refreshed inputs during `pulumi refresh`), so it parses too.
    .record(z.string(), z.union([z.literal(true), z.string()]), { error: `${argName} must be a list of strings` })
    .superRefine((map, ctx) => {
      for (const id of Object.keys(map)) {
        const problem = idProblem(id);
        if (problem) ctx.addIssue({ code: "custom", message: problem, input: id });
      }
    });

// The string's error is every check's too: one message for a non-string and a non-UUID.
const guardrailId = z.string({ error: "must be a guardrail id (UUID)" }).regex(UUID_RE);
const exclusive = z.boolean({ error: "must be true or false" }).nullish();
// In the order a program writes them, which is the order problems are listed in.
const memberSetArgs = z.strictObject({ guardrailId, members: idMap("memberUserIds"), exclusive });
const keySetArgs = z.strictObject({ guardrailId, keys: idMap("keyHashes"), exclusive });

/**
 * Per state key (`members` / `keys`): `full` parses what create and update receive, giving the
 * map as `ids` whatever the key; `partial` is what `check` parses, unknown values left out.
 */
export const SET_ARGS = {
  members: {
    full: memberSetArgs.transform(({ members, ...rest }) => ({ ...rest, ids: members })),
    partial: memberSetArgs.partial(),
  },
  keys: { full: keySetArgs.transform(({ keys, ...rest }) => ({ ...rest, ids: keys })), partial: keySetArgs.partial() },
} as const;

/**
 * The docs of the sets' args, by the schema's keys: the id list under its state key (`members`,
 * `keys`), which a program writes as its arg name (`memberUserIds`, `keyHashes`). A new arg does
 * not compile until it is described here. src/dynamic/assignments.ts repeats them as JSDoc for
 * the IDE (test/unit/arg-docs.test.ts holds the copies equal).
 */
export const SET_ARG_DOCS: Record<keyof typeof memberSetArgs.shape | keyof typeof keySetArgs.shape, ArgDoc> = {
  guardrailId: {
    text: "The guardrail (its id, e.g. `guardrail.id`). **Changing it replaces the resource**; the members end up on the new guardrail either way.",
  },
  exclusive: {
    text: "`false` (additive): manage exactly the listed ids and never touch others. `true` (exclusive): own the guardrail's whole set; ids assigned out of band are removed. Changing it updates in place.",
    fallback: "false",
  },
  members: { text: "Organization member user ids (`user_...`); a set: order and duplicates do not matter." },
  keys: { text: "API key hashes; a set: order and duplicates do not matter." },
};

/** A set's inputs, parsed. */
export interface AssignmentInputs {
  guardrailId: string;
  ids: Set<string>;
  exclusive: boolean;
}
