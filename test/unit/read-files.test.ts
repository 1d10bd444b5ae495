/**
 * The declarative loader's file reader on real folders with real links, FIFOs, sockets and
 * devices: only regular files inside the folder are read, everything else is a problem naming
 * the path, and nothing outside the folder is ever opened.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, posix, win32 } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { leavesFolder, readConfigFiles } from "../../src/declarative/read-files";

let base: string;
let dir: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "gr-read-files-"));
  dir = join(base, "guardrails");
  mkdirSync(dir);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const write = (name: string, text = `${name}\n`) => writeFileSync(join(dir, name), text);
/** A file of `size` bytes without writing them (sparse). */
const sized = (name: string, size: number) => {
  write(name, "");
  truncateSync(join(dir, name), size);
};
const CPUS = "/sys/devices/system/cpu/online";
const LEAVES = "a symlink that leaves its folder; not read (config files must be regular files inside guardrails/)";

describe("readConfigFiles: a folder", () => {
  it("reads its YAML and JSON files in name order, skipping the policy file and every other name", () => {
    // Written out of order: the order read must not be the order the folder lists.
    for (const name of ["d.YML", "b.yaml", "notes.txt", "a.json", "policy.yaml", "x.yaml.bak", "xyaml", "c.yml"])
      write(name);
    expect(readConfigFiles(dir)).toEqual(
      ["a.json", "b.yaml", "c.yml", "d.YML"].map((f) => ({ path: join(dir, f), text: `${f}\n` })),
    );
  });

  it("sorts by JavaScript's string order, not the system's byte order", () => {
    // U+FF01 sorts before U+1F600 by code point (UTF-8 bytes), after it by UTF-16 code unit.
    write("\uff01.yaml");
    write("\u{1f600}.yaml");
    expect(readConfigFiles(dir).map((o) => o.path)).toEqual([join(dir, "\u{1f600}.yaml"), join(dir, "\uff01.yaml")]);
  });

  it("leaves no file open behind it", () => {
    for (let i = 0; i < 20; i++) write(`${i}.yaml`);
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    expect(readConfigFiles(dir)).toHaveLength(20);
    expect(open()).toBe(before);
  });

  it("a link to a folder is read as that folder, its files named through the link", () => {
    write("eng.yaml");
    symlinkSync(dir, join(base, "link"));
    expect(readConfigFiles(join(base, "link"))).toEqual([{ path: join(base, "link", "eng.yaml"), text: "eng.yaml\n" }]);
  });

  it("a link inside the folder to a file inside it is followed", () => {
    mkdirSync(join(dir, "shared"));
    writeFileSync(join(dir, "shared", "eng.txt"), "shared\n");
    symlinkSync("shared/eng.txt", join(dir, "eng.yaml"));
    expect(readConfigFiles(dir)).toEqual([{ path: join(dir, "eng.yaml"), text: "shared\n" }]);
  });

  it("a link to a file outside, or to the folder's parent itself, is refused by name", () => {
    writeFileSync(join(base, "secret.yaml"), "key\n");
    symlinkSync("../secret.yaml", join(dir, "out.yaml"));
    symlinkSync("..", join(dir, "up.yaml"));
    expect(readConfigFiles(dir)).toEqual([
      { path: join(dir, "out.yaml"), problem: LEAVES },
      { path: join(dir, "up.yaml"), problem: LEAVES },
    ]);
  });

  it("a link to nothing is named as one; a link that cannot resolve says why", () => {
    write("a.yaml");
    symlinkSync("nowhere.yaml", join(dir, "dangling.yaml"));
    symlinkSync("a.yaml/x", join(dir, "notdir.yaml"));
    symlinkSync("loop.yaml", join(dir, "loop.yaml"));
    expect(readConfigFiles(dir)).toEqual([
      { path: join(dir, "a.yaml"), text: "a.yaml\n" },
      { path: join(dir, "dangling.yaml"), problem: "a symlink to nothing; not read" },
      { path: join(dir, "loop.yaml"), problem: "cannot read (ELOOP)" },
      { path: join(dir, "notdir.yaml"), problem: "cannot read (ENOTDIR)" },
    ]);
  });

  it("an entry gone when it is read is a problem naming it, never a crash", () => {
    // `up/..` is `deep` to the system (which lists it) and `guardrails` to path.join (which reads).
    mkdirSync(join(base, "deep", "inner"), { recursive: true });
    writeFileSync(join(base, "deep", "elsewhere.yaml"), "x\n");
    symlinkSync(join(base, "deep", "inner"), join(dir, "up"));
    expect(readConfigFiles(`${dir}/up/..`)).toEqual([
      { path: join(dir, "elsewhere.yaml"), problem: "cannot read (ENOENT)" },
    ]);
  });

  it("a folder named x.yaml and a FIFO are refused without waiting for a writer", () => {
    mkdirSync(join(dir, "folder.yaml"));
    execFileSync("mkfifo", [join(dir, "fifo.yaml")]);
    expect(readConfigFiles(dir)).toEqual([
      { path: join(dir, "fifo.yaml"), problem: "not a regular file (a FIFO); not read" },
      { path: join(dir, "folder.yaml"), problem: "not a regular file (a folder); not read" },
    ]);
  }, 20_000);

  it("a socket, which cannot be opened, is named with the system's reason", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, "sock.yaml"), resolve));
    try {
      expect(readConfigFiles(dir)).toEqual([{ path: join(dir, "sock.yaml"), problem: "cannot read (ENXIO)" }]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a file of exactly 64 MiB is read whole; one byte more is refused unread", () => {
    const limit = 64 * 1024 * 1024;
    sized("at.yaml", limit);
    sized("over.yaml", limit + 1);
    const [at, over] = readConfigFiles(dir);
    // Compared by their parts: a diff of 64 MiB texts would crash the runner rather than fail.
    expect(at?.path).toBe(join(dir, "at.yaml"));
    expect(at && "text" in at && at.text === "\0".repeat(limit)).toBe(true);
    expect(over?.path).toBe(join(dir, "over.yaml"));
    expect(over && "problem" in over && over.problem).toBe(
      "67108865 bytes, over the 67108864-byte limit of a config file; not read",
    );
  }, 20_000);
});

describe("readConfigFiles: one file", () => {
  it("reads a file named directly, whatever its extension", () => {
    write("eng.txt");
    expect(readConfigFiles(join(dir, "eng.txt"))).toEqual([{ path: join(dir, "eng.txt"), text: "eng.txt\n" }]);
  });

  it("a link named directly is read when it stays in its folder, refused when it leaves", () => {
    write("eng.yaml");
    symlinkSync("eng.yaml", join(dir, "in.yaml"));
    writeFileSync(join(base, "secret.yaml"), "key\n");
    symlinkSync("../secret.yaml", join(dir, "out.yaml"));
    expect(readConfigFiles(join(dir, "in.yaml"))).toEqual([{ path: join(dir, "in.yaml"), text: "eng.yaml\n" }]);
    expect(readConfigFiles(join(dir, "out.yaml"))).toEqual([{ path: join(dir, "out.yaml"), problem: LEAVES }]);
  });

  it("a link to nothing named directly is a problem, not a folder", () => {
    symlinkSync("nowhere.yaml", join(dir, "dangling.yaml"));
    expect(readConfigFiles(join(dir, "dangling.yaml"))).toEqual([
      { path: join(dir, "dangling.yaml"), problem: "a symlink to nothing; not read" },
    ]);
  });

  // sysfs gives every file a size of 4096 and reads it shorter: the read stops at the end.
  it.skipIf(!existsSync(CPUS))("a file that reads shorter than its size is read up to its end", () => {
    const [read] = readConfigFiles(CPUS);
    expect(read).toEqual({ path: CPUS, text: expect.stringMatching(/^[0-9][0-9,-]*\n$/) });
  });

  it("a device named directly is refused as one", () => {
    expect(readConfigFiles("/dev/null")).toEqual([
      { path: "/dev/null", problem: "not a regular file (a device); not read" },
    ]);
  });
});

describe("leavesFolder", () => {
  it("a path below the folder stays, a name that merely starts with two dots included", () => {
    expect(leavesFolder("/r/g", "/r/g/eng.yaml", posix)).toBe(false);
    expect(leavesFolder("/r/g", "/r/g/..eng.yaml", posix)).toBe(false);
    expect(leavesFolder("/r/g", "/r/g", posix)).toBe(false);
  });

  it("the parent, a path beside it, and anything above leave", () => {
    expect(leavesFolder("/r/g", "/r", posix)).toBe(true);
    expect(leavesFolder("/r/g", "/r/other.yaml", posix)).toBe(true);
    expect(leavesFolder("/r/g", "/etc/passwd", posix)).toBe(true);
  });

  it("on Windows, a target on another drive leaves, as do the parent and a path beside", () => {
    expect(leavesFolder("C:\\r\\g", "C:\\r\\g\\eng.yaml", win32)).toBe(false);
    expect(leavesFolder("C:\\r\\g", "D:\\r\\g\\eng.yaml", win32)).toBe(true);
    expect(leavesFolder("C:\\r\\g", "C:\\r\\x.yaml", win32)).toBe(true);
    expect(leavesFolder("C:\\r\\g", "C:\\r", win32)).toBe(true);
  });
});
