/**
 * The pull-request comment when a preview may not run with the key: which paths stopped it, and
 * what a maintainer does next. Paths are the PR author's strings, so each is a code span from the
 * shared neutraliser. The comment is bounded: a PR may change thousands of paths, and GitHub
 * refuses a comment over 65,536 characters, which this one shares with the preview's summary.
 */
import { code } from "../../src/preview";
import type { Selection } from "./select";

/** Options naming the folder and the protected environment in the comment. */
export interface CommentOptions {
  dataDir: string;
  /** The GitHub environment whose reviewers approve a run of the PR's own code. @default "guardrails-code-preview" */
  environment?: string;
}

/** Longest comment, in characters: well under GitHub's 65,536, leaving room for the summary it is posted with. */
export const COMMENT_MAX_CHARS = 12_000;
/** Most paths listed per list (blockers, ignored, stale); the rest are counted. */
export const LISTED_MAX = 50;
/** Characters one of the (at most two) lists may take, leaving 2,000 for the sentences around them. */
const LIST_BUDGET = Math.floor((COMMENT_MAX_CHARS - 2_000) / 2);

const path = (p: string) => code(p, 200);
const count = (n: number) => n.toLocaleString("en-US");

/** As many items as fit in LISTED_MAX and LIST_BUDGET, and how many were left out. */
function fit(items: string[]): { shown: string[]; left: number } {
  const shown: string[] = [];
  let used = 0;
  for (const item of items.slice(0, LISTED_MAX)) {
    if (used + item.length > LIST_BUDGET) break;
    shown.push(item);
    used += item.length + 2;
  }
  return { shown, left: items.length - shown.length };
}

/** An inline list: `a`, `b` … and 1,890 more ignored paths. */
function inline(paths: string[], noun: string): string {
  const { shown, left } = fit(paths.map(path));
  return shown.join(", ") + (left > 0 ? ` … and ${count(left)} more ${noun}` : "");
}

/** Markdown for the PR: why no automatic preview ran, or a note that nothing was previewed. */
export function selectionComment(sel: Selection, options: CommentOptions): string {
  const env = options.environment ?? "guardrails-code-preview";
  const dir = path(`${options.dataDir}/`);
  if (sel.mode === "none") return `**Guardrails: no preview.** This pull request changes no data file in ${dir}.\n`;
  if (sel.mode === "data") {
    const lines = [
      `**Guardrails: previewed** with the data files of this pull request and everything else from the base branch.`,
    ];
    if (sel.stale.length)
      lines.push(
        `The base branch also changed ${inline(sel.stale, "such files")} since this branch started; the preview shows this pull request's copy. Merge or rebase the base branch to preview the result of the merge.`,
      );
    if (sel.ignored.length)
      lines.push(`Not read by the loader, so left as the base has them: ${inline(sel.ignored, "ignored paths")}.`);
    return lines.join("\n\n") + "\n";
  }
  const { shown, left } = fit(sel.blockers.map((b) => `- ${path(b.path)} ${b.reason}`));
  if (left > 0) shown.push(`- … and ${count(left)} more paths that block the preview`);
  return (
    [
      `**Guardrails: no automatic preview.** This pull request changes more than the data files in ${dir}:`,
      shown.join("\n"),
      `The automatic preview runs only the base branch's code, with the data files from the pull request, so that no code from a pull request ever runs with the management key. Code and configuration changes need a maintainer-approved run: a maintainer who has read the changes approves the ${code(env)} deployment of this workflow run.`,
    ].join("\n\n") + "\n"
  );
}
