/** The user's args without the bookkeeping keys Pulumi and the resource classes add (issue 31). */
import { describe, expect, it } from "vitest";
import { SECRET_ARGS } from "../../src/core/args/messages";
import { userProps } from "../../src/core/args/user-props";

describe("userProps", () => {
  it("strips __provider, __resource and the secret-args record, and keeps every arg of the user", () => {
    const props = { __provider: "p", __resource: "r", [SECRET_ARGS]: ["limitUsd"], name: "eng", limitUsd: 5 };
    expect(userProps(props)).toEqual({ name: "eng", limitUsd: 5 });
    expect(SECRET_ARGS).toBe("__secretArgs");
  });

  it("keeps a user's own double-underscore key, so check can report it", () => {
    expect(userProps({ __x: 1, __providers: 2 })).toEqual({ __x: 1, __providers: 2 });
  });

  it("returns a copy: the props bag is left as it was", () => {
    const props = { __provider: "p", name: "eng" };
    userProps(props).name = "other";
    expect(props).toEqual({ __provider: "p", name: "eng" });
  });
});
