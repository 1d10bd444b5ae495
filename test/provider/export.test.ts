/**
 * `exportGuardrails` and the `guardrails-export` bin against the emulator over real HTTP:
 * golden files for a fixed organization, reads only, call counts, and files that the
 * provider adopts with zero write calls.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEY_HASHES } from "../../emulator";
import { loadGuardrailConfigs } from "../../src/declarative/load";
import { exportGuardrails, ExportConflictError, ExportOptionsError, writeExport } from "../../src/export/export";
import { ExportSelectionError } from "../../src/export/fetch";
import { guardrail } from "../../src/dynamic/internal";
import { tempFolder, TEST_KEY, useProviderEmulator, withEmulator } from "../helpers/emulator";
import { DEFAULT_WS, HAND_MADE, populateOrganization, SECOND_WS } from "../helpers/export-org";
import { exportBin } from "../helpers/export-bin";
import { adoptAssignments } from "../helpers/adopt-assignments";
import { http } from "../helpers/spawn-emulator";

const GOLDEN = join(__dirname, "golden/export");
/** Fixed ids the golden files show, in HAND_MADE order. */
const FIXED_IDS = HAND_MADE.map((_, i) => `${String(i + 1).repeat(8)}-0000-4000-8000-00000000000${i + 1}`);

const emu = useProviderEmulator();
const work = tempFolder("guardrails-export-");
const both = { workspaces: [DEFAULT_WS, SECOND_WS] };

/** Populates the hand-made organization, then pins its random guardrail ids to FIXED_IDS. */
async function handMadeOrganization(): Promise<void> {
  expect((await http(emu.url)("POST", "/__emulator/reset")).status).toBe(200);
  const ids = await populateOrganization(http(`${emu.url}/api/v1`, TEST_KEY));
  let text = JSON.stringify(emu.internals.store.data);
  for (const [i, id] of ids.entries()) text = text.split(id).join(FIXED_IDS[i]!);
  emu.internals.store.replace(JSON.parse(text));
  await emu.clearLog();
}

beforeEach(handMadeOrganization);

function expectGolden(name: string, text: string): void {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) mkdirSync(GOLDEN, { recursive: true }), writeFileSync(path, text);
  expect(text).toBe(readFileSync(path, "utf8"));
}

describe("exportGuardrails on a hand-made organization", () => {
  it("matches the golden files, one per guardrail, and a second run gives the same bytes", async () => {
    const first = await exportGuardrails({ client: emu.client(), ...both });
    expect(first.files.map((f) => f.fileName)).toEqual([
      "engineering.yaml",
      "guardrail-44444444.yaml",
      "r-d-zurich.yaml",
      "support-22222222.yaml",
      "support-33333333.yaml",
    ]);
    for (const f of first.files) expectGolden(f.fileName, f.text);
    expect(first.warnings).toEqual([]);
    const again = await exportGuardrails({ client: emu.client(), ...both });
    expect(again).toEqual(first);
  });

  it("--exclusive: sets own the whole current sets, empty ones included (golden, as one file)", async () => {
    const { combined } = await exportGuardrails({ client: emu.client(), ...both, exclusive: true });
    expectGolden("exclusive-combined.yaml", combined);
  });

  it("makes only GET calls, bounded: guardrail pages per workspace plus one pass over each assignment list", async () => {
    await exportGuardrails({ client: emu.client(), ...both });
    const log = await emu.log();
    expect(log.writes).toBe(0);
    // Each workspace's default: the workspace, then its default guardrail (404 while never written).
    expect(log.counts).toEqual({
      listGuardrails: 2,
      listAllMemberAssignments: 1,
      listAllKeyAssignments: 1,
      getWorkspace: 2,
      getGuardrail: 2,
    });
  });

  it("the default workspace when none is given; --only by name or id, with each one's own lists", async () => {
    const dflt = await exportGuardrails({ client: emu.client() });
    expect(dflt.files.map((f) => f.name).sort()).toEqual(["Engineering", "Support"]);
    expect(dflt.files.map((f) => f.id).sort()).toEqual(["engineering", "support"]);

    await emu.clearLog();
    const picked = await exportGuardrails({ client: emu.client(), ...both, only: ["Support", FIXED_IDS[4]!] });
    expect(picked.files.map((f) => f.guardrailId).sort()).toEqual([FIXED_IDS[1], FIXED_IDS[2], FIXED_IDS[4]]);
    expect((await emu.log()).counts).toEqual({
      listGuardrails: 2,
      listGuardrailMemberAssignments: 3,
      listGuardrailKeyAssignments: 3,
      getWorkspace: 2,
      getGuardrail: 2,
    });

    await expect(exportGuardrails({ client: emu.client(), only: ["Engineering", "Nope"] })).rejects.toThrow(
      ExportSelectionError,
    );
    await expect(exportGuardrails({ client: emu.client(), only: ["Nope"] })).rejects.toThrow(
      '--only "Nope": no guardrail of the listed workspaces has that name or id',
    );
  });

  it("a bad workspace id fails before any call, naming the value and what is expected", async () => {
    await emu.clearLog();
    await expect(exportGuardrails({ client: emu.client(), workspaces: ["ws-1"] })).rejects.toThrow(
      new ExportOptionsError(
        'workspace "ws-1" is not a workspace id; expected a UUID such as 3f2b8c1e-0000-4000-8000-000000000000',
      ),
    );
    expect((await emu.log()).total).toBe(0);
  });

  it("writeExport refuses to overwrite without force and names every file; with force it overwrites", async () => {
    const dir = join(work, "refuse");
    const { files } = await exportGuardrails({ client: emu.client(), ...both });
    writeExport(dir, files);
    writeFileSync(join(dir, "engineering.yaml"), "# edited by hand\n");
    let err: unknown;
    try {
      writeExport(dir, files);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExportConflictError);
    expect((err as ExportConflictError).existing).toEqual(files.map((f) => join(dir, f.fileName)));
    expect(readFileSync(join(dir, "engineering.yaml"), "utf8")).toBe("# edited by hand\n");
    writeExport(dir, files, { force: true });
    expect(readFileSync(join(dir, "engineering.yaml"), "utf8")).toBe(files.find((f) => f.id === "engineering")!.text);
  });
});

describe("the exported files, adopted", () => {
  it.each([false, true])(
    "pass the loader's checks, and the provider adopts them with zero write calls and no diff (exclusive: %s)",
    async (exclusive) => {
      const dir = join(work, `adopt-${exclusive}`);
      writeExport(dir, (await exportGuardrails({ client: emu.client(), ...both, exclusive })).files);
      const loaded = loadGuardrailConfigs(dir);
      expect(loaded.map((l) => l.id).sort()).toHaveLength(HAND_MADE.length);

      await emu.clearLog();
      for (const { settings } of loaded) {
        const { members, keys, ...args } = settings;
        const g = await guardrail.create({ __provider: "p", ...args });
        expect(g.id).toBe(args.adoptId);
        expect(await guardrail.diff(g.id, g.outs!, { __provider: "p", ...args })).toMatchObject({ changes: false });
        for (const diff of await adoptAssignments(g.id, { members, keys })) {
          expect(diff).toMatchObject({ changes: false });
        }
      }
      const log = await emu.log();
      expect(log.entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`)).toEqual([]);
    },
  );
});

describe("what a program cannot say back", () => {
  it("enforceZdr held with a vendor flag null: the export warns, naming the guardrail and the field, and adopting changes exactly that", async () => {
    const api = http(`${emu.url}/api/v1`, TEST_KEY);
    const made = (await api("POST", "/guardrails", { name: "Odd ZDR", enforce_zdr: true })).body.data.id as string;
    expect((await api("PATCH", `/guardrails/${made}`, { enforce_zdr_vendor_c: null })).status).toBe(200);
    const { files, warnings } = await exportGuardrails({ client: emu.client(), only: ["Odd ZDR"] });
    expect(warnings).toEqual([
      `guardrail "Odd ZDR" (odd-zdr, ${made}): enforceZdrVendorC: the service holds null while enforceZdr is true; a program cannot say that, so adopting sets enforceZdrVendorC to true`,
    ]);
    const dir = join(work, "odd-zdr");
    writeExport(dir, files);
    const { members: _m, keys: _k, ...args } = loadGuardrailConfigs(dir)[0]!.settings;
    await emu.clearLog();
    await guardrail.create({ __provider: "p", ...args });
    const log = await emu.log();
    expect(log.entries.filter((e) => e.method !== "GET").map((e) => e.operation)).toEqual(["updateGuardrail"]);
  });
});

describe("the guardrails-export bin", () => {
  const run = exportBin(emu);

  it("writes the folder, refuses a second run without --force naming the files, --stdout prints one file; the key is never printed", async () => {
    const cwd = mkdtempSync(join(work, "bin-"));
    const args = ["--workspace", DEFAULT_WS, "--workspace", SECOND_WS];
    const first = await run(args, cwd);
    expect(first).toMatchObject({ code: 0, stdout: "" });
    expect(first.stderr).toBe("guardrails-export: wrote 5 file(s) to guardrails/ (5 guardrail(s))\n");
    const expected = await exportGuardrails({ client: emu.client(), ...both });
    for (const f of expected.files) expect(readFileSync(join(cwd, "guardrails", f.fileName), "utf8")).toBe(f.text);

    const second = await run(args, cwd);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      "guardrails-export: 5 file(s) already exist: guardrails/engineering.yaml, guardrails/guardrail-44444444.yaml,",
    );
    expect((await run([...args, "--force"], cwd)).code).toBe(0);

    const out = await run([...args, "--stdout"], cwd);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(out.stdout).toBe(expected.combined.replace("$schema=../node_modules", "$schema=node_modules"));
    for (const r of [first, second, out]) expect(r.stdout + r.stderr).not.toContain(TEST_KEY);
    expect(readdirSync(join(cwd, "guardrails")).sort()).toEqual(expected.files.map((f) => f.fileName));
  });

  it("usage errors and a missing key say what to do, before any call", async () => {
    const cwd = mkdtempSync(join(work, "bin-"));
    await emu.clearLog();
    const bad = await run(["--workspace", "nope"], cwd);
    expect(bad).toMatchObject({
      code: 1,
      stderr:
        'guardrails-export: workspace "nope" is not a workspace id; expected a UUID such as 3f2b8c1e-0000-4000-8000-000000000000\n',
    });
    const missing = await run([], cwd, { GUARDRAILS_API_KEY: undefined, GUARDRAILS_BASE_URL: undefined });
    expect(missing).toMatchObject({
      code: 1,
      stderr: "guardrails-export: set GUARDRAILS_API_KEY and GUARDRAILS_BASE_URL (the same env vars as the provider)\n",
    });
    const unknown = await run(["--colour"], cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--colour'");
    expect((await emu.log()).total).toBe(0);
  });

  it("a wrong key: the error names the status, never the key", async () => {
    const cwd = mkdtempSync(join(work, "bin-"));
    const wrong = "wrong-key-0123456789";
    const res = await run([], cwd, {
      GUARDRAILS_API_KEY: wrong,
      GUARDRAILS_BASE_URL: emu.url,
      GUARDRAILS_MAX_ATTEMPTS: "1",
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^guardrails-export: GET .*401/);
    expect(res.stdout + res.stderr).not.toContain(wrong);
  });
});

describe("scale", () => {
  it("1,000 guardrails and 10,000 members export in one list walk each (pages sharing a row), plus two for the workspace's default", async () => {
    const members = Array.from({ length: 10_000 }, (_, i) => `user_${String(i).padStart(5, "0")}`);
    const big = await withEmulator({ members, keyHashes: DEMO_KEY_HASHES, maxBulk: 500 });
    try {
      const client = big.client();
      const ids: string[] = [];
      for (let i = 0; i < 1000; i++) ids.push((await client.createGuardrail({ name: `Team ${i}` })).id);
      // Ten members on each guardrail (a bulk call holds one guardrail's ids).
      for (let i = 0; i < 1000; i++) await client.assignMembers(ids[i]!, members.slice(i * 10, i * 10 + 10));
      await client.assignKeys(ids[0]!, DEMO_KEY_HASHES);
      await big.clearLog();
      const result = await exportGuardrails({ client });
      const log = await big.log();
      // eslint-disable-next-line no-console
      console.log(
        `export of 1,000 guardrails and 10,000 members: ${log.total} calls (${JSON.stringify(log.counts)}), ${log.writes} writes, ${result.files.length} files`,
      );
      expect(log.writes).toBe(0);
      // Pages of 100 share a row with the page before (issue 38): 1 + ⌈(N − 100) / 99⌉.
      expect(log.counts).toEqual({
        listGuardrails: 11,
        listAllMemberAssignments: 101,
        listAllKeyAssignments: 1,
        getWorkspace: 1,
        getGuardrail: 1,
      });
      expect(result.files).toHaveLength(1000);
      expect(new Set(result.files.map((f) => f.id)).size).toBe(1000);
      expect(result.files.find((f) => f.name === "Team 7")!.text).toContain(
        members
          .slice(70, 80)
          .map((m) => `        - ${m}\n`)
          .join(""),
      );
    } finally {
      await big.close();
    }
  });
});
