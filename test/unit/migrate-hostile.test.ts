/**
 * Issue 38, class 3: `guardrails-migrate-to-native` prints each resource it moves (`import:`
 * lines) and the `pulumi state delete` to run; a state's resource names and ids may hold bidi
 * and zero-width characters, which must reach the terminal escaped. A stand-in `pulumi` (a
 * script that prints the state for `stack export` and succeeds otherwise) keeps it to the tool.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrateToNative } from "../../src/export/migrate";

const G1 = "3f2b8c1e-0000-4000-8000-000000000001";
const STACK = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
/** A bidi override, a zero-width space and a bidi isolate: allowed in a URN, invisible or reordering in a terminal. */
const HIDDEN = "\u202egnp.exe\u200b\u2066";
const RAW = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A stand-in pulumi whose `stack export` prints `state`. */
function fakePulumi(state: unknown): string {
  dir = mkdtempSync(join(tmpdir(), "migrate-hostile-"));
  writeFileSync(join(dir, "state.json"), JSON.stringify(state));
  const bin = join(dir, "pulumi");
  writeFileSync(
    bin,
    `#!${process.execPath}\nif (process.argv[2] === "stack") process.stdout.write(require("fs").readFileSync(${JSON.stringify(join(dir, "state.json"))}, "utf8"));\n`,
  );
  chmodSync(bin, 0o755);
  return bin;
}

describe("guardrails-migrate-to-native: names and ids from the state reach the terminal escaped", () => {
  it("the import: and then: lines show bidi and zero-width characters as <U+…>, never raw", async () => {
    const name = `eng${HIDDEN}`;
    const state = {
      version: 3,
      deployment: {
        resources: [
          { urn: STACK, type: "pulumi:pulumi:Stack", custom: false },
          {
            urn: `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/guardrails:Guardrail::${name}`,
            type: "pulumi-nodejs:dynamic/guardrails:Guardrail",
            id: `${G1}${HIDDEN}`,
            custom: true,
            parent: STACK,
            outputs: {},
          },
        ],
      },
    };
    const lines: string[] = [];
    const code = await migrateToNative({ pulumi: fakePulumi(state), say: (l) => lines.push(l) });
    expect(code).toBe(0);
    for (const l of lines) expect(l, l).not.toMatch(RAW);
    expect(lines).toContain(
      `import: eng<U+202E>gnp.exe<U+200B><U+2066> (guardrails:index:Guardrail) id "${G1}<U+202E>gnp.exe<U+200B><U+2066>"`,
    );
    // The state delete to run stays runnable: the URN in bash's $'…' quoting, each hidden character as \\u escape.
    expect(lines.find((l) => l.startsWith("then: pulumi state delete"))).toContain(
      "$'urn:pulumi:dev::proj::pulumi-nodejs:dynamic/guardrails:Guardrail::eng\\u202egnp.exe\\u200b\\u2066'",
    );
  });
});
