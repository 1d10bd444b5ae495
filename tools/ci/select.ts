/**
 * Which files a pull-request preview may take from the PR head, and whether the preview may run
 * with the management key at all. Pure: the git layer (git.ts) feeds it the PR's changes.
 *
 * Everything executable (index.ts, package.json, the lockfile, Pulumi*.yaml, node_modules) comes
 * from the base branch. Only the data files the loader reads (top-level *.yaml, *.yml, *.json of
 * the data folder) come from the head, and only as regular files. Any other change means the PR
 * carries code or config, which only a maintainer-approved run may preview with the key.
 */
import { isPolicyFile, UserError } from "../../src/export";
import { hasControl } from "../../src/preview";

/** One path the PR changed, as `git diff --raw --no-renames` reports it (merge base to head). */
export interface Change {
  /** `A`, `M`, `D` or `T`; anything else is refused. */
  status: string;
  path: string;
  /** The git mode on the head side: `100644`, `100755`, `120000` (a link), `160000` (a submodule), `000000` (gone). */
  newMode: string;
  /** The blob on the head side (all zeros when deleted). */
  newBlob: string;
  /** Bytes of the head-side blob, when the git layer measured it. */
  size?: number;
}

/** A reason the PR cannot be previewed with the key, naming the path. */
export interface Blocker {
  path: string;
  reason: string;
}

/** The decision, and the files behind it. */
export interface Selection {
  /** `data`: preview with the key; `code`: needs a maintainer-approved run; `none`: no data file changed. */
  mode: "data" | "code" | "none";
  /** True only in `data` mode: the one case where the key is in the environment of the preview. */
  exposeKey: boolean;
  /** Data files to write from the head, as regular files. */
  take: Array<{ path: string; blob: string }>;
  /** Data files the PR deletes. */
  remove: string[];
  /** Paths in the data folder that the loader never reads; they stay as the base has them. */
  ignored: string[];
  /** Why the key may not be used, one entry per offending path. */
  blockers: Blocker[];
  /** Taken files that the base branch also changed since the PR branched: the preview shows the PR's version. */
  stale: string[];
}

/** Data files larger than this are refused, so a PR cannot make the preview read a huge file. */
export const MAX_DATA_FILE_BYTES = 1024 * 1024;
/** More changed paths than this are refused outright. */
export const MAX_CHANGES = 2000;

const DATA_FILE = /\.(ya?ml|json)$/i;
const REGULAR = new Set(["100644", "100755"]);

/** Why a path is not a plain relative path inside the repository, or undefined when it is. */
export function unsafePath(path: string): string | undefined {
  if (path.length === 0) return "an empty path";
  if (hasControl(path)) return "a name with control characters";
  if (path.startsWith("/")) return "an absolute path";
  if (path.split("/").some((seg) => seg === "" || seg === "." || seg === ".."))
    return "a path with an empty, `.` or `..` segment";
  return undefined;
}

/** Checks the data folder setting: a plain relative folder, no trailing slash needed. */
export function dataFolder(dir: string): string {
  const trimmed = dir.replace(/^\.\//, "").replace(/\/+$/, "");
  const why = unsafePath(trimmed);
  if (why)
    throw new UserError(
      `data folder ${JSON.stringify(dir)} is ${why}; expected a folder relative to the repository root, such as "guardrails"`,
    );
  return trimmed;
}

/**
 * Decides which files come from where. `baseChanged` lists paths the base branch changed since
 * the merge base, to warn when the preview shows the PR's copy of a file both sides edited.
 */
export function selectFiles(
  changes: Change[],
  options: { dataDir: string; baseChanged?: string[] | undefined },
): Selection {
  const dir = dataFolder(options.dataDir);
  const sel: Selection = { mode: "none", exposeKey: false, take: [], remove: [], ignored: [], blockers: [], stale: [] };
  if (changes.length > MAX_CHANGES) {
    sel.blockers.push({
      path: "(the whole pull request)",
      reason: `changes ${changes.length} paths, more than ${MAX_CHANGES}`,
    });
  }
  for (const c of changes.slice(0, MAX_CHANGES)) {
    const why = unsafePath(c.path);
    if (why) {
      sel.blockers.push({ path: c.path, reason: `is ${why}` });
      continue;
    }
    if (!c.path.startsWith(`${dir}/`)) {
      sel.blockers.push({ path: c.path, reason: `is outside ${dir}/ (code or configuration)` });
      continue;
    }
    const rel = c.path.slice(dir.length + 1);
    if (isPolicyFile(rel) && !rel.includes("/")) {
      // The organization's rules: a PR must not relax the rules its own preview is checked by.
      sel.blockers.push({ path: c.path, reason: "is the organization's policy file (rules, not data)" });
      continue;
    }
    if (rel.includes("/") || !DATA_FILE.test(rel)) {
      // The loader reads only the folder's own *.yaml, *.yml and *.json files, so nothing else
      // in it can change the preview; it is left as the base has it, never written.
      sel.ignored.push(c.path);
      continue;
    }
    const blocker = dataFileProblem(c);
    if (blocker) sel.blockers.push({ path: c.path, reason: blocker });
    else if (c.status === "D") sel.remove.push(c.path);
    else sel.take.push({ path: c.path, blob: c.newBlob });
  }
  if (sel.blockers.length > 0) return { ...sel, mode: "code", take: [], remove: [] };
  const baseChanged = new Set(options.baseChanged ?? []);
  sel.stale = [...sel.take.map((t) => t.path), ...sel.remove].filter((p) => baseChanged.has(p)).sort();
  const mode = sel.take.length + sel.remove.length > 0 ? "data" : "none";
  return { ...sel, mode, exposeKey: mode === "data" };
}

/** Why a changed data file cannot be taken, or undefined when it can. */
function dataFileProblem(c: Change): string | undefined {
  if (c.status === "D") return c.newMode === "000000" ? undefined : `is deleted but has mode ${c.newMode}`;
  if (c.status !== "A" && c.status !== "M" && c.status !== "T")
    return `has git status ${JSON.stringify(c.status)}; expected A, M, T or D`;
  if (c.newMode === "120000") return "is a symbolic link; the loader reads regular files only";
  if (c.newMode === "160000") return "is a submodule; the loader reads regular files only";
  if (!REGULAR.has(c.newMode)) return `has git mode ${c.newMode}; expected a regular file (100644)`;
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(c.newBlob))
    return `has blob id ${JSON.stringify(c.newBlob)}; expected a full object id`;
  if (c.size !== undefined && c.size > MAX_DATA_FILE_BYTES)
    return `is ${c.size} bytes, more than ${MAX_DATA_FILE_BYTES}`;
  return undefined;
}
