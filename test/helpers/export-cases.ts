/** Scratch space for the export unit tests, and the exported file they write. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ExportedFile } from "../../src/export/export";
import { tempFolder } from "./emulator";

/**
 * A temp folder for one test file (`work`, removed after its tests); `folder()` makes a fresh
 * empty `work/case-N`, and `beside(name, ending)` is a path in `work` named after the latest
 * case (`name-N` + ending), not made.
 */
export function exportScratch(prefix: string) {
  const work = tempFolder(prefix);
  let n = 0;
  return {
    work,
    folder(): string {
      const dir = join(work, `case-${++n}`);
      mkdirSync(dir);
      return dir;
    },
    beside: (name: string, ending = "") => join(work, `${name}-${n}${ending}`),
  };
}

/** An exported file as the export answers it: guardrail `id` in `${id}.yaml`, by default the least config naming it. */
export const exportedFile = (id: string, text = `guardrails:\n  ${id}:\n    name: ${id}\n`): ExportedFile => ({
  id,
  guardrailId: "3f2b8c1e-0000-4000-8000-000000000001",
  name: id,
  fileName: `${id}.yaml`,
  text,
});

/** The error `f` throws; a test that expected a refusal fails when nothing is thrown. */
export function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a throw");
}
