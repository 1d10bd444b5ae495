/**
 * The command's flags checked before any call (issue 41): the subject through the lookups' own
 * schema (ACCESS_ARGS, so the command and the lookups refuse the same values), the query as
 * plain non-empty text. Each failure names the flag, the value (quoted and neutralised by
 * `shown`) and what is expected.
 */
import type { AccessQuery } from "../core/access";
import { shown } from "../core/args/messages";
import { ACCESS_ARGS } from "../core/data-sources/access";
import type { AccessSubject } from "../core/data-sources/access-org";
import { hasControl } from "../core/text/controls";
import { UserError } from "../core/user-error";

/** A flag or its value is wrong: exit 2, before any call. */
export class AccessUsageError extends UserError {}

const FLAG_OF: Record<string, string> = {
  memberId: "--member",
  keyHash: "--key",
  ownerMemberId: "--owner",
  workspaceId: "--workspace",
};

/** The flags as given (strings, or undefined when absent). */
export interface SubjectFlags {
  member?: string | undefined;
  key?: string | undefined;
  owner?: string | undefined;
  workspace?: string | undefined;
}

const defined = (o: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** `--workspace`, checked as the lookups check `workspaceId`. */
export function checkWorkspace(workspace: string | undefined): string | undefined {
  if (workspace === undefined) return undefined;
  const parsed = ACCESS_ARGS.safeParse({ memberId: "x", workspaceId: workspace });
  if (!parsed.success)
    throw new AccessUsageError(
      `--workspace ${shown(workspace)}: ${parsed.error.issues[0]?.message ?? "must be a workspace id (UUID) or slug"}`,
    );
  return workspace;
}

/** `--member` or `--key` (with `--owner`), checked as the lookups check them. */
export function checkSubject(f: SubjectFlags): { subject: AccessSubject; workspaceId: string | undefined } {
  const raw = { memberId: f.member, keyHash: f.key, ownerMemberId: f.owner, workspaceId: f.workspace };
  const parsed = ACCESS_ARGS.safeParse(defined(raw));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const field = String(i.path[0] ?? "memberId");
      const value = raw[field as keyof typeof raw];
      const message = i.message
        .replaceAll("memberId", "--member")
        .replaceAll("keyHash", "--key")
        .replaceAll("ownerMemberId", "--owner");
      return `${FLAG_OF[field] ?? field}${value === undefined ? "" : ` ${shown(value)}`}: ${message}`;
    });
    throw new AccessUsageError(problems.join("; "));
  }
  const a = parsed.data;
  const subject: AccessSubject =
    a.memberId !== undefined ? { memberId: a.memberId } : { keyHash: a.keyHash!, ownerMemberId: a.ownerMemberId };
  return { subject, workspaceId: a.workspaceId };
}

/** Each flag at most once: a repeated one would keep its last value and drop the others unseen. */
export function checkOnce(flags: readonly string[]): void {
  const counts = new Map<string, number>();
  for (const f of flags) counts.set(f, (counts.get(f) ?? 0) + 1);
  const repeated = [...counts].filter(([, n]) => n > 1);
  if (repeated.length > 0)
    throw new AccessUsageError(repeated.map(([f, n]) => `--${f} is given ${n} times: give it once`).join("; "));
}

/** `--model`, `--provider`, `--region`: each non-empty printable text when given. */
export function checkQuery(q: AccessQuery): AccessQuery {
  const out: AccessQuery = {};
  for (const k of ["model", "provider", "region"] as const) {
    const v = q[k];
    if (v === undefined) continue;
    if (v.trim() === "" || hasControl(v) || v.length > 200)
      throw new AccessUsageError(
        `--${k} ${shown(v)}: expected a ${k} id (non-empty, printable, at most 200 characters), such as ${k === "model" ? "vendor-a/model-x" : k === "provider" ? "vendor-a" : "europe"}`,
      );
    out[k] = v;
  }
  return out;
}
