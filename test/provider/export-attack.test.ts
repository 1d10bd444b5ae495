/**
 * Attack pass on the `guardrails-export` bin (issue 24): the API key pasted where it does not
 * belong, a linked folder named with a trailing slash, and names that slug to reserved or
 * colliding ids, exported from the emulator and read back by the loader unchanged.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGuardrailConfigs } from "../../src/declarative/load";
import { tempFolder, TEST_KEY, useProviderEmulator } from "../helpers/emulator";
import { hostileServer, json } from "../helpers/hostile-server";
import { exportBin } from "../helpers/export-bin";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator();
const work = tempFolder("export-attack-");

const run = exportBin(emu);
const fresh = () => mkdtempSync(join(work, "bin-"));

describe("the API key pasted where it does not belong never reaches stderr", () => {
  it.each([
    ["A22: as GUARDRAILS_BASE_URL", [], { GUARDRAILS_BASE_URL: TEST_KEY }],
    ["A23: in the base URL's userinfo, service down", [], { GUARDRAILS_BASE_URL: `http://u:${TEST_KEY}@127.0.0.1:9/` }],
    [
      "A24: in the base URL's query, service down",
      [],
      { GUARDRAILS_BASE_URL: `http://127.0.0.1:9/?api_key=${TEST_KEY}&x=${TEST_KEY}` },
    ],
    ["A25: as GUARDRAILS_MAX_ATTEMPTS", [], { GUARDRAILS_MAX_ATTEMPTS: TEST_KEY }],
    ["A26: as GUARDRAILS_TIMEOUT_MS", [], { GUARDRAILS_TIMEOUT_MS: TEST_KEY }],
    ["A27: as --workspace", ["--workspace", TEST_KEY], {}],
    ["A28: as --only", ["--only", TEST_KEY], {}],
    ["A29: as --exclude", ["--exclude", TEST_KEY], {}],
    ["A30: as a second folder", ["guardrails", TEST_KEY], {}],
  ] as const)("%s", async (_, args, env) => {
    const res = await run([...args], fresh(), env);
    expect(res.code).not.toBe(0);
    expect(res.stderr).not.toBe("");
    expect(res.stderr + res.stdout).not.toContain(TEST_KEY);
    expect(res.stderr + res.stdout).not.toContain(encodeURIComponent(TEST_KEY).slice(0, 12));
  });
});

describe("the folder", () => {
  it("A31: guardrails/ given with a trailing slash where guardrails is a link: exit 1, nothing written through it", async () => {
    expect((await http(`${emu.url}/api/v1`, TEST_KEY)("POST", "/guardrails", { name: "Engineering" })).status).toBe(
      201,
    );
    const cwd = fresh();
    const elsewhere = join(work, `elsewhere-${Date.now()}`);
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(cwd, "guardrails"));
    for (const dir of ["guardrails/", "guardrails/."]) {
      const res = await run([dir, "--all-workspaces", "--force"], cwd);
      expect(res.code, `${dir}: ${res.stderr}`).toBe(1);
      expect(res.stderr, dir).toContain("is a symbolic link");
    }
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe("a hostile local folder", () => {
  it("A39: another file whose name holds terminal escapes is named quoted in the note, never raw", async () => {
    expect((await http(`${emu.url}/api/v1`, TEST_KEY)("POST", "/guardrails", { name: "Noted" })).status).toBe(201);
    const cwd = fresh();
    mkdirSync(join(cwd, "guardrails"));
    writeFileSync(join(cwd, "guardrails", "x\u001b]0;pwned\u0007\u001b[2J\u202e.yaml"), "guardrails: {}\n");
    const res = await run(["--all-workspaces"], cwd);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain("also holds");
    expect(res.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202a-\u202e]/);
  });
});

describe("the folder is a file", () => {
  it("A43: guardrails is a regular file (or a FIFO): exit 1 saying it is not a folder, the file untouched", async () => {
    expect((await http(`${emu.url}/api/v1`, TEST_KEY)("POST", "/guardrails", { name: "Filed" })).status).toBe(201);
    const cwd = fresh();
    writeFileSync(join(cwd, "guardrails"), "mine\n");
    const res = await run(["--force"], cwd);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe("guardrails-export: guardrails is not a folder\n");
    expect(readFileSync(join(cwd, "guardrails"), "utf8")).toBe("mine\n");
    const fifo = fresh();
    execFileSync("mkfifo", [join(fifo, "guardrails")]);
    expect(await run([], fifo)).toMatchObject({ code: 1, stderr: "guardrails-export: guardrails is not a folder\n" });
  });
});

describe("the folder swapped while the export reads", () => {
  it("A40: guardrails/ replaced by a link while the service answers: exit 1, nothing written through it", async () => {
    const cwd = fresh();
    const elsewhere = join(work, `swap-${Date.now()}`);
    mkdirSync(elsewhere);
    mkdirSync(join(cwd, "guardrails"));
    const server = await hostileServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/api/v1/guardrails" && !url.searchParams.has("workspace_id")) {
        renameSync(join(cwd, "guardrails"), join(cwd, "was-guardrails"));
        symlinkSync(elsewhere, join(cwd, "guardrails"));
        return json(res, 200, {
          data: [
            {
              id: "3f2b8c1e-0000-4000-8000-000000000001",
              name: "A",
              created_at: "2026-01-01T00:00:00.000Z",
              workspace_id: null,
            },
          ],
          total_count: 1,
        });
      }
      json(res, 200, { data: [], total_count: 0 });
    });
    try {
      const res = await run([], cwd, { GUARDRAILS_BASE_URL: server.url });
      expect(res.code, res.stderr).toBe(1);
      expect(res.stderr).toContain("is a symbolic link");
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("A41: a service that echoes the key in its error body: the bin's message masks it", async () => {
    const server = await hostileServer((req, res) =>
      json(res, 400, {
        error: {
          code: 400,
          message: `bad key ${req.headers.authorization} ${encodeURIComponent(TEST_KEY)}`,
          metadata: { key: TEST_KEY },
        },
      }),
    );
    try {
      const res = await run([], fresh(), { GUARDRAILS_BASE_URL: server.url });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("400");
      expect(res.stderr).not.toContain(TEST_KEY);
    } finally {
      await server.close();
    }
  });
});

describe("reserved and colliding names from the emulator round-trip through the loader", () => {
  it("A32: Con., NUL , POLICY, com0, lpt¹, Eng/eng, ﬁnance/finance: every file loads, none is skipped or reserved", async () => {
    expect((await http(emu.url)("POST", "/__emulator/reset")).status).toBe(200);
    const api = http(`${emu.url}/api/v1`, TEST_KEY);
    const names = ["Con.", "NUL ", "POLICY", " policy", "com0", "lpt¹", "Eng", "eng", "ﬁnance", "finance"];
    for (const name of names) expect((await api("POST", "/guardrails", { name })).status).toBe(201);
    const cwd = fresh();
    const res = await run(["--all-workspaces"], cwd);
    expect(res.code, res.stderr).toBe(0);
    const files = readdirSync(join(cwd, "guardrails"));
    expect(files).toHaveLength(names.length);
    for (const f of files) expect(f).not.toMatch(/^(policy|con|prn|aux|nul|com\d|lpt\d)\./i);
    const loaded = loadGuardrailConfigs(join(cwd, "guardrails"));
    expect(loaded.map((l) => l.settings.name).sort()).toEqual([...names].sort());
  });
});
