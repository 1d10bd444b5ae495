/** The pure file selection of `guardrails-ci preview`: which files come from where, and whether the key may be used. */
import { describe, expect, it } from "vitest";
import { COMMENT_MAX_CHARS, LISTED_MAX, selectionComment } from "../../tools/ci/comment";
import { MAX_CHANGES, MAX_DATA_FILE_BYTES, selectFiles, type Change, type Selection } from "../../tools/ci/select";

const BLOB = "a".repeat(40);
const ZERO = "0".repeat(40);
const add = (path: string, mode = "100644", extra: Partial<Change> = {}): Change => ({
  status: "A",
  path,
  newMode: mode,
  newBlob: BLOB,
  ...extra,
});
const mod = (path: string): Change => ({ ...add(path), status: "M" });
const del = (path: string): Change => ({ status: "D", path, newMode: "000000", newBlob: ZERO });
const select = (changes: Change[], baseChanged?: string[]) =>
  selectFiles(changes, { dataDir: "guardrails", baseChanged });

/** Selects `changes`: the selection matches `want`, and takes exactly `take` from the head, in order. */
function expectSelection(changes: Change[], want: Partial<Selection>, take: string[]): void {
  const s = select(changes);
  expect(s).toMatchObject(want);
  expect(s.take.map((t) => t.path)).toEqual(take);
}

describe("selectFiles", () => {
  it("a YAML-only PR: data files from the head, deletions applied, the key may be used", () => {
    expectSelection(
      [mod("guardrails/eng.yaml"), add("guardrails/new.yml"), add("guardrails/x.JSON"), del("guardrails/old.yaml")],
      { mode: "data", exposeKey: true, blockers: [], remove: ["guardrails/old.yaml"] },
      ["guardrails/eng.yaml", "guardrails/new.yml", "guardrails/x.JSON"],
    );
  });

  it.each([
    "index.ts",
    "package.json",
    "package-lock.json",
    "Pulumi.yaml",
    "Pulumi.prod.yaml",
    ".github/workflows/guardrails.yml",
    "tsconfig.json",
    ".npmrc",
    "Guardrails/eng.yaml",
    "guardrails",
  ])("a PR touching %s as well: code mode, nothing taken, the key is not used", (path) => {
    const s = select([mod("guardrails/eng.yaml"), mod(path)]);
    expect(s).toMatchObject({ mode: "code", exposeKey: false, take: [], remove: [] });
    expect(s.blockers).toEqual([{ path, reason: "is outside guardrails/ (code or configuration)" }]);
  });

  it("a symbolic link or submodule in the data folder blocks the preview, even pointing inside", () => {
    const s = select([
      add("guardrails/a.yaml", "120000"),
      add("guardrails/b.yaml", "160000"),
      mod("guardrails/c.yaml"),
    ]);
    expect(s.exposeKey).toBe(false);
    expect(s.blockers).toEqual([
      { path: "guardrails/a.yaml", reason: "is a symbolic link; the loader reads regular files only" },
      { path: "guardrails/b.yaml", reason: "is a submodule; the loader reads regular files only" },
    ]);
  });

  it("an executable data file is taken (and written as a plain file); an unknown mode or status blocks", () => {
    expect(select([add("guardrails/a.yaml", "100755")]).exposeKey).toBe(true);
    expect(select([add("guardrails/a.yaml", "040000")]).blockers[0]!.reason).toBe(
      "has git mode 040000; expected a regular file (100644)",
    );
    expect(select([{ ...add("guardrails/a.yaml"), status: "U" }]).blockers[0]!.reason).toBe(
      'has git status "U"; expected A, M, T or D',
    );
  });

  it("a rename is a deletion plus an addition: within the folder it is data, from outside it blocks", () => {
    expect(select([del("guardrails/a.yaml"), add("guardrails/b.yaml")])).toMatchObject({
      mode: "data",
      remove: ["guardrails/a.yaml"],
    });
    expect(select([del("index.ts"), add("guardrails/index.yaml")]).blockers.map((b) => b.path)).toEqual(["index.ts"]);
  });

  it.each([
    ["guardrails/../index.ts", "is a path with an empty, `.` or `..` segment"],
    ["guardrails/./a.yaml", "is a path with an empty, `.` or `..` segment"],
    ["guardrails//a.yaml", "is a path with an empty, `.` or `..` segment"],
    ["/etc/guardrails/a.yaml", "is an absolute path"],
    ["guardrails/a\nb.yaml", "is a name with control characters"],
    ["guardrails/a\u009b2Jb.yaml", "is a name with control characters"],
    ["", "is an empty path"],
  ])("a tricky path %j blocks: %s", (path, reason) => {
    expect(select([add(path)])).toMatchObject({ exposeKey: false, blockers: [{ path, reason }] });
  });

  it("files the loader never reads (subfolders, other extensions) are left as the base has them", () => {
    expectSelection(
      [
        add("guardrails/README.md"),
        add("guardrails/sub/x.yaml"),
        add("guardrails/evil.yaml/x"),
        mod("guardrails/eng.yaml"),
      ],
      { mode: "data", ignored: ["guardrails/README.md", "guardrails/sub/x.yaml", "guardrails/evil.yaml/x"] },
      ["guardrails/eng.yaml"],
    );
    expect(select([add("guardrails/README.md")])).toMatchObject({ mode: "none", exposeKey: false });
  });

  it("bounds: a data file over 1 MiB and a PR of too many paths block", () => {
    expect(select([add("guardrails/big.yaml", "100644", { size: MAX_DATA_FILE_BYTES + 1 })]).blockers[0]!.reason).toBe(
      `is ${MAX_DATA_FILE_BYTES + 1} bytes, more than ${MAX_DATA_FILE_BYTES}`,
    );
    const many = Array.from({ length: MAX_CHANGES + 1 }, (_, i) => add(`guardrails/g${i}.yaml`));
    expect(select(many)).toMatchObject({ exposeKey: false, blockers: [{ path: "(the whole pull request)" }] });
  });

  it("an empty PR previews nothing; a file both sides changed is flagged stale", () => {
    expect(select([])).toMatchObject({ mode: "none", exposeKey: false });
    expect(
      select([mod("guardrails/a.yaml"), mod("guardrails/b.yaml")], ["guardrails/b.yaml", "index.ts"]).stale,
    ).toEqual(["guardrails/b.yaml"]);
  });

  it("the data folder setting is checked, and ./guardrails/ means guardrails", () => {
    expect(() => selectFiles([], { dataDir: "../x" })).toThrow(
      'data folder "../x" is a path with an empty, `.` or `..` segment; expected a folder relative to the repository root, such as "guardrails"',
    );
    expect(selectFiles([mod("guardrails/a.yaml")], { dataDir: "./guardrails/" }).exposeKey).toBe(true);
  });
});

describe("selectionComment", () => {
  it("names each offending path as inert Markdown and says how to get a preview", () => {
    const s = select([
      mod("guardrails/a.yaml"),
      mod("index.ts"),
      add("guardrails/x`](https:evil.example)`.yaml", "120000"),
    ]);
    expect(selectionComment(s, { dataDir: "guardrails" })).toMatchInlineSnapshot(`
      "**Guardrails: no automatic preview.** This pull request changes more than the data files in \`guardrails/\`:

      - \`index.ts\` is outside guardrails/ (code or configuration)
      - \`guardrails/xˋ](https:evil.example)ˋ.yaml\` is a symbolic link; the loader reads regular files only

      The automatic preview runs only the base branch's code, with the data files from the pull request, so that no code from a pull request ever runs with the management key. Code and configuration changes need a maintainer-approved run: a maintainer who has read the changes approves the \`guardrails-code-preview\` deployment of this workflow run.
      "
    `);
  });

  it("stays within its budget at the worst: every list full of the longest paths, each cut with a count of what it left out", () => {
    const long = (i: number, dir: string) => `${dir}${"\u202E".repeat(30)}${String(i).padStart(300, "x")}.yaml`;
    const data = {
      ...select([mod("guardrails/a.yaml")]),
      stale: Array.from({ length: 1999 }, (_, i) => long(i, "guardrails/")),
      ignored: Array.from({ length: 1999 }, (_, i) => long(i, "guardrails/sub/")),
    };
    const code = select(Array.from({ length: 1999 }, (_, i) => mod(long(i, "src/"))));
    expect(code.blockers).toHaveLength(1999);
    for (const [sel, more] of [
      [data, / … and ([\d,]+) more such files since/],
      [data, / … and ([\d,]+) more ignored paths\.$/m],
      [code, /^- … and ([\d,]+) more paths that block the preview$/m],
    ] as const) {
      const md = selectionComment(sel, { dataDir: "guardrails" });
      expect(md.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS);
      const left = Number(md.match(more)![1]!.replace(/,/g, ""));
      expect(left).toBeGreaterThanOrEqual(1999 - LISTED_MAX);
      expect(left).toBeLessThan(1999);
    }
    expect(COMMENT_MAX_CHARS).toBeLessThanOrEqual(65_536 / 4);
  });

  it("short paths: 50 listed, the rest counted with thousands separators", () => {
    const sel = {
      ...select([mod("guardrails/a.yaml")]),
      ignored: Array.from({ length: 1990 }, (_, i) => `guardrails/docs/p${i}.md`),
    };
    const md = selectionComment(sel, { dataDir: "guardrails" });
    expect(md.match(/`guardrails\/docs\/p\d+\.md`/g)).toHaveLength(LISTED_MAX);
    expect(md).toContain("`guardrails/docs/p49.md` … and 1,940 more ignored paths.");
  });

  it("for a data PR, notes stale and ignored files", () => {
    const md = selectionComment(select([mod("guardrails/a.yaml"), add("guardrails/notes.md")], ["guardrails/a.yaml"]), {
      dataDir: "guardrails",
    });
    expect(md).toContain("The base branch also changed `guardrails/a.yaml` since this branch started");
    expect(md).toContain("left as the base has them: `guardrails/notes.md`");
  });
});
