/**
 * `writeFiles` on real folders with real links: it writes only plain names directly into a real
 * folder, refuses every link and every non-file before writing anything, overwrites only with
 * `force` (by rename, so a hard link's other name keeps its bytes), and turns the system's
 * refusals into one line for a person.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ExportConflictError, ExportTargetError, writeFiles } from "../../src/export/write";
import { thrown } from "../helpers/export-cases";

let base: string;
let dir: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "gr-export-write-"));
  dir = join(base, "guardrails");
  mkdirSync(dir);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const file = (name: string, text = `${name}\n`) => ({ fileName: name, text });
const LINK =
  "is a symbolic link; guardrails-export never writes through a link: remove it, or export into another folder";

describe("writeFiles: what it writes", () => {
  it("creates each file in the folder and answers the paths written", () => {
    expect(writeFiles(dir, [file("a.yaml"), file("b.yaml")])).toEqual([join(dir, "a.yaml"), join(dir, "b.yaml")]);
    expect(readFileSync(join(dir, "a.yaml"), "utf8")).toBe("a.yaml\n");
    expect(readFileSync(join(dir, "b.yaml"), "utf8")).toBe("b.yaml\n");
  });

  it("creates a missing folder, parents included", () => {
    const nested = join(base, "new", "guardrails");
    writeFiles(nested, [file("a.yaml")]);
    expect(readFileSync(join(nested, "a.yaml"), "utf8")).toBe("a.yaml\n");
  });

  it("without force an existing file is a conflict naming each, and nothing is written", () => {
    writeFileSync(join(dir, "a.yaml"), "# edited\n");
    writeFileSync(join(dir, "b.yaml"), "# edited\n");
    const err = thrown(() => writeFiles(dir, [file("a.yaml"), file("b.yaml"), file("c.yaml")]));
    expect(err).toBeInstanceOf(ExportConflictError);
    expect((err as ExportConflictError).existing).toEqual([join(dir, "a.yaml"), join(dir, "b.yaml")]);
    expect(err.message).toBe(
      `2 file(s) already exist: ${join(dir, "a.yaml")}, ${join(dir, "b.yaml")}; pass --force (force: true) to overwrite them`,
    );
    expect(readFileSync(join(dir, "a.yaml"), "utf8")).toBe("# edited\n");
    expect(readdirSync(dir).sort()).toEqual(["a.yaml", "b.yaml"]);
  });

  it("with force an existing file gets the new bytes by rename: a hard link's other name keeps the old", () => {
    const outside = join(base, "hard.txt");
    writeFileSync(outside, "precious\n");
    linkSync(outside, join(dir, "a.yaml"));
    writeFiles(dir, [file("a.yaml"), file("b.yaml")], { force: true });
    expect(readFileSync(join(dir, "a.yaml"), "utf8")).toBe("a.yaml\n");
    expect(readFileSync(outside, "utf8")).toBe("precious\n");
    // No temporary file is left behind.
    expect(readdirSync(dir).sort()).toEqual(["a.yaml", "b.yaml"]);
  });

  it("the second of two files of one name is a conflict, never an overwrite of the first", () => {
    const err = thrown(() => writeFiles(dir, [file("a.yaml", "first\n"), file("a.yaml", "second\n")]));
    expect(err).toBeInstanceOf(ExportConflictError);
    expect((err as ExportConflictError).existing).toEqual([join(dir, "a.yaml")]);
    expect(readFileSync(join(dir, "a.yaml"), "utf8")).toBe("first\n");
  });
});

describe("writeFiles: what it refuses before writing anything", () => {
  it("links in the folder, dangling or not, each named, even with force", () => {
    const outside = join(base, "victim.txt");
    writeFileSync(outside, "precious\n");
    symlinkSync(outside, join(dir, "a.yaml"));
    symlinkSync(join(base, "planted.yaml"), join(dir, "b.yaml"));
    const err = thrown(() => writeFiles(dir, [file("a.yaml"), file("b.yaml"), file("c.yaml")], { force: true }));
    expect(err).toBeInstanceOf(ExportTargetError);
    expect((err as ExportTargetError).problems).toEqual([
      `${join(dir, "a.yaml")} ${LINK}`,
      `${join(dir, "b.yaml")} ${LINK}`,
    ]);
    // One problem a line, so a person reads each one named.
    expect(err.message).toBe(`${join(dir, "a.yaml")} ${LINK}\n${join(dir, "b.yaml")} ${LINK}`);
    expect(readFileSync(outside, "utf8")).toBe("precious\n");
    expect(() => lstatSync(join(base, "planted.yaml"))).toThrow(/ENOENT/);
    expect(readdirSync(dir).sort()).toEqual(["a.yaml", "b.yaml"]);
  });

  it("a folder or a FIFO where a file should be, even with force", () => {
    mkdirSync(join(dir, "a.yaml"));
    execFileSync("mkfifo", [join(dir, "b.yaml")]);
    const err = thrown(() => writeFiles(dir, [file("a.yaml"), file("b.yaml")], { force: true }));
    expect((err as ExportTargetError).problems).toEqual(
      ["a.yaml", "b.yaml"].map(
        (f) => `${join(dir, f)} is not a regular file; guardrails-export replaces only files it could have written`,
      ),
    );
  }, 20_000);

  it("a name that is not a plain file name: empty, a separator, `.`, `..` or an invisible character", () => {
    const names = ["", "../x.yaml", "sub/x.yaml", "a\\b.yaml", ".", "..", "\u202eevil.yaml", "a\u200bb.yaml"];
    const err = thrown(() => writeFiles(dir, [...names.map((n) => file(n)), file("ok.yaml")]));
    expect(err).toBeInstanceOf(ExportTargetError);
    expect((err as ExportTargetError).problems).toEqual([
      '"" is not a plain file name; an export writes only directly into its folder',
      '"../x.yaml" is not a plain file name; an export writes only directly into its folder',
      '"sub/x.yaml" is not a plain file name; an export writes only directly into its folder',
      '"a\\\\b.yaml" is not a plain file name; an export writes only directly into its folder',
      '"." is not a plain file name; an export writes only directly into its folder',
      '".." is not a plain file name; an export writes only directly into its folder',
      '"\\u202eevil.yaml" is not a plain file name; an export writes only directly into its folder',
      '"a\\u200bb.yaml" is not a plain file name; an export writes only directly into its folder',
    ]);
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(base)).toEqual(["guardrails"]);
  });

  it("a name made only of dots, or holding one, is still plain", () => {
    writeFiles(dir, [file("..."), file(".hidden.yaml")]);
    expect(readdirSync(dir).sort()).toEqual(["...", ".hidden.yaml"]);
  });

  it("the folder itself a link, or not a folder", () => {
    symlinkSync(dir, join(base, "link"));
    expect(thrown(() => writeFiles(join(base, "link"), [file("a.yaml")])).message).toBe(
      `${join(base, "link")} is a symbolic link; guardrails-export writes only into a real folder: pass the folder it points to, or another one`,
    );
    writeFileSync(join(base, "plain"), "x\n");
    const err = thrown(() => writeFiles(join(base, "plain"), [file("a.yaml")]));
    expect(err).toBeInstanceOf(ExportTargetError);
    expect(err.message).toBe(`${join(base, "plain")} is not a folder`);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("writeFiles: the system refusing", () => {
  it("is one line for a person, the system's error kept as the cause", () => {
    writeFileSync(join(base, "plain"), "x\n");
    const target = join(base, "plain", "guardrails");
    const err = thrown(() => writeFiles(target, [file("a.yaml")]));
    expect(err).toBeInstanceOf(ExportTargetError);
    expect(err.message).toBe(`cannot write into ${target}: ENOTDIR: not a directory, lstat '${target}'`);
    expect((err.cause as NodeJS.ErrnoException).code).toBe("ENOTDIR");
  });

  // procfs refuses to create any file: the open fails where nothing exists, a link included.
  it.skipIf(!existsSync("/proc/1/status"))("a folder that refuses new files: the open's refusal, one line", () => {
    const err = thrown(() => writeFiles("/proc/1", [file("a.yaml")]));
    expect(err).toBeInstanceOf(ExportTargetError);
    expect(err.message).toMatch(/^cannot write into \/proc\/1: E[A-Z]+: .*, open '\/proc\/1\/a\.yaml'$/);
    expect((err.cause as NodeJS.ErrnoException).syscall).toBe("open");
  });

  it.skipIf(!existsSync("/proc/1/status"))("with force, the temporary file refused: that refusal, one line", () => {
    const err = thrown(() => writeFiles("/proc/1", [file("status")], { force: true }));
    expect(err).toBeInstanceOf(ExportTargetError);
    expect(err.message).toMatch(
      /^cannot write into \/proc\/1: E[A-Z]+: .*, open '\/proc\/1\/\.guardrails-export-[0-9a-f]{12}\.tmp'$/,
    );
    expect((err.cause as NodeJS.ErrnoException).syscall).toBe("open");
  });

  it("anything else is a bug and passes through unchanged; a replace that fails leaves no temporary file", () => {
    const bad = { fileName: "a.yaml", text: 42 as unknown as string };
    const err = thrown(() => writeFiles(dir, [bad]));
    expect(err).not.toBeInstanceOf(ExportTargetError);
    expect((err as NodeJS.ErrnoException).code).toBe("ERR_INVALID_ARG_TYPE");
    // The file was created before its text failed: it stays, as the one the user must fix.
    const again = thrown(() => writeFiles(dir, [bad], { force: true }));
    expect((again as NodeJS.ErrnoException).code).toBe("ERR_INVALID_ARG_TYPE");
    expect(readdirSync(dir)).toEqual(["a.yaml"]);
  });

  it("leaves no file open behind it", () => {
    writeFileSync(join(dir, "a0.yaml"), "old\n");
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    writeFiles(
      dir,
      Array.from({ length: 10 }, (_, i) => file(`a${i}.yaml`)),
      { force: true },
    );
    expect(open()).toBe(before);
  });
});
