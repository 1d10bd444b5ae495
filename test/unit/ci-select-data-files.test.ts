/**
 * What `guardrails-ci preview` takes from a pull request's head, at its edges (issue 31): each
 * check below was found deletable or invertible by mutation testing with every other test still
 * passing. A data file is a top-level `*.yaml`, `*.yml` or `*.json` of the data folder and
 * nothing that merely contains one of those names; its blob is a full object id; its size is
 * capped. Anything else taken from the head would run in a preview that holds the key.
 */
import { describe, expect, it } from "vitest";
import {
  dataFolder,
  MAX_CHANGES,
  MAX_DATA_FILE_BYTES,
  selectFiles,
  unsafePath,
  type Change,
} from "../../tools/ci/select";

const SHA1 = "0123456789abcdef0123456789abcdef01234567";
const SHA256 = `${SHA1}${"89abcdef".repeat(3)}`;
const add = (path: string, extra: Partial<Change> = {}): Change => ({
  status: "A",
  path,
  newMode: "100644",
  newBlob: SHA1,
  ...extra,
});
const select = (changes: Change[]) => selectFiles(changes, { dataDir: "guardrails" });

describe("a data file is a name ending in .yaml, .yml or .json", () => {
  it.each(["guardrails/x.yaml.ts", "guardrails/x.json.js", "guardrails/x.yml~", "guardrails/x.yamlx"])(
    "%s only contains a data file's extension: never taken from the head",
    (path) => {
      const s = select([add(path)]);
      expect(s).toMatchObject({ mode: "none", exposeKey: false, take: [], ignored: [path], blockers: [] });
    },
  );

  it("the extension is matched whatever its case, and .yml as well as .yaml", () => {
    const paths = ["guardrails/a.YAML", "guardrails/b.yml", "guardrails/c.Json"];
    expect(select(paths.map((p) => add(p))).take.map((t) => t.path)).toEqual(paths);
  });
});

describe("the blob taken is a full object id", () => {
  it("a SHA-1 (40 hex digits) or SHA-256 (64) id is taken as given", () => {
    expect(select([add("guardrails/a.yaml"), add("guardrails/b.yaml", { newBlob: SHA256 })]).take).toEqual([
      { path: "guardrails/a.yaml", blob: SHA1 },
      { path: "guardrails/b.yaml", blob: SHA256 },
    ]);
  });

  it.each([
    ["an abbreviated id", SHA1.slice(0, 12)],
    ["an id one digit short", SHA1.slice(1)],
    ["an id one digit long", `${SHA1}0`],
    ["a revision expression", `${SHA1}:x`],
    ["an option", `--output=/tmp/x${SHA1}`],
    ["upper-case hex", SHA1.toUpperCase()],
    ["a 52-digit id", `${SHA1}${"0".repeat(12)}`],
  ])("%s blocks the preview, naming the blob", (_what, blob) => {
    const s = select([add("guardrails/a.yaml", { newBlob: blob })]);
    expect(s).toMatchObject({ mode: "code", exposeKey: false, take: [] });
    expect(s.blockers).toEqual([
      { path: "guardrails/a.yaml", reason: `has blob id ${JSON.stringify(blob)}; expected a full object id` },
    ]);
  });
});

describe("the size cap", () => {
  it("a file of exactly the cap, or of unmeasured size, is taken", () => {
    const s = select([add("guardrails/a.yaml", { size: MAX_DATA_FILE_BYTES }), add("guardrails/b.yaml")]);
    expect(s).toMatchObject({ mode: "data", exposeKey: true, blockers: [] });
    expect(s.take.map((t) => t.path)).toEqual(["guardrails/a.yaml", "guardrails/b.yaml"]);
  });

  it("a small file is taken, and one byte over the cap blocks", () => {
    expect(select([add("guardrails/a.yaml", { size: 10 })]).take).toHaveLength(1);
    expect(select([add("guardrails/a.yaml", { size: MAX_DATA_FILE_BYTES + 1 })]).blockers).toEqual([
      {
        path: "guardrails/a.yaml",
        reason: `is ${MAX_DATA_FILE_BYTES + 1} bytes, more than ${MAX_DATA_FILE_BYTES}`,
      },
    ]);
  });
});

describe("paths and statuses", () => {
  it("unsafePath names each way a path can leave the repository or hide a character", () => {
    expect(unsafePath("")).toBe("an empty path");
    expect(unsafePath("guardrails/a\u001b.yaml")).toBe("a name with control characters");
    expect(unsafePath("/etc/x.yaml")).toBe("an absolute path");
    for (const p of ["guardrails//a.yaml", "guardrails/./a.yaml", "guardrails/../a.yaml", "guardrails/"])
      expect(unsafePath(p), p).toBe("a path with an empty, `.` or `..` segment");
    expect(unsafePath("guardrails/a..b.yaml")).toBeUndefined();
  });

  it("the data folder setting: ./ and trailing slashes dropped, anything else unsafe refused", () => {
    expect(dataFolder("./guardrails//")).toBe("guardrails");
    expect(dataFolder("org/guardrails")).toBe("org/guardrails");
    expect(() => dataFolder("../guardrails")).toThrow(
      'data folder "../guardrails" is a path with an empty, `.` or `..` segment; expected a folder relative to the repository root, such as "guardrails"',
    );
  });

  it("a path just outside the folder, sharing its prefix, is outside", () => {
    expect(select([add("guardrails-old/a.yaml")]).blockers).toEqual([
      { path: "guardrails-old/a.yaml", reason: "is outside guardrails/ (code or configuration)" },
    ]);
  });

  it("a deletion is taken only as a deletion with nothing left on the head side", () => {
    const gone = { status: "D", newMode: "000000", newBlob: "0".repeat(40) };
    expect(select([add("guardrails/a.yaml", gone)])).toMatchObject({ mode: "data", remove: ["guardrails/a.yaml"] });
    expect(select([add("guardrails/a.yaml", { ...gone, newMode: "100644" })]).blockers).toEqual([
      { path: "guardrails/a.yaml", reason: "is deleted but has mode 100644" },
    ]);
    expect(select([add("guardrails/a.yaml", { status: "T" })]).take).toHaveLength(1);
    expect(select([add("guardrails/a.yaml", { status: "R100" })]).blockers[0]?.reason).toBe(
      'has git status "R100"; expected A, M, T or D',
    );
  });
});

describe("the bound on the number of changed paths", () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => add(`guardrails/g${i}.yaml`));

  it("exactly the bound is previewed", () => {
    const s = select(many(MAX_CHANGES));
    expect(s).toMatchObject({ mode: "data", blockers: [] });
    expect(s.take).toHaveLength(MAX_CHANGES);
  });

  it("one more blocks the whole pull request, and no path past the bound is even looked at", () => {
    const s = select([...many(MAX_CHANGES), add("index.ts")]);
    expect(s).toMatchObject({ mode: "code", exposeKey: false, take: [], remove: [], stale: [] });
    expect(s.blockers).toEqual([
      { path: "(the whole pull request)", reason: `changes ${MAX_CHANGES + 1} paths, more than ${MAX_CHANGES}` },
    ]);
  });
});

describe("stale files", () => {
  it("are sorted, taken and removed alike, and none without a list of the base's changes", () => {
    const changes = [add("guardrails/b.yaml"), add("guardrails/a.yaml", { status: "D", newMode: "000000" })];
    const s = selectFiles(changes, { dataDir: "guardrails", baseChanged: ["guardrails/b.yaml", "guardrails/a.yaml"] });
    expect(s.stale).toEqual(["guardrails/a.yaml", "guardrails/b.yaml"]);
    expect(select(changes).stale).toEqual([]);
  });

  it("a blocked pull request lists none", () => {
    expect(select([add("index.ts")]).stale).toEqual([]);
  });
});
