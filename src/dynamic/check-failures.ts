/**
 * Check failures as the dynamic-provider host hands them to the engine: the dynamic face's
 * formatting of the core's plain failures (the native face's is `wireFailure` in
 * native/resources.ts). The core marks a failure under a secret arg (`markSecret`) and formats
 * nothing for a host; a wall in test/unit/import-graph.test.ts keeps `forEngine` out of the core.
 */
import { namesAnInput, type PropertyFailure } from "../core/args/messages";

/**
 * The engine prints a failure as `property <p> value {<the input at p>} has a problem`,
 * looking `p` up among the top-level inputs, where a secret is in plain text (`{&{{-7}}}`: the
 * host strips the marks). A failure marked `secret` therefore goes with no property, its path
 * leading the reason: `has a problem: limitUsd: must be >= 0`. With `inputs`, so does a failure
 * whose property names no input that is set (`namesAnInput`), which would print `value {<nil>}`.
 */
export function forEngine(
  failures: readonly PropertyFailure[],
  inputs?: Readonly<Record<string, unknown>>,
): PropertyFailure[] {
  return failures.map((f) =>
    f.secret || (inputs !== undefined && !namesAnInput(f.property, inputs))
      ? { property: "", reason: f.property ? `${f.property}: ${f.reason}` : f.reason }
      : f,
  );
}
