/**
 * The docs promise only what has shipped (issue 42: the faces page called the Python and Go SDKs
 * "to come" and declarative files "not yet" on the native face, long after both shipped; the
 * member-assignment page promised a `members` output the native schema does not have).
 *
 * - No page calls work "to come", "not yet", "planned", "coming soon" or "in a later release".
 *   docs/limitations.md is exempt (it is where what the package does not do is said); any other
 *   use must be in ALLOWED below with its reason, and an entry that no longer matches fails too.
 * - A resource page's outputs (its `## Outputs` section, or its `**Outputs**` paragraph) name only
 *   what the native schema has for that resource (its outputs, its inputs, or a field of one of its
 *   types), unless the sentence says the name is the state's or the dynamic face's alone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "../..");
const read = (page: string) => readFileSync(join(root, page), "utf8");
/** The text outside fenced code blocks (a preview's transcript may say what it planned). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");

// "planned" only as a promise ("is planned", "planned for a later ..."): a preview's planned
// resources and steps are Pulumi's own word for what a program will do.
const STALE =
  /\b(to come(?! back)|not yet|coming soon|(?:is|are) planned|planned for (?:a |the )?(?:later|future|next)|in a (?:later|future) release)\b/gi;

/** Uses of the words that are not about unshipped work: page, the text around the hit, and why. */
const ALLOWED: { page: string; text: string; why: string }[] = [
  {
    page: "docs/guides/installing-the-plugin.md",
    text: "install scripts not yet covered by allowScripts",
    why: "npm 11's own warning, quoted",
  },
];

const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  ...(readdirSync(join(root, "docs"), { recursive: true }) as string[])
    .filter((p) => p.endsWith(".md"))
    .map((p) => `docs/${p}`),
].filter((p) => p !== "docs/limitations.md");

/** Each stale word of a page's prose, as `page: …text around it…`, less the allowed ones. */
function staleWords(page: string, text: string, allowed = ALLOWED, used = new Set<number>()): string[] {
  const flat = prose(text).replace(/\s+/g, " ");
  const found: string[] = [];
  for (const m of flat.matchAll(STALE)) {
    const around = flat.slice(Math.max(0, m.index - 60), m.index + m[0].length + 60);
    const i = allowed.findIndex((a) => a.page === page && around.includes(a.text));
    if (i >= 0) used.add(i);
    else found.push(`${page}: …${around}…`);
  }
  return found;
}

describe("no page calls shipped work unshipped", () => {
  it("reads the faces page, the Registry pages and every other docs page but limitations.md", () => {
    expect(PAGES).toEqual(
      expect.arrayContaining([
        "README.md",
        "docs/faces/README.md",
        "docs/_index.md",
        "docs/installation-configuration.md",
      ]),
    );
    expect(PAGES).not.toContain("docs/limitations.md");
  });

  it("no page says 'to come', 'not yet', 'planned' or 'coming soon' outside the allow-list", () => {
    const used = new Set<number>();
    const found = PAGES.flatMap((p) => staleWords(p, read(p), ALLOWED, used));
    expect(found).toEqual([]);
    // An allow-list entry that matches nothing any more is itself stale.
    expect(ALLOWED.filter((_, i) => !used.has(i))).toEqual([]);
  });

  it("catches the faces page as it was (planted)", () => {
    const before =
      "| Program languages | TypeScript | TypeScript, Pulumi YAML (Python and Go: generated SDKs to come) |\n" +
      "| Declarative files (`declareGuardrails`) | yes | not yet |\n" +
      "Come back when to come back is allowed.\n";
    expect(staleWords("docs/faces/README.md", before)).toHaveLength(2);
  });
});

interface Schema {
  resources: Record<string, { properties?: object; inputProperties?: object }>;
  types: Record<string, { properties?: object }>;
}
const schema = JSON.parse(read("src/native/schema.json")) as Schema;
/** The field names of the types a resource's properties refer to (`label` of a builtin filter, say). */
function typeFields(props: object): string[] {
  const refs = [...JSON.stringify(props).matchAll(/"#\/types\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
  return refs.flatMap((ref) => Object.keys(schema.types[ref]?.properties ?? {}));
}

/** The names a resource page gives as outputs that its native resource lacks, as `page: name`. */
function missingOutputs(page: string, text: string): string[] {
  const body = prose(text);
  const title = body.match(/^# (\w+)/m)?.[1] ?? "";
  const resource = schema.resources[`guardrails:index:${title}`];
  if (!resource) return [`${page}: no resource guardrails:index:${title} in the schema`];
  const known = new Set([
    ...Object.keys(resource.properties ?? {}),
    ...Object.keys(resource.inputProperties ?? {}),
    ...typeFields({ ...resource.properties, ...resource.inputProperties }),
  ]);
  const section = body.match(/^## Outputs\n([\s\S]*?)(?=^## |(?![\s\S]))/m)?.[1] ?? "";
  const paragraph = body.match(/^\*\*Outputs\*\*[\s\S]*?(?=\n\n|(?![\s\S]))/m)?.[0] ?? "";
  const missing: string[] = [];
  for (const sentence of `${section}\n${paragraph}`.replace(/\s+/g, " ").split(/(?<=[.;])\s+/)) {
    // A sentence that says whose the name is (the state's, the dynamic face's) promises no output.
    if (/\bstate\b|dynamic face/i.test(sentence)) continue;
    for (const [, name] of sentence.matchAll(/`([a-z][A-Za-z0-9]*)`/g))
      if (!known.has(name!) && !["true", "false", "null"].includes(name!)) missing.push(`${page}: ${name}`);
  }
  return missing;
}

const RESOURCE_PAGES = (readdirSync(join(root, "docs/resources")) as string[])
  .filter((p) => p.endsWith(".md"))
  .map((p) => `docs/resources/${p}`);

describe("resource pages promise only outputs the native schema has", () => {
  it.each(RESOURCE_PAGES)("%s", (page) => {
    expect(missingOutputs(page, read(page))).toEqual([]);
  });

  it("catches the member-assignment page as it was (planted)", () => {
    const before =
      "# GuardrailMemberAssignment\n\n**Outputs**: `guardrailId`, `exclusive`, `memberUserIds` (the listed members " +
      "that are assigned here, sorted) and `members` (each\nlisted member's status: `true` when assigned here).\n";
    expect(missingOutputs("docs/resources/member-assignment.md", before)).toEqual([
      "docs/resources/member-assignment.md: members",
    ]);
  });
});

/** The `(key, env var)` pairs the schema's config documents (`Config \`guardrails:x\` or GUARDRAILS_X`). */
function configPairs(): [string, string][] {
  const vars = (
    JSON.parse(read("src/native/schema.json")) as { config: { variables: Record<string, { description: string }> } }
  ).config.variables;
  return Object.entries(vars).map(([name, v]) => {
    const env = v.description.match(/`guardrails:\w+` or (GUARDRAILS_[A-Z_]+)/)?.[1] ?? `(no env var in ${name}'s doc)`;
    return [`guardrails:${name}`, env];
  });
}

describe("the Pulumi Registry pages", () => {
  const frontmatter = (page: string) => read(page).match(/^---\n([\s\S]*?)\n---\n/)?.[1] ?? "";

  it.each(["docs/_index.md", "docs/installation-configuration.md"])("%s has the Registry's frontmatter", (page) => {
    expect(frontmatter(page)).toMatch(/^title: \S/m);
    expect(frontmatter(page)).toMatch(/^meta_desc: \S/m);
    expect(frontmatter(page)).toMatch(/^layout: package$/m);
  });

  it("the overview has a program in TypeScript, Python, Go and YAML", () => {
    const text = read("docs/_index.md");
    expect(text).toContain('{{< chooser language "typescript,python,go,yaml" >}}');
    for (const lang of ["typescript", "python", "go", "yaml"]) {
      const block = text.split(`{{% choosable language ${lang} %}}`)[1]?.split("{{% /choosable %}}")[0] ?? "";
      expect(block, lang).toMatch(new RegExp(`\`\`\`${lang}\\n[\\s\\S]*Guardrail[\\s\\S]*\`\`\``));
    }
  });

  it("installation-configuration.md names every config key with its env var, in one table row", () => {
    const rows = read("docs/installation-configuration.md")
      .split("\n")
      .filter((l) => l.startsWith("|"));
    expect(configPairs().length).toBeGreaterThanOrEqual(8);
    for (const [key, env] of configPairs())
      expect(
        rows.some((r) => r.includes(`\`${key}\``) && r.includes(`\`${env}\``)),
        `${key} / ${env}`,
      ).toBe(true);
    expect(read("docs/installation-configuration.md")).toMatch(/pulumiConfig:\n\s+guardrails:apiKey:/);
  });
});
