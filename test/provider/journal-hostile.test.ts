/**
 * The create journal treats the server and the disk as hostile: an id from the server is
 * data, never a path; a folder others can write (or another user owns) is refused; an entry
 * is validated and adopted only when the guardrail it names matches the create (name,
 * workspace, settings); files are written without following links and read only when they
 * are regular files. Real files in a temp folder; the emulator, or a hostile server for the id.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { JournalHandle } from "../../src/core/resource/create-journal";
import { orphanPoll } from "../../src/core/resource/orphan";
import { configureProvider, W2 } from "../helpers/emulator";
import { hostileServer, json } from "../helpers/hostile-server";
import { useJournalBench } from "../helpers/journal";

const bench = useJournalBench("guardrails-journal-hostile-");
const { emu, keyOf, create, posts, plant } = bench;

describe("an id from the server is data, never a path", () => {
  it("a create answered with id /../../pwned is refused (not a UUID, issue 38) and writes nothing outside the folder", async () => {
    const id = "/../../pwned";
    const server = await hostileServer((req, res) => {
      if (req.method === "POST")
        return json(res, 201, {
          data: { id, name: "trav", created_at: new Date().toISOString(), limit_usd: 4, reset_interval: "daily" },
        });
      json(res, 404, { error: { code: 404, message: "no" } });
    });
    try {
      configureProvider(server.url);
      await expect(create("proj/dev/trav", "trav")).rejects.toThrow(
        'data.id: must be a UUID, as the service assigns its ids (got "/../../pwned")',
      );
    } finally {
      await server.close();
    }
    JournalHandle.forget(id, bench.dir);
    expect(readdirSync(bench.root)).toEqual(["journal"]);
  });
});

describe("the journal folder must be private", () => {
  it.each([
    ["world-writable", 0o777, "writable by others"],
    ["group-writable", 0o770, "writable by its group"],
  ])(
    "a %s folder is refused before any call, naming the folder and the fix; its entry is not adopted",
    async (_what, mode, says) => {
      const landed = await emu.client().createGuardrail({ name: "j-open", limit_usd: 4, reset_interval: "daily" });
      plant("proj/dev/j-open", "j-open", { id: landed.id });
      chmodSync(bench.dir, mode);
      await emu.clearLog();
      const err = await create("proj/dev/j-open", "j-open").then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toContain(`create journal folder ${bench.dir} is ${says}`);
      expect(err?.message).toContain(`chmod 700 ${bench.dir}`);
      expect(err?.message).toContain("GUARDRAILS_JOURNAL_DIR");
      expect((await emu.log()).total).toBe(0);
    },
  );

  it.skipIf(process.getuid?.() !== 0)("a folder owned by another user is refused", async () => {
    mkdirSync(bench.dir, { mode: 0o700 });
    chownSync(bench.dir, 4242, 4242);
    await emu.clearLog();
    const err = await create("proj/dev/j-owner", "j-owner").then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain(`create journal folder ${bench.dir} is owned by uid 4242, not by this user (uid 0)`);
    expect((await emu.log()).total).toBe(0);
  });

  it("a missing folder is made private", async () => {
    await create("proj/dev/j-fresh", "j-fresh");
    expect(statSync(bench.dir).mode & 0o777).toBe(0o700);
  });
});

describe("entries are validated, and adopted only when the guardrail matches the create", () => {
  it('engine: "oops" is ignored, not a TypeError', async () => {
    const landed = await emu.client().createGuardrail({ name: "j-oops", limit_usd: 4, reset_interval: "daily" });
    plant("proj/dev/j-oops", "j-oops", { id: landed.id, engine: "oops" });
    await emu.clearLog();
    const res = await create("proj/dev/j-oops", "j-oops");
    expect(res.id).not.toBe(landed.id);
    expect(await posts()).toBe(1);
  });

  it.each([0, -1, 1])("pid: %s is not a process to wait for: the create does not wait", async (pid) => {
    const waits = vi.spyOn(orphanPoll, "sleep").mockResolvedValue(undefined);
    plant(`proj/dev/j-pid${pid}`, `j-pid${pid}`, { pid });
    await create(`proj/dev/j-pid${pid}`, `j-pid${pid}`);
    expect(waits).not.toHaveBeenCalled();
  });

  it("an entry naming a same-named guardrail of another workspace is not adopted", async () => {
    const elsewhere = await emu
      .client()
      .createGuardrail({ name: "j-ws", limit_usd: 4, reset_interval: "daily", workspace_id: W2 });
    plant("proj/dev/j-ws", "j-ws", { id: elsewhere.id });
    await emu.clearLog();
    const res = await create("proj/dev/j-ws", "j-ws");
    expect(res.id).not.toBe(elsewhere.id);
    expect(res.outs?.workspaceId).not.toBe(W2);
    expect(await posts()).toBe(1);
  });

  it("an entry naming a same-named guardrail with other settings is not adopted", async () => {
    const other = await emu.client().createGuardrail({ name: "j-set", limit_usd: 5, reset_interval: "daily" });
    plant("proj/dev/j-set", "j-set", { id: other.id });
    await emu.clearLog();
    const res = await create("proj/dev/j-set", "j-set");
    expect(res.id).not.toBe(other.id);
    expect(await posts()).toBe(1);
  });

  it("an entry naming a guardrail created before the entry's run started is not adopted", async () => {
    const older = await emu.client().createGuardrail({ name: "j-old", limit_usd: 4, reset_interval: "daily" });
    plant("proj/dev/j-old", "j-old", { id: older.id, started: Date.now() + 60_000 });
    await emu.clearLog();
    const res = await create("proj/dev/j-old", "j-old");
    expect(res.id).not.toBe(older.id);
  });
});

describe("files: no link is followed, only regular files are read", () => {
  it("a symlink planted at the temp name is not written through", async () => {
    mkdirSync(bench.dir, { mode: 0o700 });
    const target = join(bench.root, "target");
    const prefix = keyOf("proj/dev/j-tmp", "j-tmp").slice(0, 16);
    for (let n = 1; n <= 300; n++) symlinkSync(target, join(bench.dir, `${prefix}-${process.pid}-${n}.json.tmp`));
    await create("proj/dev/j-tmp", "j-tmp");
    expect(existsSync(target)).toBe(false);
  });

  it("an entry that is a symlink is not read: the guardrail it names is not adopted", async () => {
    const landed = await emu.client().createGuardrail({ name: "j-link", limit_usd: 4, reset_interval: "daily" });
    const outside = plant("proj/dev/j-link", "j-link", { id: landed.id }, { file: "x.json", folder: bench.root });
    symlinkSync(outside, join(bench.dir, `${keyOf("proj/dev/j-link", "j-link").slice(0, 16)}-1-1.json`));
    const res = await create("proj/dev/j-link", "j-link");
    expect(res.id).not.toBe(landed.id);
  });

  it("a FIFO with the entry prefix is never opened, so it cannot block the create", async () => {
    mkdirSync(bench.dir, { mode: 0o700 });
    const fifo = join(bench.dir, `${keyOf("proj/dev/j-fifo", "j-fifo").slice(0, 16)}-1-1.json`);
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    // A writer that unblocks whoever opens the FIFO to read, and leaves a mark when it had to.
    const mark = join(bench.root, "opened");
    const opener = spawn(process.execPath, ["-e", WRITER, fifo, mark], { stdio: "ignore" });
    try {
      await create("proj/dev/j-fifo", "j-fifo");
    } finally {
      opener.kill();
    }
    expect(existsSync(mark)).toBe(false);
  });
});

/** Polls the FIFO for a reader (a non-blocking open for writing succeeds only when one waits), then feeds it and marks. */
const WRITER = `
const fs = require("node:fs");
const [fifo, mark] = process.argv.slice(1);
setInterval(() => {
  try {
    const fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    fs.writeFileSync(mark, "opened");
    fs.writeSync(fd, "{}");
    fs.closeSync(fd);
  } catch {}
}, 5);
`;

describe("no copy of a description on disk", () => {
  it("an entry holds the create's digest, never its body", async () => {
    const res = await create("proj/dev/j-desc", "j-desc", { description: "s3cret-plan-b" });
    const files = readdirSync(bench.dir).filter((f) => f.endsWith(".json"));
    expect(files).toHaveLength(1);
    const text = readFileSync(join(bench.dir, files[0]!), "utf8");
    expect(text).toContain(res.id);
    expect(text).not.toContain("s3cret");
  });
});
