/**
 * Conflicts between resources of one program, found while it runs (assignments/conflicts.ts),
 * under Pulumi's mocks: no engine, no service. One guardrail managed by two resources fails the
 * program before the second registers; a member claimed in one workspace written in two cases
 * warns. Each test runs in its own stack, since the registry is per stack.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Guardrail } from "../../src/dynamic/guardrail";
import { GuardrailKeyAssignment, GuardrailMemberAssignment } from "../../src/dynamic/assignments";
import { UserError } from "../../src/core/user-error";

const X = "22222222-0000-4000-8000-00000000000a";
let stack = 0;
let errors: string[];
let warnings: string[];

beforeEach(async () => {
  stack += 1;
  // A configured program: a missing key or URL would (rightly) fail the first constructor.
  vi.stubEnv("GUARDRAILS_API_KEY", "test-key");
  vi.stubEnv("GUARDRAILS_BASE_URL", "http://127.0.0.1:9/api/v1");
  await pulumi.runtime.setMocks(
    { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
    "conflicts",
    `s${stack}`,
    true,
  );
  errors = [];
  warnings = [];
  vi.spyOn(console, "error").mockImplementation((m: unknown) => void errors.push(String(m)));
  vi.spyOn(console, "warn").mockImplementation((m: unknown) => void warnings.push(String(m)));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** Lets the applies of outputs known at construction run. */
const settle = () => new Promise((r) => setTimeout(r, 50));
const thrown = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    // One line, no stack trace: the package's one base for failures meant for a person.
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  return "(nothing thrown)";
};

describe("one guardrail, two managers: refused before the second registers (issue 24, finding 18)", () => {
  it("a copy-pasted adoptId, in another case, names both Guardrails", () => {
    new Guardrail("sales", { name: "Sales", adoptId: X });
    expect(thrown(() => new Guardrail("sales-copy", { name: "Sales", adoptId: X.toUpperCase() }))).toBe(
      `Guardrail "sales-copy": adoptId ${X.toUpperCase()} is already adopted by Guardrail "sales" of this program; a guardrail is managed by one resource, so each up would set it to the other's args. Remove one of them, or adopt another guardrail.`,
    );
    // Another guardrail is fine.
    new Guardrail("other", { name: "Other", adoptId: "33333333-0000-4000-8000-000000000003" });
  });

  it("adoptId: other.id (the guardrail another resource creates) is refused", () => {
    const a = new Guardrail("a", { name: "A" });
    expect(thrown(() => new Guardrail("b", { name: "B", adoptId: a.id }))).toContain(
      'Guardrail "b": adoptId is the id of Guardrail "a" of this program',
    );
  });

  it("an adoptId known only as an output fails the run once known, without quoting it", async () => {
    new Guardrail("sales", { name: "Sales", adoptId: X });
    new Guardrail("later", { name: "Later", adoptId: pulumi.output(X) });
    await settle();
    expect(errors).toEqual([
      expect.stringContaining('Guardrail "later": adoptId is already adopted by Guardrail "sales" of this program'),
    ]);
  });

  it("an exclusive set beside another set of its kind on one guardrail is refused, naming both", () => {
    const g = new Guardrail("eng", { name: "Eng" });
    new GuardrailMemberAssignment("eng-members", { guardrailId: g.id, memberUserIds: ["user_a"], exclusive: true });
    expect(
      thrown(() => new GuardrailMemberAssignment("eng-more", { guardrailId: g.id, memberUserIds: ["user_b"] })),
    ).toBe(
      'GuardrailMemberAssignment "eng-more" and exclusive GuardrailMemberAssignment "eng-members" both manage the members of guardrail "eng"; an exclusive set owns the guardrail\'s whole member set, so each up would remove the other\'s members. Merge them into one set, or make both additive (exclusive: false).',
    );
    // Keys are another set; two additive sets share a guardrail.
    new GuardrailKeyAssignment("eng-keys", { guardrailId: g.id, keyHashes: ["k1"], exclusive: true });
    const h = new Guardrail("ops", { name: "Ops" });
    new GuardrailMemberAssignment("ops-a", { guardrailId: h.id, memberUserIds: ["user_c"] });
    new GuardrailMemberAssignment("ops-b", { guardrailId: h.id, memberUserIds: ["user_d"] });
    expect(
      thrown(
        () => new GuardrailMemberAssignment("ops-x", { guardrailId: h.id, memberUserIds: ["user_e"], exclusive: true }),
      ),
    ).toContain(
      'exclusive GuardrailMemberAssignment "ops-x" and GuardrailMemberAssignment "ops-a" both manage the members of guardrail "ops"',
    );
  });

  it("a set naming the adopted guardrail's id as a string is the same guardrail", () => {
    const g = new Guardrail("sales", { name: "Sales", adoptId: X });
    new GuardrailKeyAssignment("sales-keys", { guardrailId: g.id, keyHashes: ["k1"], exclusive: true });
    expect(
      thrown(() => new GuardrailKeyAssignment("by-id", { guardrailId: X.toUpperCase(), keyHashes: ["k2"] })),
    ).toContain(
      `GuardrailKeyAssignment "by-id" and exclusive GuardrailKeyAssignment "sales-keys" both manage the keys of guardrail ${X.toUpperCase()}`,
    );
  });

  it("an exclusive flag known only as an output fails the run once known", async () => {
    new GuardrailMemberAssignment("a", { guardrailId: X, memberUserIds: ["user_a"] });
    new GuardrailMemberAssignment("b", { guardrailId: X, memberUserIds: ["user_b"], exclusive: pulumi.output(true) });
    await settle();
    expect(errors).toEqual([
      expect.stringContaining(
        'exclusive GuardrailMemberAssignment "b" and GuardrailMemberAssignment "a" both manage the members of guardrail',
      ),
    ]);
  });
});

describe("workspace ids compare in any case (issue 24, finding 13)", () => {
  it("one member under two guardrails whose workspaceId differs only in case warns, naming both sets", async () => {
    const g1 = new Guardrail("g1", { name: "One", workspaceId: "0000000a-0000-4000-8000-00000000000b" });
    const g2 = new Guardrail("g2", { name: "Two", workspaceId: "0000000A-0000-4000-8000-00000000000B" });
    new GuardrailMemberAssignment("one-members", { guardrailId: g1.id, memberUserIds: ["user_bob"] });
    new GuardrailMemberAssignment("two-members", { guardrailId: g2.id, memberUserIds: ["user_bob"] });
    await settle();
    expect(warnings.filter((w) => w.includes("user_bob"))).toEqual([
      expect.stringContaining(
        'member "user_bob" is assigned to two guardrails of the same workspace: "g1" (GuardrailMemberAssignment "one-members") and "g2" (GuardrailMemberAssignment "two-members")',
      ),
    ]);
  });
});
