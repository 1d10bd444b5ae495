/** The declarative loader's problems for a folder, or [] when it loads. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DeclarativeConfigError, loadGuardrailConfigs } from "../../src/declarative/load";

/** Writes `files` (file name -> text) into `dir` first, when given. */
export function problemsIn(dir: string, files: Record<string, string> = {}): string[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  try {
    loadGuardrailConfigs(dir, { cwd: dir });
    return [];
  } catch (err) {
    if (!(err instanceof DeclarativeConfigError)) throw err;
    return err.problems;
  }
}
