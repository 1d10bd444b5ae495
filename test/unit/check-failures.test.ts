/** The dynamic face's formatting of the core's check failures (src/dynamic/check-failures.ts, issue 39). */
import { describe, expect, it } from "vitest";
import { forEngine } from "../../src/dynamic/check-failures";

describe("forEngine", () => {
  it("moves the path of a failure marked secret into its reason, so the engine quotes no value", () => {
    const plain = { property: "name", reason: "is required" };
    const secret = { property: "limitUsd", reason: "must be >= 0", secret: true as const };
    const deep = { property: "budget[0]", reason: "bad", secret: true as const };
    expect(forEngine([plain, secret, deep])).toEqual([
      plain,
      { property: "", reason: "limitUsd: must be >= 0" },
      { property: "", reason: "budget[0]: bad" },
    ]);
  });

  it("with the inputs, so does a failure whose property names no input that is set", () => {
    const inputs = { name: "eng", limitUsd: null };
    const failures = [
      { property: "name", reason: "too long" },
      { property: "limitUsd", reason: "is required" },
      { property: "filters[0].action", reason: "bad" },
      { property: "", reason: "no path" },
    ];
    expect(forEngine(failures, inputs)).toEqual([
      { property: "name", reason: "too long" },
      { property: "", reason: "limitUsd: is required" },
      { property: "", reason: "filters[0].action: bad" },
      { property: "", reason: "no path" },
    ]);
    expect(forEngine(failures)).toEqual(failures);
  });
});
