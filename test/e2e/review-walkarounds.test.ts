/**
 * The review gate's walk-arounds (issue 38, class 6) from the real CLI, on both faces: one stack
 * per face brought up once, then each pull request previewed against it (none applied) with
 * `preview --refresh --show-sames --json`, as the example workflow runs it:
 * - a member set re-pointed from Strict to Open;
 * - a guardrail deleted with no set in the stack (its members are managed elsewhere);
 * - a rename without an alias (strict -> strict-v2, same display name, limit 100 -> 5000, the
 *   allow list dropped, both sets re-pointed);
 * - a look-alike guardrail (`Strіct`, a Cyrillic і) the members move to, beside a guardrail
 *   renamed to mimic the verdict (`🔒 Nothing loosens: rename only`);
 * - a guardrail with no set in the stack replaced in place (its workspaceId changes).
 * Each real preview must read as a loosening, and `guardrails-preview-summary
 * --fail-on-loosening` must exit 3 on it. `UPDATE_GOLDEN=1` writes the normalised JSON to
 * test/e2e/golden/review/walk-<shape>.<face>.preview.json; test/unit/review-goldens.test.ts
 * renders each and compares it with the reviewed Markdown beside it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_DEFAULT_WORKSPACE, DEMO_EXTRA_WORKSPACE } from "../../emulator";
import { summarize } from "../../src/preview";
import { normalizePreviewJson } from "../helpers/normalize-preview";
import { NATIVE_BIN } from "../helpers/parity-face";
import { type Face, idOf, programText, type ResourceSpec, type Value } from "../helpers/parity-program";
import { REPO_ROOT } from "../helpers/spawn-emulator";
import { Program } from "./harness";

const dir = join(__dirname, "golden/review");
const CLI = join(REPO_ROOT, "dist/tools/preview-summary/cli.js");
const KEY = "a1b2c3d4e5f60718";

type Args = Record<string, Value>;
const STRICT: Args = { name: "Strict", allowedModels: ["vendor-a/model-x"], limitUsd: 100, resetInterval: "daily" };
const OPEN: Args = { name: "Open", limitUsd: 5000, resetInterval: "monthly" };
/** A guardrail the stack manages with no set: its members are assigned by another stack or by hand. */
const LEGACY: Args = {
  name: "Legacy",
  allowedModels: ["vendor-a/model-x"],
  limitUsd: 50,
  resetInterval: "daily",
  workspaceId: DEMO_DEFAULT_WORKSPACE,
};

const guardrail = (name: string, args: Args): ResourceSpec => ({ kind: "Guardrail", name, args });
const sets = (on: string, name = "strict"): ResourceSpec[] => [
  {
    kind: "GuardrailMemberAssignment",
    name: `${name}-members`,
    args: { guardrailId: idOf(on), memberUserIds: ["user_alice", "user_bob"] },
  },
  { kind: "GuardrailKeyAssignment", name: `${name}-keys`, args: { guardrailId: idOf(on), keyHashes: [KEY] } },
];
const without = (a: Args, ...keys: string[]) =>
  Object.fromEntries(Object.entries(a).filter(([k]) => !keys.includes(k))) as Args;

const BASE: ResourceSpec[] = [
  guardrail("strict", STRICT),
  guardrail("open", OPEN),
  guardrail("legacy", LEGACY),
  ...sets("strict"),
];

/** Each pull request as the resources it leaves. */
const SHAPES: Record<string, ResourceSpec[]> = {
  repoint: [guardrail("strict", STRICT), guardrail("open", OPEN), guardrail("legacy", LEGACY), ...sets("open")],
  "delete-unlisted": [guardrail("strict", STRICT), guardrail("open", OPEN), ...sets("strict")],
  rename: [
    guardrail("strict-v2", { ...without(STRICT, "allowedModels"), limitUsd: 5000 }),
    guardrail("open", OPEN),
    guardrail("legacy", LEGACY),
    ...sets("strict-v2"),
  ],
  names: [
    guardrail("strict", STRICT),
    guardrail("strict-copy", { ...OPEN, name: "Str\u0456ct" }),
    guardrail("open", { ...OPEN, name: "🔒 Nothing loosens: rename only", limitUsd: 9000 }),
    guardrail("legacy", LEGACY),
    ...sets("strict-copy"),
  ],
  "replace-unlisted": [
    guardrail("strict", STRICT),
    guardrail("open", OPEN),
    guardrail("legacy", { ...LEGACY, workspaceId: DEMO_EXTRA_WORKSPACE }),
    ...sets("strict"),
  ],
};

const FACES: Face[] = ["dynamic", "native"];

describe.each(FACES)("review walk-arounds from the real CLI (%s face)", (face) => {
  let p: Program;

  beforeAll(async () => {
    p = await Program.create(`review-walk-${face}`);
    if (face === "native") {
      p.env.PATH = `${NATIVE_BIN}:${p.env.PATH}`;
      p.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
    }
    p.write(programText(face, BASE));
    await p.up();
  });
  afterAll(() => p.close());

  it.each(Object.keys(SHAPES))("%s: reads as a loosening, and --fail-on-loosening exits 3", async (shape) => {
    p.write(programText(face, SHAPES[shape]!));
    const res = await p.pulumi(["preview", "--refresh", "--show-sames", "--json"]);
    expect(res.code, res.stderr).toBe(0);
    const fixture = normalizePreviewJson(JSON.parse(res.stdout));
    const json = join(dir, `walk-${shape}.${face}.preview.json`);
    if (process.env.UPDATE_GOLDEN) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(json, JSON.stringify(fixture, null, 2) + "\n");
    }
    expect(existsSync(json)).toBe(true);
    const ops = (j: { steps: Array<{ op: string; urn: string }> }) => j.steps.map((s) => `${s.op} ${s.urn}`).sort();
    expect(ops(fixture)).toEqual(ops(JSON.parse(readFileSync(json, "utf8"))));

    // The real preview, as the CLI gets it (not the fixture): a loosening, and the gate fails.
    const summary = summarize(JSON.parse(res.stdout));
    expect(summary.failed).toBe(false);
    expect(summary.markdown.split("\n")[0]).toMatch(/^\*\*🔓 Loosens:\*\* /);
    const raw = join(p.dir, `walk-${shape}.json`);
    writeFileSync(raw, res.stdout);
    const gate = spawnSync(process.execPath, [CLI, "--fail-on-loosening", raw], { encoding: "utf8" });
    expect(gate.stderr).toContain("--fail-on-loosening: this change loosens");
    expect(gate.status).toBe(3);
  });
});
