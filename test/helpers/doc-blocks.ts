/**
 * The code blocks of the docs (README.md and docs/**.md) that are programs, by language: every
 * ```ts / ```typescript, ```python and ```go block, except one whose info string says `fragment`
 * (```ts fragment): a piece of a program, shown alone, that no compiler could check by itself.
 * GitHub and the Registry render the block by its first word, so the marker does not show.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export type DocLanguage = "ts" | "python" | "go";

export interface DocBlock {
  language: DocLanguage;
  /** `docs/guides/quick-start-other-languages.md:70`: the page and the line of the opening fence. */
  at: string;
  code: string;
}

/** The info string's first word -> the language it is checked as. */
const LANGUAGE: Record<string, DocLanguage> = { ts: "ts", typescript: "ts", python: "python", go: "go" };

/** The marker, a word of the info string after the language, of a block that is not a program. */
export const FRAGMENT = "fragment";

/** README.md and every page under docs/, sorted. */
export function docPages(root: string): string[] {
  const docs = readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f));
  return ["README.md", ...docs.sort()];
}

/** Every program block of one page's text. */
export function programBlocks(page: string, text: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open as unknown as [string, string, string, string, string];
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence); i++)
      body.push(lines[i]!.slice(Math.min(indent.length, lines[i]!.length - lines[i]!.trimStart().length)));
    const language = LANGUAGE[lang.toLowerCase()];
    if (language && !rest.split(/\s+/).includes(FRAGMENT))
      blocks.push({ language, at: `${page}:${start + 1}`, code: `${body.join("\n")}\n` });
  }
  return blocks;
}

/** The program blocks of every page under `root`. */
export function docBlocks(root: string): DocBlock[] {
  return docPages(root).flatMap((page) =>
    programBlocks(relative(root, join(root, page)), readFileSync(join(root, page), "utf8")),
  );
}
