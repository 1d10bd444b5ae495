/**
 * What the scheduled drift check does with the tracking issue: one open issue while the service
 * differs from Git, updated on each run that still finds drift, closed once it matches again.
 *
 * The issue is the one the workflow itself opened: authored by GitHub Actions' bot and starting
 * with DRIFT_MARKER. A label proves nothing (anyone who can triage adds it to any issue, and the
 * workflow would then overwrite that issue's body or close it), so an issue that merely carries
 * the label is left alone and reported.
 */
import { UserError } from "../../src/preview";

/** The hidden first line of every drift issue's body; the workflow writes it, and only issues that start with it are ours. */
export const DRIFT_MARKER = "<!-- guardrails-drift-issue: opened by the guardrails-drift workflow -->";

/** An open issue as `gh issue list --json number,author,body` lists it, reduced to what the decision needs. */
export interface OpenIssue {
  number: number;
  /** True when GitHub Actions' bot opened it and its body starts with DRIFT_MARKER. */
  ours: boolean;
}

/** What to do with the drift issue; `update` and `close` name the issues. */
export type DriftIssueAction =
  | { action: "open" }
  | { action: "update"; issue: number; duplicates: number[] }
  | { action: "close"; issues: number[] }
  | { action: "none" };

/**
 * Over the workflow's own issues only: drift + none open: open one; drift + open issues: update
 * the oldest (the others are reported as duplicates, never closed on a guess); no drift + open
 * issues: close them all; no drift + none: nothing.
 */
export function decideDriftIssue(drift: boolean, open: OpenIssue[]): DriftIssueAction {
  const numbers = [...new Set(open.filter((i) => i.ours).map((i) => i.number))].sort((a, b) => a - b);
  if (drift)
    return numbers.length === 0
      ? { action: "open" }
      : { action: "update", issue: numbers[0]!, duplicates: numbers.slice(1) };
  return numbers.length === 0 ? { action: "none" } : { action: "close", issues: numbers };
}

/**
 * The logins gh and the REST API give GitHub Actions' bot: `app/github-actions` (gh), `github-actions[bot]`
 * (REST); plain `github-actions` (GraphQL) only with `is_bot: true`. No person's login contains `/` or `[`.
 */
function byActionsBot(author: unknown): boolean {
  const { login, is_bot: isBot } = (author ?? {}) as { login?: unknown; is_bot?: unknown };
  return (
    login === "app/github-actions" || login === "github-actions[bot]" || (login === "github-actions" && isBot === true)
  );
}

const example = JSON.stringify([
  { number: 12, author: { login: "app/github-actions", is_bot: true }, body: `${DRIFT_MARKER}\n…` },
]);

/**
 * Reads `gh issue list --json number,author,body` output: a list of objects with a positive
 * integer `number` (strictly). An issue without the bot as author or without the marker is not
 * ours; a missing author or body counts as not ours, never as ours.
 */
export function parseOpenIssues(text: string): OpenIssue[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UserError(
      `the open-issues file is not JSON; expected the output of \`gh issue list --json number,author,body\`, such as ${example}`,
    );
  }
  if (!Array.isArray(json))
    throw new UserError(`the open-issues file holds ${typeof json}; expected a JSON list such as ${example}`);
  return json.map((item, i) => {
    const { number: n, author, body } = (item ?? {}) as { number?: unknown; author?: unknown; body?: unknown };
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0)
      throw new UserError(`open issue [${i}]: number ${JSON.stringify(n)} is not a positive integer`);
    return {
      number: n,
      ours: byActionsBot(author) && typeof body === "string" && body.trimStart().startsWith(DRIFT_MARKER),
    };
  });
}

/** The decision as `key=value` lines for `$GITHUB_OUTPUT`. */
export function actionOutputs(d: DriftIssueAction): string {
  const lines = [`action=${d.action}`];
  if (d.action === "update") lines.push(`issue=${d.issue}`, `duplicates=${d.duplicates.join(" ")}`);
  if (d.action === "close") lines.push(`issues=${d.issues.join(" ")}`);
  return lines.join("\n") + "\n";
}
