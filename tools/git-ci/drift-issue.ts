/**
 * What the scheduled drift check does with the tracking issue: one open issue while the service
 * differs from Git, updated on each run that still finds drift, closed once it matches again.
 */

/** An open issue that carries the drift label, as `gh issue list --json number` lists it. */
export interface OpenIssue {
  number: number;
}

/** What to do with the drift issue; `update` and `close` name the issues. */
export type DriftIssueAction =
  | { action: "open" }
  | { action: "update"; issue: number; duplicates: number[] }
  | { action: "close"; issues: number[] }
  | { action: "none" };

/**
 * drift + no open issue: open one; drift + open issues: update the oldest (the others are
 * reported as duplicates, never closed on a guess); no drift + open issues: close them all;
 * no drift + none: nothing.
 */
export function decideDriftIssue(drift: boolean, open: OpenIssue[]): DriftIssueAction {
  const numbers = [...new Set(open.map((i) => i.number))].sort((a, b) => a - b);
  if (drift) return numbers.length === 0 ? { action: "open" } : { action: "update", issue: numbers[0]!, duplicates: numbers.slice(1) };
  return numbers.length === 0 ? { action: "none" } : { action: "close", issues: numbers };
}

/** Reads `gh issue list --json number` output, strictly: a list of objects with a positive integer `number`. */
export function parseOpenIssues(text: string): OpenIssue[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("the open-issues file is not JSON; expected the output of `gh issue list --json number`, such as [{\"number\": 12}]");
  }
  if (!Array.isArray(json)) throw new Error(`the open-issues file holds ${typeof json}; expected a JSON list such as [{"number": 12}]`);
  return json.map((item, i) => {
    const n = (item as { number?: unknown } | null)?.number;
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0) throw new Error(`open issue [${i}]: number ${JSON.stringify(n)} is not a positive integer`);
    return { number: n };
  });
}

/** The decision as `key=value` lines for `$GITHUB_OUTPUT`. */
export function actionOutputs(d: DriftIssueAction): string {
  const lines = [`action=${d.action}`];
  if (d.action === "update") lines.push(`issue=${d.issue}`, `duplicates=${d.duplicates.join(" ")}`);
  if (d.action === "close") lines.push(`issues=${d.issues.join(" ")}`);
  return lines.join("\n") + "\n";
}
