/**
 * The pull-request comment when a preview may not run with the key: which paths stopped it, and
 * what a maintainer does next. Paths are the PR author's strings, so each is a literal.
 */
import { literal } from "./markdown";
import type { Selection } from "./select";

/** Options naming the folder and the protected environment in the comment. */
export interface CommentOptions {
  dataDir: string;
  /** The GitHub environment whose reviewers approve a run of the PR's own code. @default "guardrails-code-preview" */
  environment?: string;
}

/** Markdown for the PR: why no automatic preview ran, or a note that nothing was previewed. */
export function selectionComment(sel: Selection, options: CommentOptions): string {
  const env = options.environment ?? "guardrails-code-preview";
  if (sel.mode === "none") return `**Guardrails: no preview.** This pull request changes no data file in ${literal(`${options.dataDir}/`)}.\n`;
  if (sel.mode === "data") {
    const lines = [`**Guardrails: previewed** with the data files of this pull request and everything else from the base branch.`];
    if (sel.stale.length) lines.push(`The base branch also changed ${sel.stale.map(literal).join(", ")} since this branch started; the preview shows this pull request's copy. Merge or rebase the base branch to preview the result of the merge.`);
    if (sel.ignored.length) lines.push(`Not read by the loader, so left as the base has them: ${sel.ignored.map(literal).join(", ")}.`);
    return lines.join("\n\n") + "\n";
  }
  const shown = sel.blockers.slice(0, 50).map((b) => `- ${literal(b.path)} ${b.reason}`);
  if (sel.blockers.length > 50) shown.push(`- … and ${sel.blockers.length - 50} more`);
  return [
    `**Guardrails: no automatic preview.** This pull request changes more than the data files in ${literal(`${options.dataDir}/`)}:`,
    shown.join("\n"),
    `The automatic preview runs only the base branch's code, with the data files from the pull request, so that no code from a pull request ever runs with the management key. Code and configuration changes need a maintainer-approved run: a maintainer who has read the changes approves the ${literal(env)} deployment of this workflow run.`,
  ].join("\n\n") + "\n";
}
