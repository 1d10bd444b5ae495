/**
 * The pure pieces of the assignment sets: the state map, the statuses it holds, and how a
 * failed call is told in the program's words.
 */
import { describe, expect, it } from "vitest";
import { describeFailure } from "../../src/core/assignments/apply";
import { inProgramNames, KEY_KIND, MEMBER_KIND } from "../../src/core/assignments/kind";
import * as stateMap from "../../src/core/assignments/state-map";
import {
  FOREIGN,
  isForeign,
  NOT_ASSIGNED,
  onGuardrail,
  parseOnGuardrail,
  parseUnconfirmed,
  statusName,
  STATUS_NAME_MAX,
  UNCONFIRMED,
  UNCONFIRMED_FOREIGN,
} from "../../src/core/assignments/status";
import { ConnectionError, ValidationError } from "../../src/core/client/errors";

const { assignedIn, foreignIn, setOutputs, setResourceId, statusesIn, statusMap, unconfirmedIn, withoutForeign } =
  stateMap;

const G = "3f2b8c1e-0000-4000-8000-000000000000";

describe("statusMap", () => {
  it.each<{
    name: string;
    wanted: string[];
    live: string[];
    exclusive?: boolean;
    elsewhere?: Record<string, string>;
    want: Record<string, unknown>;
  }>([
    { name: "all here", wanted: ["a", "b"], live: ["a", "b"], want: { a: true, b: true } },
    { name: "one missing", wanted: ["a", "b"], live: ["a"], want: { a: true, b: NOT_ASSIGNED } },
    {
      name: "one moved",
      wanted: ["a", "b"],
      live: ["a"],
      elsewhere: { b: "on guardrail X (12345678…)" },
      want: { a: true, b: "on guardrail X (12345678…)" },
    },
    { name: "additive ignores extras", wanted: ["a"], live: ["a", "z"], want: { a: true } },
    {
      name: "exclusive records extras",
      wanted: ["a"],
      live: ["a", "z"],
      exclusive: true,
      want: { a: true, z: FOREIGN },
    },
    {
      name: "a live id's place beats elsewhere",
      wanted: ["a"],
      live: ["a"],
      elsewhere: { a: "on guardrail Y" },
      want: { a: true },
    },
  ])("$name", ({ wanted, live, exclusive = false, elsewhere = {}, want }) => {
    expect(statusMap(wanted, new Set(live), exclusive, elsewhere)).toEqual(want);
  });

  it("assignedIn counts ids here (the program's and foreign ones in its care), never ids elsewhere", () => {
    expect([...assignedIn({ a: true, b: NOT_ASSIGNED, c: FOREIGN, d: onGuardrail(G, "X") })].sort()).toEqual([
      "a",
      "c",
    ]);
  });

  it("withoutForeign releases foreign ids only, marked ones too (issue 38)", () => {
    expect(withoutForeign({ a: true, b: NOT_ASSIGNED, c: FOREIGN })).toEqual({ a: true, b: NOT_ASSIGNED });
    expect(withoutForeign({ a: true, u: UNCONFIRMED, f: UNCONFIRMED_FOREIGN })).toEqual({ a: true, u: UNCONFIRMED });
  });

  it("a mark keeps whether its id is foreign; 0.5.0-dev's mark reads as the program's (issue 38)", () => {
    const map = { a: true, c: FOREIGN, u: UNCONFIRMED, f: UNCONFIRMED_FOREIGN } as const;
    expect([...unconfirmedIn(map)].sort()).toEqual(["f", "u"]);
    expect([...unconfirmedIn(map, true)]).toEqual(["u"]);
    expect([...foreignIn(map)].sort()).toEqual(["c", "f"]);
    expect([...assignedIn(map)].sort()).toEqual(["a", "c"]);
    expect(parseUnconfirmed(UNCONFIRMED)).toEqual({ foreign: false });
    expect(parseUnconfirmed(UNCONFIRMED_FOREIGN)).toEqual({ foreign: true });
    // Tolerant of a reworded mark; nothing else is one.
    expect(parseUnconfirmed("unconfirmed")).toEqual({ foreign: false });
    expect(parseUnconfirmed("unconfirmed (not in the program)")).toEqual({ foreign: true });
    for (const other of [true, FOREIGN, NOT_ASSIGNED, onGuardrail(G, "unconfirmed"), "unconfirmedX", undefined])
      expect(parseUnconfirmed(other)).toBeUndefined();
    expect([isForeign(FOREIGN), isForeign(UNCONFIRMED_FOREIGN), isForeign(UNCONFIRMED), isForeign(true)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("outputs sort ids and sit under the kind's state key, never the client's URL word", () => {
    const outs = setOutputs(KEY_KIND.stateKey, { guardrailId: G, exclusive: true }, { z: true, a: FOREIGN });
    expect(JSON.stringify(outs)).toBe(`{"guardrailId":"${G}","exclusive":true,"keys":{"a":"${FOREIGN}","z":true}}`);
    expect(statusesIn(outs, "keys")).toEqual({ a: FOREIGN, z: true });
    expect(statusesIn(undefined, "keys")).toEqual({});
    expect(setResourceId(G, MEMBER_KIND.stateKey)).toBe(`${G}/members`);
  });

  it("the state keys are fixed strings of their own (stored in users' state)", () => {
    expect([MEMBER_KIND.stateKey, KEY_KIND.stateKey]).toEqual(["members", "keys"]);
    const renamedClient = { ...MEMBER_KIND, wire: "members-v2" as never };
    expect(setOutputs(renamedClient.stateKey, { guardrailId: G, exclusive: false }, {})).toHaveProperty("members");
  });
});

describe("statuses", () => {
  it("name the guardrail with a short id, or fall back to the id alone", () => {
    expect(onGuardrail(G, "Engineering")).toBe("on guardrail Engineering (3f2b8c1e…)");
    expect(onGuardrail(G)).toBe(`on guardrail ${G}`);
    expect(onGuardrail(G, " \n\t ")).toBe(`on guardrail ${G}`);
  });

  it("bound and neutralise a hostile name", () => {
    expect(statusName("a\nb\u0000c\u202Ed  e")).toBe("a b c d e");
    const long = statusName("é".repeat(500));
    expect([...long]).toHaveLength(STATUS_NAME_MAX);
    expect(long.endsWith("…")).toBe(true);
  });

  it("read back both the named form and the id-only form earlier versions wrote", () => {
    expect(parseOnGuardrail("on guardrail Engineering (3f2b8c1e…)")).toEqual({ name: "Engineering", id: "3f2b8c1e" });
    expect(parseOnGuardrail("on guardrail A (b) c (3f2b8c1e…)")).toEqual({ name: "A (b) c", id: "3f2b8c1e" });
    expect(parseOnGuardrail(`on guardrail ${G}`)).toEqual({ id: G });
    expect(parseOnGuardrail(NOT_ASSIGNED)).toBeUndefined();
    expect(parseOnGuardrail(FOREIGN)).toBeUndefined();
  });
});

describe("describeFailure", () => {
  const ctx = { method: "POST", url: `https://api.example.test/api/v1/guardrails/${G}/assignments/members` };
  it("speaks the program's names and gives no URL", () => {
    const err = new ValidationError(400, "Bad Request", {
      ...ctx,
      serverMessage: "member_user_ids: at most 500 items",
    });
    const text = describeFailure(MEMBER_KIND, "assigning 600 member(s)", err);
    expect(text).toBe("assigning 600 member(s) failed (HTTP 400): memberUserIds: at most 500 items");
    expect(
      describeFailure(
        KEY_KIND,
        "unassigning 1 key(s)",
        new ValidationError(400, "Bad Request", { ...ctx, serverMessage: "key_hashes: required" }),
      ),
    ).toBe("unassigning 1 key(s) failed (HTTP 400): keyHashes: required");
  });
  it("names a failure with no answer by its kind", () => {
    const text = describeFailure(
      MEMBER_KIND,
      "assigning 1 member(s)",
      new ConnectionError("connection refused", { ...ctx, requestSent: false }),
    );
    expect(text).toBe("assigning 1 member(s) failed (ConnectionError)");
    expect(text).not.toContain("https://");
  });
});

describe("inProgramNames: the one way back to the program's name of a set", () => {
  it("the state key leading a property path, and the wire field in the service's words", () => {
    expect(inProgramNames(MEMBER_KIND, "members.user_bob")).toBe("memberUserIds.user_bob");
    expect(inProgramNames(MEMBER_KIND, "members")).toBe("memberUserIds");
    expect(inProgramNames(KEY_KIND, "keys[0]")).toBe("keyHashes[0]");
    expect(inProgramNames(MEMBER_KIND, "member_user_ids[3]: items must be non-empty strings")).toBe(
      "memberUserIds[3]: items must be non-empty strings",
    );
    expect(inProgramNames(KEY_KIND, "body.key_hashes: required")).toBe("body.keyHashes: required");
  });
  it("leaves other words alone: `members` inside a sentence, another kind's names", () => {
    expect(inProgramNames(MEMBER_KIND, "members must belong to the organization")).toBe(
      "members must belong to the organization",
    );
    expect(inProgramNames(MEMBER_KIND, "exclusive")).toBe("exclusive");
    expect(inProgramNames(KEY_KIND, "members.user_bob")).toBe("members.user_bob");
  });
  it("a path into a secret set stops at the arg: past the state key it names an id", () => {
    expect(inProgramNames(MEMBER_KIND, "members.user_secret", true)).toBe("memberUserIds");
    expect(inProgramNames(MEMBER_KIND, "guardrailId", true)).toBe("guardrailId");
  });
});
