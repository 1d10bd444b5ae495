/**
 * The create journal: a run killed mid-create leaves an entry, and the next create of the
 * same resource recovers that guardrail instead of making a second one; entries of a live
 * engine are never touched; an id the engine recorded is forgotten.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { collect } from "../../src/core/client";
import { configure, resetConfiguration } from "../../src/core/settings/config";
import { parseInputs } from "../../src/core/guardrail/check";
import { createKey, type JournalEntry } from "../../src/core/resource/create-journal";
import { createBody } from "../../src/core/guardrail/bodies";
import { orphanPoll } from "../../src/core/resource/orphan";
import { guardrail } from "../../src/dynamic/internal";
import { TEST_KEY, withEmulator } from "../helpers/emulator";
import { killedEntry } from "../helpers/journal";

let emu: Awaited<ReturnType<typeof withEmulator>>;
let dir: string;

beforeAll(async () => {
  emu = await withEmulator();
});
afterAll(() => emu.close());
afterEach(() => vi.restoreAllMocks());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "guardrails-journal-"));
  process.env.GUARDRAILS_JOURNAL_DIR = dir;
  resetConfiguration();
  configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url })[k]);
});

const args = (name: string) => ({ name, limitUsd: 4, resetInterval: "daily" });
function writeEntry(resource: string, name: string, extra: Partial<JournalEntry>) {
  const key = createKey(resource, emu.url, createBody(parseInputs(args(name))));
  const entry: JournalEntry = killedEntry(resource, key, extra);
  const file = join(dir, `${key.slice(0, 16)}-1-1.json`);
  writeFileSync(file, JSON.stringify(entry));
  return { file, entry };
}
const named = async (name: string) =>
  (await collect(emu.client().listGuardrails())).filter((g) => g.name === name).map((g) => g.id);

describe("create journal", () => {
  it("an entry with the id of a killed run's create is adopted, without a second POST", async () => {
    const landed = await emu.client().createGuardrail({ name: "j-id", limit_usd: 4, reset_interval: "daily" });
    writeEntry("proj/dev/j-id", "j-id", { id: landed.id });
    await emu.clearLog();
    const res = await guardrail.create({ __provider: "s", __resource: "proj/dev/j-id", ...args("j-id") });
    expect(res.id).toBe(landed.id);
    expect((await emu.log()).counts.createGuardrail ?? 0).toBe(0);
    expect(await named("j-id")).toEqual([landed.id]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("an entry without an id (the process died before the answer) finds the guardrail created since", async () => {
    const landed = await emu.client().createGuardrail({ name: "j-noid", limit_usd: 4, reset_interval: "daily" });
    writeEntry("proj/dev/j-noid", "j-noid", {});
    const res = await guardrail.create({ __provider: "s", __resource: "proj/dev/j-noid", ...args("j-noid") });
    expect(res.id).toBe(landed.id);
    expect(await named("j-noid")).toEqual([landed.id]);
  });

  it("another resource, or a run whose engine is alive, never recovers the entry", async () => {
    const landed = await emu.client().createGuardrail({ name: "j-other", limit_usd: 4, reset_interval: "daily" });
    writeEntry("proj/dev/j-other", "j-other", { id: landed.id, engine: [process.pid] });
    const live = await guardrail.create({ __provider: "s", __resource: "proj/dev/j-other", ...args("j-other") });
    expect(live.id).not.toBe(landed.id);
    writeEntry("proj/dev/j-other", "j-other", { id: landed.id });
    const twin = await guardrail.create({ __provider: "s", __resource: "proj/dev/j-twin", ...args("j-other") });
    expect(twin.id).not.toBe(landed.id);
  });

  it("a successful create keeps its id until diff shows the engine recorded it", async () => {
    const res = await guardrail.create({ __provider: "s", __resource: "proj/dev/j-ok", ...args("j-ok") });
    expect(readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")).id)).toEqual([res.id]);
    await guardrail.diff(res.id, res.outs as never, { ...args("j-ok") });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a create waiting for a live orphan sees the id it journals (the entry moves to a name with the id's tag)", async () => {
    const orphan = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      const landed = await emu.client().createGuardrail({ name: "j-wait", limit_usd: 4, reset_interval: "daily" });
      const { file, entry } = writeEntry("proj/dev/j-wait", "j-wait", { pid: orphan.pid! });
      // The orphan's POST answers during the first wait: it writes <base>.<tag>.json and removes <base>.json.
      const waits = vi.spyOn(orphanPoll, "sleep").mockImplementation(async () => {
        if (waits.mock.calls.length > 1) return;
        writeFileSync(file.replace(/\.json$/, ".0123456789abcdef.json"), JSON.stringify({ ...entry, id: landed.id }));
        rmSync(file);
      });
      const res = await guardrail.create({ __provider: "s", __resource: "proj/dev/j-wait", ...args("j-wait") });
      expect(res.id).toBe(landed.id);
      expect(waits).toHaveBeenCalledTimes(1);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      orphan.kill();
    }
  });
});
