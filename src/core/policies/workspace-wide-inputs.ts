/**
 * A workspace-wide policy's args checked (`check`, `parseInputs`), how messages name it, and the
 * checks of what a write answered: the policy asked for, of a kind this package manages.
 */
import type { WireWorkspaceWidePolicy } from "../client/policy-wire";
import { issuesToFailures, markSecret, nameInMessages, secretArgsOf, shown } from "../args/messages";
import { userProps } from "../args/user-props";
import type { PolicyKind } from "../fields/policy-kinds";
import { containsUnknown, isUnknown } from "../markers";
import type { CheckResult } from "../results";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";
import { sealed } from "./changes";
import type { PolicyOutputs } from "./model";
import { WORKSPACE_WIDE_ARG_NAMES, WORKSPACE_WIDE_ARGS, type WorkspaceWideInputs } from "./workspace-wide-args";
import type { coverage } from "./workspace-wide-create";
import type { WorkspaceWideOutputs } from "./workspace-wide-model";

export const NOUN = "workspace-wide policy";
/** How messages name the resource: `workspace-wide policy "Org"`, or `[secret]` when a bag holds the name secret. */
export const label = (name: unknown, ...bags: Array<Record<string, unknown> | undefined>) =>
  `${NOUN} ${nameInMessages(name, ...bags)}`;

/** The secret args of the program (news) or of the state (olds). */
export const secretNames = (props: object): string[] => {
  const n = (props as Record<string, unknown>).__secretArgs;
  return Array.isArray(n) ? n.filter((x): x is string => typeof x === "string").sort() : [];
};
export const seal = (outs: WorkspaceWideOutputs, names: string[]) => sealed(outs as unknown as PolicyOutputs, names);

export function check(news: Record<string, unknown>): CheckResult {
  const props = userProps(news);
  const parsed = WORKSPACE_WIDE_ARGS.safeParse(props, { reportInput: true });
  if (parsed.success) return { inputs: news, failures: [] };
  const issues = parsed.error.issues.filter(
    (i) => !isUnknown(props[String(i.path[0] ?? "")]) && !containsUnknown(props[String(i.path[0] ?? "")]),
  );
  const failures = issuesToFailures({ issues }, WORKSPACE_WIDE_ARG_NAMES, secretArgsOf(news));
  return { inputs: news, failures: markSecret(failures, secretArgsOf(news)) };
}

/** Inputs `check` accepted. */
export function parseInputs(news: Record<string, unknown>): WorkspaceWideInputs {
  const parsed = WORKSPACE_WIDE_ARGS.safeParse(userProps(news), { reportInput: true });
  if (parsed.success) return parsed.data as WorkspaceWideInputs;
  const failures = issuesToFailures(parsed.error, [], secretArgsOf(news));
  throw new UserError(`invalid ${NOUN} args: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
}

/**
 * A write's answer with the coverage it sent where the answer leaves it out (only `id`, `name` and
 * `policy_type` are required, rule 28): a missing list must not read as "none" at the next check.
 */
export const withSent = (p: WireWorkspaceWidePolicy, sent: ReturnType<typeof coverage>): WireWorkspaceWidePolicy => ({
  ...p,
  workspace_ids: p.workspace_ids ?? sent.workspace_ids,
  opted_out_workspace_ids: p.opted_out_workspace_ids ?? sent.opted_out_workspace_ids,
  is_default: p.is_default ?? sent.is_default,
});

/**
 * A write's answer, when it is about the policy asked for: another id or another kind is refused,
 * never stored as this one (a moderation policy read as a budget would be "the limit was removed").
 */
export function answered(
  p: WireWorkspaceWidePolicy,
  kind: PolicyKind,
  id: string | undefined,
  call: string,
  what: string,
) {
  if (p.kind === kind && (id === undefined || p.id.toLowerCase() === id.toLowerCase())) return p;
  throw new UserError(
    `${what}: ${call} was answered with ${idText(p.policy_type)} policy ${idText(p.id)}; not reading another policy as this one`,
  );
}

/** A record of a kind this package manages (a new `policy_type` such as `rate_limit` is not). */
export function known(p: WireWorkspaceWidePolicy, what: string): WireWorkspaceWidePolicy & { kind: PolicyKind } {
  if (p.kind === null)
    throw new UserError(
      `${what}: the service holds it as a ${shown(p.policy_type)} policy, a policy_type this package does not manage (it manages budget, model_availability and moderation)`,
    );
  return p as WireWorkspaceWidePolicy & { kind: PolicyKind };
}
