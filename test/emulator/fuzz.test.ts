/**
 * Fuzzing with fast-check: the emulator's request handling and the provider's `check`.
 * Nothing crashes, bad input never gets a 500, and every error names the field.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkGuardrailArgs } from "../../src/core/guardrail/check";
import { memberAssignment } from "../../src/dynamic/internal";
import { TEST_KEY, withEmulator } from "../helpers/emulator";
import { MODEL_LISTS } from "../helpers/wire-fields";

let emu: Awaited<ReturnType<typeof withEmulator>>;
let guardrailId: string;
beforeAll(async () => {
  emu = await withEmulator();
  guardrailId = (await emu.client().createGuardrail({ name: "fuzz target" })).id;
});
afterAll(() => emu.close());

const FIELDS = [
  "name",
  "description",
  "workspace_id",
  ...MODEL_LISTS,
  "limit_usd",
  "reset_interval",
  "enforce_zdr_vendor_a",
  "enforce_zdr",
  "content_filter_builtins",
  "content_filters",
];
const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.integer())),
  fc.array(fc.record({ slug: fc.string(), action: fc.string(), pattern: fc.string() }, { requiredKeys: [] })),
  fc.object(),
);
const body = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string()), anyValue, { maxKeys: 6 });

async function send(method: string, path: string, payload: string | undefined) {
  const res = await fetch(`${emu.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_KEY}`, "content-type": "application/json" },
    ...(payload === undefined ? {} : { body: payload }),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

describe("fuzz: emulator request handling", () => {
  it("random bodies to create, PATCH and bulk calls never get a 500, and a 400 names a field", async () => {
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom(
          "POST /guardrails",
          "PATCH /guardrails/ID",
          "POST /guardrails/ID/assignments/members",
          "POST /guardrails/ID/assignments/keys/remove",
        ),
        async (b, route) => {
          const [method, path] = route.replace("ID", guardrailId).split(" ") as [string, string];
          const res = await send(method, path, JSON.stringify(b));
          expect(res.status).toBeLessThan(500);
          expect(res.body).not.toBeNull();
          if (res.status === 400) {
            expect(res.body.error.code).toBe(400);
            expect(res.body.error.message).toMatch(/^[a-z_[\]0-9.]+: |unknown field|request body/);
          }
        },
      ),
      { numRuns: 300, seed: 20261122 },
    );
  });

  it("malformed JSON, odd paths and query strings never get a 500", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.string(),
        fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT"),
        async (raw, segment, method) => {
          const path = `/guardrails/${encodeURIComponent(segment)}?offset=${encodeURIComponent(raw)}&limit=${encodeURIComponent(segment)}`;
          const res = await send(method, path, method === "GET" || method === "DELETE" ? undefined : raw);
          expect(res.status).toBeLessThan(500);
          expect(res.body?.error?.code ?? 200).toBe(res.status >= 400 ? res.status : 200);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe("fuzz: the provider's check", () => {
  it("Guardrail check never throws, and every failure names a property", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.oneof(
            fc.constantFrom(
              "name",
              "limitUsd",
              "allowedModels",
              "contentFilterBuiltins",
              "contentFilters",
              "workspaceId",
              "enforceZdr",
              "resetInterval",
            ),
            fc.string(),
          ),
          anyValue,
        ),
        (args) => {
          const { failures } = checkGuardrailArgs(args);
          for (const f of failures) {
            expect(f.property.length).toBeGreaterThan(0);
            expect(f.reason.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 2000, seed: 42 },
    );
  });

  it("assignment check never throws, and every failure names a property", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.oneof(fc.constantFrom("guardrailId", "members", "exclusive"), fc.string()), anyValue),
        async (args) => {
          const { failures = [] } = await memberAssignment.check({}, args);
          // A failure under an input that is not set, or deeper than a top-level input, goes with
          // no property and its path leading the reason (the engine would print `value {<nil>}`).
          for (const f of failures) {
            if (f.property.length > 0) expect(args).toHaveProperty([f.property]);
            else expect(f.reason).toMatch(/^.+: \S/);
          }
        },
      ),
      { numRuns: 1000, seed: 43 },
    );
  });
});
