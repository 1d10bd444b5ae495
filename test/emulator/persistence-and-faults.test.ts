/**
 * The emulator binary: state-file persistence across a restart, and each fault mode,
 * deterministic by seed. Plain HTTP against the spawned CLI.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { http, spawnEmulator, type SpawnedEmulator } from "../helpers/spawn-emulator";

const KEY = "persist-key";
let running: SpawnedEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.map((e) => e.stop()));
  running = [];
});
const start = async (args: string[]) => {
  const e = await spawnEmulator(["--management-key", KEY, ...args]);
  running.push(e);
  return e;
};

/** Runs `test` with the path of a state file in a fresh temporary folder, removed afterwards. */
async function withStateFile(test: (file: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "gr-state-"));
  try {
    await test(join(dir, "state.json"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("--state-file", () => {
  it("a restart with the same file loses nothing", () =>
    withStateFile(async (file) => {
      const first = await start(["--state-file", file]);
      const api = http(first.api, KEY);
      const g = (await api("POST", "/guardrails", { name: "durable", allowed_models: ["vendor-a/model-x"] })).body.data;
      await api("POST", `/guardrails/${g.id}/assignments/members`, { member_user_ids: ["user_alice", "user_bob"] });
      await api("POST", `/guardrails/${g.id}/assignments/keys`, { key_hashes: ["a1b2c3d4e5f60718"] });
      await first.stop();
      expect(JSON.parse(readFileSync(file, "utf8")).guardrails).toHaveLength(1);

      const second = await start(["--state-file", file]);
      const api2 = http(second.api, KEY);
      expect((await api2("GET", `/guardrails/${g.id}`)).body.data).toEqual(g);
      expect((await api2("GET", `/guardrails/${g.id}/assignments/members`)).body.total_count).toBe(2);
      expect((await api2("GET", `/guardrails/${g.id}/assignments/keys`)).body.data[0].key_hash).toBe(
        "a1b2c3d4e5f60718",
      );
    }));

  it("a state file of an earlier emulator gains the rule 13 fields once; a guardrail shaped by hand in a current file is served as it is", () =>
    withStateFile(async (file) => {
      const first = await start(["--state-file", file]);
      const api = http(first.api, KEY);
      const old = (await api("POST", "/guardrails", { name: "old" })).body.data;
      const odd = (await api("POST", "/guardrails", { name: "odd" })).body.data;
      await first.stop();
      // Rewrite the file as the emulator before rule 13 wrote it: no version, no new fields.
      const data = JSON.parse(readFileSync(file, "utf8"));
      expect(data.version).toBe(2);
      const strip = ({
        include_byok_in_budgets: _a,
        allowed_data_regions: _b,
        enable_free_model_publication: _c,
        enable_free_model_training: _d,
        enable_paid_model_training: _e,
        ...rest
      }: Record<string, unknown>) => rest;
      writeFileSync(file, JSON.stringify({ ...data, version: undefined, guardrails: [strip(data.guardrails[0])] }));

      const second = await start(["--state-file", file]);
      expect((await http(second.api, KEY)("GET", `/guardrails/${old.id}`)).body.data).toEqual(old);
      await http(second.api, KEY)("POST", "/guardrails", { name: "third" });
      await second.stop();

      // A file already at version 2 is served as stored: the hand-made absence stays absent.
      const reshaped = JSON.parse(readFileSync(file, "utf8"));
      writeFileSync(
        file,
        JSON.stringify({
          ...reshaped,
          guardrails: [...reshaped.guardrails, { ...odd, workspace_id: null, include_byok_in_budgets: undefined }],
        }),
      );
      const third = await start(["--state-file", file]);
      const served = (await http(third.api, KEY)("GET", `/guardrails/${odd.id}`)).body.data;
      expect(served.workspace_id).toBeNull();
      expect("include_byok_in_budgets" in served).toBe(false);
    }));
});

describe("fault injection", () => {
  it("--update-conflicts N: the next N valid updates answer 409 and change nothing (rule 15)", async () => {
    const e = await start(["--update-conflicts", "1"]);
    const api = http(e.api, KEY);
    const g = (await api("POST", "/guardrails", { name: "before" })).body.data;
    const conflict = await api("PATCH", `/guardrails/${g.id}`, { name: "after" });
    expect(conflict.body).toEqual({ error: { code: 409, message: expect.stringContaining(g.id), metadata: null } });
    expect((await api("GET", `/guardrails/${g.id}`)).body.data.name).toBe("before");
    expect((await api("PATCH", `/guardrails/${g.id}`, { name: "after" })).status).toBe(200);
  });

  it("--error-rate answers 5xx before applying anything, the same way for the same seed", async () => {
    const statuses = async () => {
      const e = await start(["--error-rate", "0.5", "--seed", "42"]);
      const api = http(e.api, KEY);
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await api("POST", "/guardrails", { name: `g${i}` })).status);
      await e.stop();
      return { out, created: out.filter((s) => s === 201).length, faults: out.filter((s) => s >= 500).length };
    };
    const a = await statuses();
    const b = await statuses();
    expect(a.out).toEqual(b.out);
    expect(a.faults).toBeGreaterThan(3);
    expect(a.created).toBeGreaterThan(3);
    expect(a.out.every((s) => s === 201 || [500, 502, 503].includes(s))).toBe(true);
  });

  it("an injected 5xx changes nothing", async () => {
    const e = await start(["--error-rate", "1"]);
    const api = http(e.api, KEY);
    expect((await api("POST", "/guardrails", { name: "x" })).status).toBeGreaterThanOrEqual(500);
    await http(e.url)("PUT", "/__emulator/faults", { errorRate: 0 });
    expect((await api("GET", "/guardrails")).body.total_count).toBe(0);
  });

  it("429 bursts carry Retry-After and last --rate-limit-burst calls", async () => {
    const e = await start(["--rate-limit-rate", "1", "--rate-limit-burst", "3", "--retry-after", "7"]);
    const api = http(e.api, KEY);
    const res = await api("GET", "/guardrails");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.body.error.code).toBe(429);
    await http(e.url)("PUT", "/__emulator/faults", { rateLimitRate: 0.2, rateLimitBurst: 4, seed: 3 });
    const seq: number[] = [];
    for (let i = 0; i < 40; i++) seq.push((await api("GET", "/guardrails")).status);
    expect(seq.every((st) => st === 200 || st === 429)).toBe(true);
    // Maximal runs of 429 that the end of the sequence did not cut short: each is whole bursts.
    const runs: number[] = [];
    let current = 0;
    for (const st of seq) {
      if (st === 429) current++;
      else if (current > 0) {
        runs.push(current);
        current = 0;
      }
    }
    expect(runs.length).toBeGreaterThan(0);
    expect(seq).toContain(200);
    for (const r of runs) expect(r % 4).toBe(0);
  });

  it("--latency-ms delays every API call", async () => {
    const e = await start(["--latency-ms", "150"]);
    const api = http(e.api, KEY);
    await api("GET", "/guardrails");
    await api("POST", "/guardrails", { name: "slow" });
    const log = (await http(e.url)("GET", "/__emulator/log")).body;
    expect(log.entries.map((x: { delayedMs?: number }) => x.delayedMs)).toEqual([150, 150]);
  });

  it("--drop-after-apply applies the write, then destroys the connection without an answer", async () => {
    const e = await start(["--drop-after-apply", "1"]);
    const api = http(e.api, KEY);
    await expect(api("POST", "/guardrails", { name: "ghost" })).rejects.toThrow();
    const list = await api("GET", "/guardrails");
    expect(list.body.data.map((g: { name: string }) => g.name)).toEqual(["ghost"]);
    const log = (await http(e.url)("GET", "/__emulator/log")).body;
    expect(log.entries.find((x: { fault?: string }) => x.fault === "dropped")).toMatchObject({
      operation: "createGuardrail",
      method: "POST",
    });
  });

  it("admin endpoints live under /__emulator/ only, count calls per operation, and never hold a key", async () => {
    const e = await start(["--log-requests"]);
    const api = http(e.api, KEY);
    await api("GET", "/guardrails");
    await api("POST", "/guardrails", { name: "a" });
    expect((await api("GET", "/__emulator/log")).status).toBe(404);
    expect((await http(e.api)("GET", "/../__emulator/log")).status).not.toBe(500);
    const log = (await http(e.url)("GET", "/__emulator/log")).body;
    expect(log.counts).toEqual({ listGuardrails: 1, createGuardrail: 1, unknown: 1 });
    expect(JSON.stringify(log)).not.toContain(KEY);
    expect(e.output()).not.toContain(KEY);
    await http(e.url)("DELETE", "/__emulator/log");
    expect((await http(e.url)("GET", "/__emulator/log")).body.total).toBe(0);
  });

  it("bodies over the cap get 413, not a crash", async () => {
    const e = await start([]);
    const res = await http(e.api, KEY)("POST", "/guardrails", { name: "x", description: "d".repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect((await http(e.api, KEY)("GET", "/guardrails")).status).toBe(200);
  });
});
