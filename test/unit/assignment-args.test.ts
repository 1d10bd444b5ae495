/** The assignment sets' args as the provider receives them: an id map, a guardrail id, a mode (issue 31). */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { idProblem, isWellFormedIdMap, SET_ARGS } from "../../src/core/args/assignment-args";
import { MEMBER_KIND } from "../../src/core/assignments/kind";
import { parseSet } from "../../src/core/assignments/lifecycle";
import { issuesToFailures } from "../../src/core/args/messages";

const GUARDRAIL = "3f2b8c1e-0000-4000-8000-000000000000";

/** The failures `check` reports for `value` under one set kind's schema. */
function failures(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value, { reportInput: true });
  return parsed.success ? [] : issuesToFailures(parsed.error);
}

describe("idProblem", () => {
  it("refuses an empty or blank id", () => {
    expect(idProblem("")).toBe("ids must be non-empty strings");
    expect(idProblem(" \t")).toBe("ids must be non-empty strings");
  });

  it("takes an id of up to 500 characters, not 501", () => {
    expect(idProblem("a")).toBeUndefined();
    expect(idProblem("a".repeat(500))).toBeUndefined();
    expect(idProblem("a".repeat(501))).toBe("ids must be at most 500 characters");
  });
});

describe("SET_ARGS", () => {
  it("full parses a member set, giving its map as ids, the status strings read records included", () => {
    const parsed = SET_ARGS.members.full.parse({
      guardrailId: GUARDRAIL,
      members: { u1: true, u2: "assigned elsewhere" },
      exclusive: true,
    });
    expect(parsed).toEqual({ guardrailId: GUARDRAIL, ids: { u1: true, u2: "assigned elsewhere" }, exclusive: true });
  });

  it("full parses a key set the same way, exclusive left out or null", () => {
    expect(SET_ARGS.keys.full.parse({ guardrailId: GUARDRAIL, keys: { h1: true } })).toEqual({
      guardrailId: GUARDRAIL,
      ids: { h1: true },
    });
    expect(SET_ARGS.keys.full.parse({ guardrailId: GUARDRAIL, keys: {}, exclusive: null })).toEqual({
      guardrailId: GUARDRAIL,
      ids: {},
      exclusive: null,
    });
  });

  it("names the user's arg when the ids are not a list", () => {
    expect(failures(SET_ARGS.members.full, { guardrailId: GUARDRAIL, members: ["u1"] })).toEqual([
      { property: "members", reason: 'memberUserIds must be a list of strings (got ["u1"])' },
    ]);
    expect(failures(SET_ARGS.keys.partial, { keys: "h1" })).toEqual([
      { property: "keys", reason: 'keyHashes must be a list of strings (got "h1")' },
    ]);
  });

  it("reports each bad id, and refuses a value that is neither true nor a status", () => {
    expect(
      failures(SET_ARGS.members.full, { guardrailId: GUARDRAIL, members: { "": true, ok: true, " ": true } }),
    ).toEqual([
      { property: "members", reason: 'ids must be non-empty strings (got "")' },
      { property: "members", reason: 'ids must be non-empty strings (got " ")' },
    ]);
    expect(failures(SET_ARGS.keys.partial, { keys: { h1: false } })).toHaveLength(1);
  });

  it("reports a bad id as a standard zod custom issue, at the id map", () => {
    const parsed = SET_ARGS.keys.partial.safeParse({ keys: { "": true } });
    expect(parsed.error?.issues).toMatchObject([{ code: "custom", path: ["keys"] }]);
  });

  it("lists problems in the order a program writes the args: guardrail id, ids, mode", () => {
    expect(failures(SET_ARGS.members.full, { exclusive: "yes", members: 3, guardrailId: "g-1" })).toEqual([
      { property: "guardrailId", reason: 'must be a guardrail id (UUID) (got "g-1")' },
      { property: "members", reason: "memberUserIds must be a list of strings (got 3)" },
      { property: "exclusive", reason: 'must be true or false (got "yes")' },
    ]);
    expect(failures(SET_ARGS.keys.full, { guardrailId: 7, keys: {} })).toEqual([
      { property: "guardrailId", reason: "must be a guardrail id (UUID) (got 7)" },
    ]);
  });

  it("refuses an unknown arg, and the other kind's id map", () => {
    expect(failures(SET_ARGS.keys.full, { guardrailId: GUARDRAIL, keys: {}, members: {} })).toEqual([
      { property: "members", reason: "unknown property" },
    ]);
  });

  it("partial, what check parses, takes any subset of the args; full needs the guardrail id and the ids", () => {
    expect(SET_ARGS.members.partial.safeParse({}).success).toBe(true);
    expect(SET_ARGS.keys.partial.safeParse({ exclusive: false }).success).toBe(true);
    expect(failures(SET_ARGS.members.full, {}).map((f) => f.property)).toEqual(["guardrailId", "members"]);
    expect(failures(SET_ARGS.keys.full, { guardrailId: GUARDRAIL }).map((f) => f.property)).toEqual(["keys"]);
  });
});

// The fast path of issue 43: a well-formed map skips zod's per-entry parse, and says so exactly
// when zod would accept the map as it is; anything else goes to zod whole, for its messages.
describe("isWellFormedIdMap", () => {
  const cases: Array<[string, unknown]> = [
    ["ids mapped to true", { user_a: true, user_b: true }],
    ["a status string", { user_a: true, user_b: "not assigned" }],
    ["an empty map", {}],
    ["a blank id", { " ": true }],
    ["an id over 500 characters", { ["u".repeat(501)]: true }],
    ["false", { user_a: false }],
    ["a number", { user_a: 1 }],
    ["null", null],
    ["an array", ["user_a"]],
    ["a string", "user_a"],
    ["a Map", new Map([["user_a", true]])],
  ];
  it.each(cases)("agrees with zod on %s", (_name, members) => {
    const zodAccepts = SET_ARGS.members.full.safeParse({ guardrailId: GUARDRAIL, members }).success;
    // Never faster than right: a map zod refuses is never well formed; the Map is left to zod.
    if (!zodAccepts) expect(isWellFormedIdMap(members)).toBe(false);
    else if (!(members instanceof Map)) expect(isWellFormedIdMap(members)).toBe(true);
  });

  it("leaves parseSet's answers and messages as zod's", () => {
    const ids = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`user_${i}`, true as const]));
    const parsed = parseSet(MEMBER_KIND, { guardrailId: GUARDRAIL.toUpperCase(), members: { ...ids, user_x: "gone" } });
    expect(parsed.guardrailId).toBe(GUARDRAIL);
    expect(parsed.ids.size).toBe(1000);
    expect(parsed.exclusive).toBe(false);
    expect(() => parseSet(MEMBER_KIND, { guardrailId: GUARDRAIL, members: { ...ids, " ": true } })).toThrow(
      /ids must be non-empty strings/,
    );
    expect(() => parseSet(MEMBER_KIND, { guardrailId: "nope", members: ids })).toThrow(/guardrailId/);
  });
});
