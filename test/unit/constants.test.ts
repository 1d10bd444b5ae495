/**
 * The contract's vocabulary (core/fields/constants.ts) where it decides something itself: the
 * UUID pattern every id arg, import id and workspace default is checked with, and whether a
 * custom filter's pattern compiles.
 */
import { describe, expect, it } from "vitest";
import { regexCompiles, UUID_RE } from "../../src/core/fields/constants";

const ID = "3f2b8c1e-0000-4000-8000-000000000001";

describe("UUID_RE", () => {
  it("accepts a UUID in canonical form, in either case", () => {
    expect(UUID_RE.test(ID)).toBe(true);
    expect(UUID_RE.test(ID.toUpperCase())).toBe(true);
  });

  it("refuses a UUID with anything before or after it, so a path or a second id cannot ride along", () => {
    expect(UUID_RE.test(`../${ID}`)).toBe(false);
    expect(UUID_RE.test(`x${ID}`)).toBe(false);
    expect(UUID_RE.test(`${ID}/assignments`)).toBe(false);
    expect(UUID_RE.test(`${ID}0`)).toBe(false);
  });

  it("refuses text that is not a UUID", () => {
    expect(UUID_RE.test("3f2b8c1e00004000800000000000000001")).toBe(false);
    expect(UUID_RE.test("3f2b8c1e-0000-4000-8000-00000000000g")).toBe(false);
  });
});

describe("regexCompiles", () => {
  it("is true for a pattern JavaScript compiles and false, not just falsy, for one it does not", () => {
    expect(regexCompiles("a+b?")).toBe(true);
    expect(regexCompiles("(unclosed")).toBe(false);
    expect(regexCompiles("[z-a]")).toBe(false);
  });
});
