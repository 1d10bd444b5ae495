/**
 * The create journal's test bench, shared by the journal attack and hostile files: one emulator
 * for the file with the provider configured against it, and before each test a fresh temp
 * `root` whose `root/journal` (not made: the journal makes it) GUARDRAILS_JOURNAL_DIR names.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, vi } from "vitest";
import { parseInputs } from "../../src/core/guardrail/check";
import { createBody } from "../../src/core/guardrail/bodies";
import { createKey } from "../../src/core/resource/create-journal";
import { guardrail } from "../../src/dynamic/internal";
import { useProviderEmulator } from "./emulator";

type Extra = Record<string, unknown>;

/** A pid that is certainly not running: a process that already exited. */
export const deadPid = () => spawnSync(process.execPath, ["-e", "0"]).pid!;

/** A journal entry of a killed run (its process and engine gone) for the create with `key`, then `extra`. */
export const killedEntry = <T extends Extra>(resource: string, key: string, extra: T) => ({
  v: 1 as const,
  resource,
  key,
  started: Date.now() - 1000,
  pid: deadPid(),
  engine: [deadPid()],
  ...extra,
});

/** A guardrail's args: `name`, a limit of 4 USD a day, and `extra`. */
export const journalArgs = (name: string, extra: Extra = {}) => ({
  name,
  limitUsd: 4,
  resetInterval: "daily",
  ...extra,
});

/** Where a planted entry goes: its file name after the key prefix (`1-1.json`) and folder (the journal); the create's base URL and extra args. */
export interface PlantOptions {
  file?: string;
  folder?: string;
  url?: string;
  extra?: Extra;
}

/**
 * Sets up the bench for the test file. `root` and `dir` (the journal folder) are filled in
 * before each test; after each, mocks are restored and GUARDRAILS_JOURNAL_DIR names `dir` again.
 */
export function useJournalBench(prefix: string) {
  const emu = useProviderEmulator();
  const bench = {
    emu,
    root: "",
    dir: "",
    /** The journal key of the create of `name` by `resource` against `url`. */
    keyOf: (resource: string, name: string, url = emu.url, extra: Extra = {}) =>
      createKey(resource, url, createBody(parseInputs(journalArgs(name, extra)))),
    /** The provider's create of `name` by `resource`, as the engine calls it. */
    create: (resource: string, name: string, extra: Extra = {}) =>
      guardrail.create({ __provider: "s", __resource: resource, ...journalArgs(name, extra) }),
    /** How many creates reached the emulator. */
    posts: async () => (await emu.log()).counts.createGuardrail ?? 0,
    /** An entry of a killed run (its process and engine gone) for that create, as a file; answers its path. */
    plant(resource: string, name: string, entry: Extra, o: PlantOptions = {}): string {
      mkdirSync(bench.dir, { recursive: true, mode: 0o700 });
      const key = bench.keyOf(resource, name, o.url ?? emu.url, o.extra);
      const path = join(o.folder ?? bench.dir, `${key.slice(0, 16)}-${o.file ?? "1-1.json"}`);
      writeFileSync(path, JSON.stringify(killedEntry(resource, key, entry)));
      return path;
    },
  };
  beforeEach(() => {
    bench.root = mkdtempSync(join(tmpdir(), prefix));
    bench.dir = join(bench.root, "journal");
    process.env.GUARDRAILS_JOURNAL_DIR = bench.dir;
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.env.GUARDRAILS_JOURNAL_DIR = bench.dir;
  });
  return bench;
}
