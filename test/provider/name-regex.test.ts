/**
 * `getGuardrails`' `nameRegex` runs on RE2 (linear time), on both faces (issue 38, class 4):
 * `^(a+)+$` against a name of 34 a's and a `!` backtracks for hours in JavaScript's engine
 * and froze the plugin. Each face runs in its own process (the dynamic face's program, the
 * native face's bundled plugin over gRPC), so a hang fails the test by its timeout instead of
 * freezing the test runner; nothing here measures time.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEY, type TestEmulator, withEmulator } from "../helpers/emulator";
import { configure, invoke, type RunningPlugin, startPlugin } from "../helpers/native-plugin";
import { REPO_ROOT } from "../helpers/spawn-emulator";

const EVIL = "^(a+)+$";
const A34 = "a".repeat(34);
let emu: TestEmulator;
let matching: string;

beforeAll(async () => {
  emu = await withEmulator();
  matching = (await emu.client().createGuardrail({ name: A34 })).id;
  await emu.client().createGuardrail({ name: `${A34}!` });
});
afterAll(() => emu.close());

/** The dynamic face's `getGuardrails` as a program calls it, in a child node process. */
function dynamicFace(args: object): { child: ChildProcess; answer: Promise<{ code: number | null; out: string }> } {
  const script = `require(${JSON.stringify(join(REPO_ROOT, "dist/src/index.js"))})
    .getGuardrails(${JSON.stringify(args)})
    .then((r) => console.log(JSON.stringify(r.ids)), (e) => { console.log("ERROR " + e.message); process.exitCode = 1; });`;
  const child = spawn(process.execPath, ["-e", script], {
    env: { ...process.env, GUARDRAILS_API_KEY: TEST_KEY, GUARDRAILS_BASE_URL: emu.url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const answer = new Promise<{ code: number | null; out: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, out: out.trim() })),
  );
  return { child, answer };
}

describe("nameRegex is matched in linear time", () => {
  let child: ChildProcess | undefined;
  let plugin: RunningPlugin | undefined;
  afterEach(() => {
    child?.kill("SIGKILL");
    plugin?.stop();
    child = plugin = undefined;
  });

  it("dynamic face: a catastrophic pattern answers", { timeout: 30_000 }, async () => {
    const run = dynamicFace({ nameRegex: EVIL });
    child = run.child;
    expect(await run.answer).toEqual({ code: 0, out: JSON.stringify([matching]) });
  });

  it("native face (the bundled plugin): a catastrophic pattern answers", { timeout: 30_000 }, async () => {
    plugin = await startPlugin();
    await configure(plugin.client, { apiKey: TEST_KEY, baseUrl: emu.url });
    expect((await invoke(plugin.client, "getGuardrails", { nameRegex: EVIL })).ids).toEqual([matching]);
  });

  it("native face: a pattern RE2 refuses is a check failure naming the field, the value and RE2", async () => {
    plugin = await startPlugin();
    await configure(plugin.client, { apiKey: TEST_KEY, baseUrl: emu.url });
    await expect(invoke(plugin.client, "getGuardrails", { nameRegex: "^eng(?=-)" })).rejects.toThrow(
      /^nameRegex(; \S+ in Python, \S+ in Go)?: .*"\^eng\(\?=-\)".*RE2/,
    );
  });
});
