/**
 * What a policy's program asks for, checked (`check`, `parseInputs`), how messages name the
 * policy, and the workspace it names: an id, or a slug asked of the service once and checked.
 */
import { annotateAs } from "../resource/annotate";
import { issuesToFailures, markSecret, nameInMessages, secretArgsOf } from "../args/messages";
import { userProps } from "../args/user-props";
import type { Connection } from "../connection";
import { KINDS, type PolicyTypeName } from "../kinds";
import { containsUnknown, isUnknown } from "../markers";
import type { CheckResult } from "../results";
import { UserError } from "../user-error";
import { workspaceIdOf } from "../resource/workspace";
import { isWorkspaceUuid, placedFailures, POLICY_ARGS, type PolicyInputs } from "./args";
import type { PolicyOutputs } from "./model";
import { OtherPolicyError } from "./ops";

/** How messages name the resource: `budget policy "Eng"`, or `budget policy [secret]` when a bag holds the name secret. */
export const label = (type: PolicyTypeName, name: unknown, ...bags: Array<Record<string, unknown> | undefined>) =>
  `${KINDS[type].policy.noun} ${nameInMessages(name, ...bags)}`;

/** The secret args of the program (news) or of the state (olds). */
export const secretNames = (props: Record<string, unknown>): string[] => {
  const n = props.__secretArgs;
  return Array.isArray(n) ? n.filter((x): x is string => typeof x === "string").sort() : [];
};

export function check(type: PolicyTypeName, news: Record<string, unknown>): CheckResult {
  const props = userProps(news);
  const schema = POLICY_ARGS[type];
  const parsed = schema.safeParse(props, { reportInput: true });
  if (parsed.success) return { inputs: news, failures: [] };
  const issues = parsed.error.issues.filter(
    (i) => !isUnknown(props[String(i.path[0] ?? "")]) && !containsUnknown(props[String(i.path[0] ?? "")]),
  );
  const failures = placedFailures(type, issuesToFailures({ issues }, Object.keys(schema.shape), secretArgsOf(news)));
  return { inputs: news, failures: markSecret(failures, secretArgsOf(news)) };
}

/** Inputs `check` accepted; a workspace UUID in its lower-case form. */
export function parseInputs(type: PolicyTypeName, news: Record<string, unknown>): PolicyInputs {
  const parsed = POLICY_ARGS[type].safeParse(userProps(news), { reportInput: true });
  if (!parsed.success) {
    const failures = placedFailures(type, issuesToFailures(parsed.error, [], secretArgsOf(news)));
    throw new UserError(
      `invalid ${KINDS[type].policy.noun} args: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`,
    );
  }
  const inputs = parsed.data as PolicyInputs;
  return {
    ...inputs,
    workspaceId: isWorkspaceUuid(inputs.workspaceId) ? inputs.workspaceId.toLowerCase() : inputs.workspaceId,
  };
}

/**
 * Whether `ref` names another workspace than the recorded one; the recorded id or reference needs
 * no call. A slug no workspace has is an error, never a previewed replacement.
 */
export async function workspaceMoves(
  conn: Connection,
  olds: PolicyOutputs,
  ref: string,
  what: string,
): Promise<boolean> {
  if (ref.toLowerCase() === olds.workspaceId.toLowerCase() || ref === olds.args?.workspaceId) return false;
  if (isWorkspaceUuid(ref)) return true;
  return (await workspaceIdOf(conn, ref, what)) !== olds.workspaceId.toLowerCase();
}

/** A failure of a call, named for the resource. */
export function annotate(what: string, err: unknown): Error {
  if (err instanceof OtherPolicyError) return new OtherPolicyError(`${what}: ${err.message}`, { cause: err });
  // As a Guardrail's: an API error wrapped naming the resource, the field table's wire names in the program's.
  return annotateAs(what, err);
}
