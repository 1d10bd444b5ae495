/**
 * A set whose id list is secret never names its ids in a message (issue 38, class 2). The
 * messages of a failed apply (apply.ts: "1 member(s) did not land …: user_x", a server's
 * text quoted in describeFailure) name ids, for a plain set rightly; for a secret one every
 * id the set knows (the program's, the state's) is replaced by `[secret]` before the message
 * leaves the core, on both faces. The state a PartialApplyError carries keeps the ids: the
 * engine seals it, as every copy of a secret arg.
 */
import { secretArgsOf } from "../args/messages";
import { withoutIds } from "../text/without-ids";
import { UserError } from "../user-error";
import { PartialApplyError } from "./apply";
import type { AssignmentSetKind } from "./kind";
import { statusesIn } from "./state-map";

/**
 * A catch handler for a set's write: when the program (or the recorded state) made the id
 * list secret, the failure again with no id named; else the failure as it was.
 */
export function hidingSecretIds(kind: AssignmentSetKind, ...bags: Array<Record<string, unknown> | undefined>) {
  const secret = bags.some((b) => {
    const is = secretArgsOf(b ?? {});
    return b !== undefined && (is(kind.stateKey) || is(kind.argName));
  });
  const ids = bags.flatMap((b) => Object.keys(statusesIn(b, kind.stateKey)));
  return (err: unknown): never => {
    if (!secret || !(err instanceof UserError)) throw err;
    const hide = (t: string) => withoutIds(t, ids);
    // No `cause`: the original names the ids (what a message of a secret set must not).
    if (err instanceof PartialApplyError)
      throw new PartialApplyError(hide(err.message), err.id, err.properties, err.reasons.map(hide));
    throw new UserError(hide(err.message));
  };
}
