/** Pulumi's markers (core/markers.ts): the sentinels of values not known during preview (issue 31), the secret envelope. */
import { describe, expect, it } from "vitest";
import {
  asSecret,
  containsUnknown,
  isAnyUnknown,
  isSecretEnvelope,
  isSigned,
  isUnknown,
  UNKNOWN,
} from "../../src/core/markers";

// The Pulumi wire protocol's sentinels, written out: a typo in the module must fail here.
const STRING = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const OTHER_KINDS = [
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
];

describe("unknown values", () => {
  it("UNKNOWN is the engine's string sentinel, and only it is `isUnknown`", () => {
    expect(UNKNOWN).toBe(STRING);
    expect(isUnknown(STRING)).toBe(true);
    for (const s of OTHER_KINDS) expect(isUnknown(s)).toBe(false);
    expect(isUnknown("")).toBe(false);
  });

  it("isAnyUnknown knows the sentinel of every kind, and nothing else", () => {
    for (const s of [STRING, ...OTHER_KINDS]) expect(isAnyUnknown(s)).toBe(true);
    for (const v of ["", "04da6b54", `${STRING} `, undefined, null, 0, [STRING], { v: STRING }])
      expect(isAnyUnknown(v)).toBe(false);
  });

  it("containsUnknown finds the string sentinel at any depth of arrays and objects", () => {
    expect(containsUnknown(UNKNOWN)).toBe(true);
    expect(containsUnknown(["a", UNKNOWN])).toBe(true);
    expect(containsUnknown({ a: 1, b: { c: [{ d: UNKNOWN }] } })).toBe(true);
    expect(containsUnknown([[], [[UNKNOWN]]])).toBe(true);
  });

  it("containsUnknown is false for known values, however nested", () => {
    for (const v of [undefined, null, 0, "", "eng", true, [], {}, ["a", ["b"]], { a: { b: [1, null] } }])
      expect(containsUnknown(v)).toBe(false);
    // Another kind's sentinel is what a policy sees; the provider receives only the string one.
    expect(containsUnknown({ a: OTHER_KINDS[0] })).toBe(false);
  });
});

describe("the secret envelope", () => {
  // Written out, as the protocol spells them: a typo (or the two swapped) in the module must fail here.
  const SIG = "4dabf18193072939515e22adb298388d";
  const SECRET = "1b47061264138c4ac30d75fd1eb44270";
  const ASSET = "c44067f5952c0a294b673a41bacd8c17";

  it("asSecret wraps a value once; isSecretEnvelope knows the secret's signature only", () => {
    expect(asSecret(-7)).toEqual({ [SIG]: SECRET, value: -7 });
    expect(asSecret(asSecret("k"))).toEqual({ [SIG]: SECRET, value: "k" });
    expect(isSecretEnvelope({ [SIG]: SECRET, ciphertext: "v1:abc" })).toBe(true);
    for (const v of [{ [SIG]: ASSET, path: "a" }, { [SECRET]: SIG }, { value: 1 }, SECRET, null, undefined])
      expect(isSecretEnvelope(v)).toBe(false);
  });

  it("isSigned knows any signed value (what a reader of preview or export JSON leaves unquoted)", () => {
    expect(isSigned({ [SIG]: SECRET, ciphertext: "v1:abc" })).toBe(true);
    expect(isSigned({ [SIG]: ASSET, path: "a" })).toBe(true);
    for (const v of [{ [SECRET]: SIG }, { value: 1 }, SIG, null, undefined, [SIG]]) expect(isSigned(v)).toBe(false);
  });
});
