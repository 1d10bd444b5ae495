/** The declarative loader's problems for a folder, or [] when it loads. */
import { DeclarativeConfigError, loadGuardrailConfigs } from "../../src/declarative/load";

export function problemsIn(dir: string): string[] {
  try {
    loadGuardrailConfigs(dir, { cwd: dir });
    return [];
  } catch (err) {
    if (!(err instanceof DeclarativeConfigError)) throw err;
    return err.problems;
  }
}
