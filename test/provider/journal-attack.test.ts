/**
 * Attacks on the create journal, as a hostile server and as a hostile local disk: each test
 * is one attack, and asserts that the journal neither loses, duplicates, wrongly adopts,
 * leaks, stalls nor writes outside its folder. Real files in a temp folder; the emulator, or a
 * hostile server where the server must lie.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { JournalHandle, readEntry } from "../../src/core/resource/create-journal";
import { orphanPoll } from "../../src/core/resource/orphan";
import { configureProvider, TEST_KEY, W2 } from "../helpers/emulator";
import { hostileServer, json } from "../helpers/hostile-server";
import { useJournalBench } from "../helpers/journal";

const bench = useJournalBench("guardrails-journal-attack-");
const { emu, keyOf, create, posts, plant } = bench;
const asRoot = process.getuid?.() === 0;

const made = (name: string, extra: Record<string, unknown> = {}) =>
  emu.client().createGuardrail({ name, limit_usd: 4, reset_interval: "daily", ...extra });
const guardrailJson = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  created_at: new Date().toISOString(),
  limit_usd: 4,
  reset_interval: "daily",
  ...extra,
});

describe("a hostile server", () => {
  it("1. ids '.', '..' and '/' are refused (not UUIDs, issue 38) and never become path components", async () => {
    for (const id of [".", "..", "a/../../../escape"]) {
      const server = await hostileServer((_req, res) => json(res, 201, { data: guardrailJson(id, "dots") }));
      try {
        configureProvider(server.url);
        await expect(create(`proj/dev/dots${id.length}`, "dots")).rejects.toThrow(/data\.id: must be a UUID/);
      } finally {
        await server.close();
      }
      JournalHandle.forget(id, bench.dir);
    }
    expect(readdirSync(bench.root)).toEqual(["journal"]);
  });

  it("2. a POST that fails ambiguously, nothing landed, then succeeds leaves no entry the engine cannot forget", async () => {
    let postsSeen = 0;
    const server = await hostileServer((req, res) => {
      if (req.method === "POST")
        return ++postsSeen === 1
          ? json(res, 500, { error: { code: 500, message: "boom" } })
          : json(res, 201, { data: guardrailJson("3f2b8c1e-0000-4000-8000-00000000000a", "amb") });
      json(res, 200, { data: [], total_count: 0 });
    });
    try {
      configureProvider(server.url, { "guardrails:maxAttempts": "3" });
      expect((await create("proj/dev/amb", "amb")).id).toBe("3f2b8c1e-0000-4000-8000-00000000000a");
    } finally {
      await server.close();
    }
    // The engine recorded g-second (its next diff/read forgets it): nothing may stay that a later create of this resource would resolve.
    JournalHandle.forget("3f2b8c1e-0000-4000-8000-00000000000a", bench.dir);
    expect(readdirSync(bench.dir)).toEqual([]);
  });

  it("3. a guardrail answered for the journaled id under another id is not adopted", async () => {
    const server = await hostileServer((req, res) => {
      if (req.method === "GET" && req.url?.startsWith("/api/v1/guardrails/3f2b8c1e-0000-4000-8000-00000000000d"))
        return json(res, 200, { data: guardrailJson("3f2b8c1e-0000-4000-8000-00000000000b", "swap") });
      if (req.method === "POST")
        return json(res, 201, { data: guardrailJson("3f2b8c1e-0000-4000-8000-00000000000c", "swap") });
      json(res, 404, { error: { code: 404, message: "no" } });
    });
    try {
      plant("proj/dev/swap", "swap", { id: "3f2b8c1e-0000-4000-8000-00000000000d" }, { url: server.url });
      configureProvider(server.url);
      expect((await create("proj/dev/swap", "swap")).id).toBe("3f2b8c1e-0000-4000-8000-00000000000c");
    } finally {
      await server.close();
    }
  });

  it("4. a server that never answers the adoption's GET does not stall the create forever (the request deadline holds)", async () => {
    const server = await hostileServer(() => undefined);
    try {
      plant("proj/dev/hang", "hang", { id: "3f2b8c1e-0000-4000-8000-00000000000f" }, { url: server.url });
      configureProvider(server.url, { "guardrails:timeoutMs": "300", "guardrails:maxAttempts": "1" });
      const t0 = Date.now();
      await expect(create("proj/dev/hang", "hang")).rejects.toThrow(/300 ms/);
      expect(Date.now() - t0).toBeLessThan(10_000);
    } finally {
      await server.close();
    }
  });
});

describe("entries of other runs, stacks and workspaces", () => {
  it("5. an entry of another stack with the same name and args is not adopted", async () => {
    const theirs = await made("j-stack");
    plant("proj/prod/j-stack", "j-stack", { id: theirs.id });
    await emu.clearLog();
    expect((await create("proj/dev/j-stack", "j-stack")).id).not.toBe(theirs.id);
    expect(await posts()).toBe(1);
  });

  it("6. an entry written for another service URL is not adopted", async () => {
    const g = await made("j-url");
    plant("proj/dev/j-url", "j-url", { id: g.id }, { url: "http://127.0.0.1:1" });
    expect((await create("proj/dev/j-url", "j-url")).id).not.toBe(g.id);
  });

  it("7. an entry without id is not resolved to another stack's same guardrail created hours after it", async () => {
    plant("proj/dev/j-late", "j-late", { started: Date.now() - 3 * 3600_000 });
    // The killed dev run never reached the service; hours later prod made its own "j-late".
    const prods = await made("j-late");
    await emu.clearLog();
    const res = await create("proj/dev/j-late", "j-late");
    expect(res.id).not.toBe(prods.id);
    expect(await posts()).toBe(1);
  });

  it("8. a workspace id asked in upper case still adopts the journaled guardrail of that workspace (no duplicate)", async () => {
    const g = await made("j-case", { workspace_id: W2 });
    plant("proj/dev/j-case", "j-case", { id: g.id }, { extra: { workspaceId: W2.toUpperCase() } });
    await emu.clearLog();
    const res = await create("proj/dev/j-case", "j-case", { workspaceId: W2.toUpperCase() });
    expect(res.id).toBe(g.id);
    expect(await posts()).toBe(0);
  });

  it("9. a guardrail whose name differs only by Unicode form or case is not adopted", async () => {
    const nfd = await made("cafe\u0301");
    const upper = await made("CAFÉ");
    plant("proj/dev/cafe", "café", { id: nfd.id }, { file: "1-1.json" });
    plant("proj/dev/cafe", "café", { id: upper.id }, { file: "1-2.json" });
    const res = await create("proj/dev/cafe", "café");
    expect([nfd.id, upper.id]).not.toContain(res.id);
  });

  it("10. two orphans of two resources with one name each adopt their own guardrail, concurrently", async () => {
    const a = await made("j-twin");
    const b = await made("j-twin");
    plant("proj/dev/twin-a", "j-twin", { id: a.id });
    plant("proj/dev/twin-b", "j-twin", { id: b.id });
    await emu.clearLog();
    const [ra, rb] = await Promise.all([create("proj/dev/twin-a", "j-twin"), create("proj/dev/twin-b", "j-twin")]);
    expect([ra.id, rb.id]).toEqual([a.id, b.id]);
    expect(await posts()).toBe(0);
  });

  it("11. an entry written by an earlier process that had this process's pid (pids recycle) is still recovered", async () => {
    const g = await made("j-mypid");
    plant("proj/dev/j-mypid", "j-mypid", { id: g.id, pid: process.pid, started: Date.now() - 3600_000 });
    await emu.clearLog();
    const res = await create("proj/dev/j-mypid", "j-mypid");
    expect(res.id).toBe(g.id);
    expect(await posts()).toBe(0);
  });

  it("12. an entry whose dead provider's pid now belongs to an unrelated live process does not make the create wait", async () => {
    const g = await made("j-recycled");
    const stranger = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      // The stranger started after the entry was written: it cannot be the process that wrote it.
      await new Promise((r) => setTimeout(r, 1500));
      plant("proj/dev/j-recycled", "j-recycled", { pid: stranger.pid!, started: Date.now() - 120_000 });
      const waits = vi.spyOn(orphanPoll, "sleep").mockResolvedValue(undefined);
      const res = await create("proj/dev/j-recycled", "j-recycled");
      expect(res.id).toBe(g.id);
      expect(waits).not.toHaveBeenCalled();
    } finally {
      stranger.kill();
    }
  });
});

describe("clock skew and crafted entries", () => {
  it("13. an entry dated within the tolerated skew in the future does not adopt a guardrail made before it", async () => {
    const older = await made("j-skew");
    plant("proj/dev/j-skew", "j-skew", { started: Date.now() + 4 * 60_000 });
    expect((await create("proj/dev/j-skew", "j-skew")).id).not.toBe(older.id);
  });

  it("14. crafted JSON (prototype keys, huge numbers, deep nesting, BOM, NaN strings) is ignored without crash or pollution", async () => {
    mkdirSync(bench.dir, { mode: 0o700 });
    const key = keyOf("proj/dev/j-json", "j-json");
    const base = { v: 1, resource: "proj/dev/j-json", key, pid: 4242, engine: [4243] };
    const texts = [
      `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},${JSON.stringify(base).slice(1, -1)},"started":${Date.now()}}`,
      JSON.stringify({ ...base, started: 1e308 }),
      JSON.stringify({ ...base, started: "NaN" }),
      `\ufeff${JSON.stringify({ ...base, started: Date.now() })}`,
      "[".repeat(8000) + "]".repeat(8000),
      JSON.stringify({ ...base, started: Date.now(), v: 2 }),
      JSON.stringify({ ...base, started: Date.now(), id: "" }),
    ];
    for (const [i, t] of texts.entries()) writeFileSync(join(bench.dir, `${key.slice(0, 16)}-9-${i}.json`), t);
    for (let i = 0; i < texts.length; i++) {
      const e = readEntry(join(bench.dir, `${key.slice(0, 16)}-9-${i}.json`));
      // Only the first carries a valid shape; its prototype keys must not survive.
      if (i === 0) expect(Object.getPrototypeOf(e)).toBe(Object.prototype);
      else expect(e).toBeUndefined();
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expect(create("proj/dev/j-json", "j-json")).resolves.toHaveProperty("id");
  });
});

describe("a hostile local disk", () => {
  it("15. a journal folder that is a symlink to a private folder works; one to a world-writable folder is refused", async () => {
    const real = join(bench.root, "real");
    mkdirSync(real, { mode: 0o700 });
    const link = join(bench.root, "link");
    symlinkSync(real, link);
    process.env.GUARDRAILS_JOURNAL_DIR = link;
    await create("proj/dev/j-symdir", "j-symdir");
    expect(readdirSync(real)).toHaveLength(1);
    chmodSync(real, 0o777);
    await emu.clearLog();
    await expect(create("proj/dev/j-symdir2", "j-symdir2")).rejects.toThrow(/writable by others/);
    expect((await emu.log()).total).toBe(0);
  });

  it("16. GUARDRAILS_JOURNAL_DIR naming a regular file is reported, not silently dropped", async () => {
    const file = join(bench.root, "a-file");
    writeFileSync(file, "x");
    process.env.GUARDRAILS_JOURNAL_DIR = file;
    await emu.clearLog();
    await expect(create("proj/dev/j-file", "j-file")).rejects.toThrow(`create journal folder ${file} is not a folder`);
    expect((await emu.log()).total).toBe(0);
  });

  it("17. the API key pasted into GUARDRAILS_JOURNAL_DIR is neither made a folder in the program's folder nor quoted", async () => {
    process.env.GUARDRAILS_JOURNAL_DIR = TEST_KEY;
    const where = join(process.cwd(), TEST_KEY);
    try {
      const err = await create("proj/dev/j-key", "j-key").then(
        () => undefined,
        (e: Error) => e,
      );
      expect(existsSync(where)).toBe(false);
      expect(err?.message).toMatch(/GUARDRAILS_JOURNAL_DIR must be an absolute path/);
      expect(err?.message).not.toContain(TEST_KEY);
    } finally {
      rmSync(where, { recursive: true, force: true });
    }
  });

  it.skipIf(!asRoot)(
    "18. an entry another user planted while the folder was open is not trusted after `chmod 700` (the advised fix)",
    async () => {
      const g = await made("j-planted");
      const file = plant("proj/dev/j-planted", "j-planted", { id: g.id });
      chownSync(file, 4242, 4242);
      chmodSync(bench.dir, 0o700);
      const res = await create("proj/dev/j-planted", "j-planted");
      expect(res.id).not.toBe(g.id);
    },
  );

  it.skipIf(!asRoot)("19. a journal folder reached through a symlink owned by another user is refused", async () => {
    const real = join(bench.root, "real");
    mkdirSync(real, { mode: 0o700 });
    const link = join(bench.root, "theirs");
    symlinkSync(real, link);
    spawnSync("chown", ["-h", "4242:4242", link]);
    chmodSync(bench.root, 0o1777);
    process.env.GUARDRAILS_JOURNAL_DIR = link;
    // Its owner may point it elsewhere at any moment; only the target's owner and mode are checked.
    await expect(create("proj/dev/j-theirlink", "j-theirlink")).rejects.toThrow(/journal folder/);
  });

  it("20. huge (sparse) entries, devices and folders with the entry prefix are skipped at once", async () => {
    const g = await made("j-huge");
    const path = plant("proj/dev/j-huge", "j-huge", { id: g.id });
    truncateSync(path, 2 ** 33);
    const prefix = keyOf("proj/dev/j-huge", "j-huge").slice(0, 16);
    mkdirSync(join(bench.dir, `${prefix}-2-2.json`));
    if (asRoot) spawnSync("mknod", [join(bench.dir, `${prefix}-3-3.json`), "c", "1", "5"]);
    symlinkSync("/dev/zero", join(bench.dir, `${prefix}-4-4.json`));
    const t0 = Date.now();
    const res = await create("proj/dev/j-huge", "j-huge");
    expect(res.id).not.toBe(g.id);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it.skipIf(!asRoot)("21. an entry hard-linked in from outside the folder by another user is not trusted", async () => {
    const g = await made("j-hard");
    const outside = plant("proj/dev/j-hard", "j-hard", { id: g.id }, { folder: bench.root });
    chownSync(outside, 4242, 4242);
    linkSync(outside, join(bench.dir, `${keyOf("proj/dev/j-hard", "j-hard").slice(0, 16)}-1-1.json`));
    const res = await create("proj/dev/j-hard", "j-hard");
    expect(res.id).not.toBe(g.id);
  });

  it("22. an entry swapped with a FIFO or a link in a tight loop is never read through either, nor blocks", async () => {
    mkdirSync(bench.dir, { mode: 0o700 });
    const file = join(bench.dir, "race.json");
    const good = JSON.stringify({
      v: 1,
      resource: "r",
      key: "0".repeat(64),
      started: Date.now(),
      pid: 4242,
      engine: [],
    });
    const secret = join(bench.root, "secret.json");
    writeFileSync(
      secret,
      JSON.stringify({ v: 1, resource: "SECRET", key: "1".repeat(64), started: Date.now(), pid: 4242, engine: [] }),
    );
    expect(spawnSync("mkfifo", [join(bench.root, "fifo")]).status).toBe(0);
    const swapper = spawn(process.execPath, ["-e", SWAPPER, file, good, join(bench.root, "fifo"), secret, bench.root], {
      stdio: "ignore",
    });
    try {
      await new Promise((r) => setTimeout(r, 200));
      const t0 = Date.now();
      const seen = new Set<string>();
      for (let i = 0; i < 3000; i++) {
        const e = readEntry(file);
        if (e) seen.add(e.resource);
      }
      expect(seen.has("SECRET")).toBe(false);
      expect(Date.now() - t0).toBeLessThan(20_000);
    } finally {
      swapper.kill();
    }
  });

  it("23. a journal full of files (many entries of other keys) neither slows nor breaks a create", async () => {
    mkdirSync(bench.dir, { mode: 0o700 });
    for (let i = 0; i < 3000; i++) writeFileSync(join(bench.dir, `${i.toString(16).padStart(16, "0")}-1-1.json`), "{}");
    const t0 = Date.now();
    await create("proj/dev/j-many", "j-many");
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(readdirSync(bench.dir)).toHaveLength(3001);
  });

  it("24. a journal folder that cannot be made (under /proc) loses the journal, never the create, and never spins", async () => {
    process.env.GUARDRAILS_JOURNAL_DIR = "/proc/guardrails-journal";
    await emu.clearLog();
    await expect(create("proj/dev/j-rofs", "j-rofs")).resolves.toHaveProperty("id");
    expect(await posts()).toBe(1);
  });

  it("25. the folder swapped for a file while the POST is out does not turn the created guardrail into an error", async () => {
    const server = await hostileServer((_req, res) => {
      rmSync(bench.dir, { recursive: true, force: true });
      writeFileSync(bench.dir, "in the way");
      json(res, 201, { data: guardrailJson("3f2b8c1e-0000-4000-8000-00000000000e", "swapped") });
    });
    try {
      configureProvider(server.url);
      // An error here would lose g-swapped: the engine records nothing, and the journal is gone.
      expect((await create("proj/dev/swapped", "swapped")).id).toBe("3f2b8c1e-0000-4000-8000-00000000000e");
    } finally {
      await server.close();
    }
  });

  it("26. a refusal names the folder without the API key pasted into its path", async () => {
    const open = join(bench.root, TEST_KEY);
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    process.env.GUARDRAILS_JOURNAL_DIR = open;
    const err = await create("proj/dev/j-keypath", "j-keypath").then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain("is writable by others");
    expect(err?.message).toContain(bench.root);
    expect(err?.message).not.toContain(TEST_KEY);
  });
});

describe("the folder's surroundings, and what forget removes", () => {
  it("27. a journal folder whose parent anyone can write (no sticky bit) is refused: anyone could swap it", async () => {
    const parent = join(bench.root, "shared");
    mkdirSync(parent);
    chmodSync(parent, 0o777);
    process.env.GUARDRAILS_JOURNAL_DIR = join(parent, "journal");
    await emu.clearLog();
    await expect(create("proj/dev/j-parent", "j-parent")).rejects.toThrow(
      `create journal folder ${join(parent, "journal")} is in ${parent}, which others can write`,
    );
    expect((await emu.log()).total).toBe(0);
    // /tmp-like (sticky): others cannot move what is ours, so it is fine.
    chmodSync(parent, 0o1777);
    await expect(create("proj/dev/j-parent", "j-parent")).resolves.toHaveProperty("id");
  });

  it("28. forget removes only the entries of that id, whatever the others are named", async () => {
    mkdirSync(bench.dir, { mode: 0o700 });
    const a = await create("proj/dev/j-fa", "j-fa");
    const b = await create("proj/dev/j-fb", "j-fb");
    writeFileSync(join(bench.dir, "unrelated.json"), "{}");
    JournalHandle.forget(a.id, bench.dir);
    const left = readdirSync(bench.dir).sort();
    expect(left).toHaveLength(2);
    expect(left).toContain("unrelated.json");
    expect(JSON.parse(readFileSync(join(bench.dir, left.find((f) => f !== "unrelated.json")!), "utf8")).id).toBe(b.id);
  });

  it("29. the API key is in no journal file, nor in any file name", async () => {
    await create(`proj/dev/j-nokey`, "j-nokey");
    for (const f of readdirSync(bench.dir)) {
      expect(f).not.toContain(TEST_KEY);
      expect(readFileSync(join(bench.dir, f), "utf8")).not.toContain(TEST_KEY);
    }
    expect(readdirSync(bench.dir)).toHaveLength(1);
  });
});

/** Swaps `file` between a valid entry, a FIFO and a symlink to a secret entry, as fast as it can. */
const SWAPPER = `
const fs = require("node:fs");
const path = require("node:path");
const [file, good, fifo, secret, root] = process.argv.slice(1);
const tmp = path.join(root, "swap.tmp");
for (let i = 0; ; i++) {
  try {
    fs.rmSync(tmp, { force: true });
    if (i % 3 === 0) fs.writeFileSync(tmp, good);
    else if (i % 3 === 1) fs.linkSync(fifo, tmp);
    else fs.symlinkSync(secret, tmp);
    fs.renameSync(tmp, file);
  } catch {}
}
`;
