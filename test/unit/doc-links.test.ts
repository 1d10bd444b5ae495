/**
 * Every relative link of the user and contributor docs (README.md, CONTRIBUTING.md, CHANGELOG.md,
 * docs/, bench/README.md, mutation/README.md) points to a file or folder that exists, and a `#fragment` to a heading
 * of that page (GitHub's slugs), so moving a page cannot leave a dead link behind. And every
 * relative link of a page the npm package ships points to a file that ships too, so the docs read
 * from `node_modules/pulumi-guardrails` have no dead link either.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "../..");
const pages = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  "bench/README.md",
  "mutation/README.md",
  ...(readdirSync(join(root, "docs"), { recursive: true }) as string[])
    .filter((p) => p.endsWith(".md"))
    .map((p) => `docs/${p}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The text outside fenced code blocks. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");

function anchors(page: string): Set<string> {
  return new Set(
    [...prose(readFileSync(join(root, page), "utf8")).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)),
  );
}

/** Every relative link of a page that does not resolve, as `page: target`. */
function deadLinks(
  page: string,
  text: string,
  exists: (path: string) => boolean,
  headings: (path: string) => Set<string>,
): string[] {
  const dead: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
    const [path, fragment] = target!.split("#") as [string, string | undefined];
    const file = path === "" ? page : join(dirname(page), path);
    if (!exists(file)) dead.push(`${page}: ${target} (no ${file})`);
    else if (fragment !== undefined && file.endsWith(".md") && !headings(file).has(fragment))
      dead.push(`${page}: ${target} (no heading #${fragment} in ${file})`);
  }
  return dead;
}

const onDisk = (p: string) =>
  existsSync(join(root, p)) && (statSync(join(root, p)).isFile() || statSync(join(root, p)).isDirectory());

describe("relative links in the docs", () => {
  it("reads the pages: the README, CONTRIBUTING.md and a docs/ page per resource and guide", () => {
    expect(pages).toEqual(
      expect.arrayContaining([
        "README.md",
        "CONTRIBUTING.md",
        "docs/README.md",
        "docs/resources/guardrail.md",
        "docs/guides/day-2.md",
      ]),
    );
  });

  it.each(pages)("%s: every relative link points to a file that exists", (page) => {
    expect(deadLinks(page, readFileSync(join(root, page), "utf8"), onDisk, anchors)).toEqual([]);
  });

  it("a dead link or a missing heading is reported; code blocks and web links are not links", () => {
    const text =
      "[a](gone.md) [b](docs/README.md#no-such-heading) [c](https://x.invalid/y) [d](#day-2-work)\n```\n[e](also-gone.md)\n```\n";
    const found = deadLinks(
      "README.md",
      text,
      (p) => p !== "gone.md",
      (p) => (p === "README.md" ? new Set(["day-2-work"]) : new Set()),
    );
    expect(found.map((d) => relative(".", d.split(" ")[1]!))).toEqual(["gone.md", "docs/README.md#no-such-heading"]);
  });

  it("slugs match GitHub's", () => {
    expect(slug("Threat model: what a pull-request author can reach")).toBe(
      "threat-model-what-a-pull-request-author-can-reach",
    );
    expect(slug("scripts/ensure-pulumi")).toBe("scriptsensure-pulumi");
    expect(slug("Organization rules (policy packs)")).toBe("organization-rules-policy-packs");
  });
});

/** The files of the package, as npm lists them (package.json `files`, with npm's own rules). */
function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], {
    cwd: root,
    encoding: "utf8",
  });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
}

describe("relative links in the docs the package ships", () => {
  const packed = packedFiles();
  /** A path ships when it is a packed file or a folder holding one. */
  const ships = (p: string) => {
    const path = normalize(p).replace(/\/$/, "");
    return packed.some((f) => f === path || f.startsWith(`${path}/`));
  };
  const shippedPages = packed.filter((p) => p.endsWith(".md"));

  it("the package ships the README and docs/", () => {
    expect(shippedPages).toEqual(expect.arrayContaining(["README.md", "docs/README.md", "docs/guides/day-2.md"]));
  });

  it.each(shippedPages)("%s: every relative link points to a file the package ships", (page) => {
    expect(deadLinks(page, readFileSync(join(root, page), "utf8"), ships, anchors)).toEqual([]);
  });
});
