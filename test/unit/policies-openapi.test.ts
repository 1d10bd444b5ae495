/**
 * Issue 40: the Guardrail Policies schemas extracted from the service's documentation
 * (docs/guardrail-policies.openapi.json, docs/api-contract.md rules 22 to 33) are checked with
 * ajv, not by hand: every schema compiles under JSON Schema 2020-12 (the dialect of OpenAPI 3.1),
 * every documented example validates against its operation's schema, and the same example with a
 * wrong type in one field fails there, so this check can fail.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";

type Schema = Record<string, unknown> | null;
interface Example {
  value: unknown;
  source: string;
  mutate: string;
}
interface Operation {
  operationId: string;
  method: string;
  path: string;
  page: string;
  parameters: { name: string; in: string; required: boolean; schema: Schema }[] | { source: string };
  requestBody: { schema: Schema } | null;
  responses: Record<string, { schema: Schema }>;
  examples?: Record<string, Example>;
}
interface Contract {
  schemas: { $id: string; $defs: Record<string, unknown> };
  operations: Operation[];
}

const contract = JSON.parse(
  readFileSync(join(__dirname, "../../docs/guardrail-policies.openapi.json"), "utf8"),
) as Contract;

function newAjv() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addSchema(contract.schemas);
  return ajv;
}

/** The schema an example is for: "request" is the request body, anything else a response status. */
function schemaOf(op: Operation, key: string): Schema {
  return key === "request" ? (op.requestBody?.schema ?? null) : (op.responses[key]?.schema ?? null);
}

/** A value of another JSON type than `value`'s, so that a typed field rejects it. */
function wrongType(value: unknown): unknown {
  if (typeof value === "string") return 12345;
  if (typeof value === "number") return "12345";
  return "not-the-documented-type";
}

/** `value` with the field at JSON pointer `pointer` replaced by a value of a wrong type. */
function mutated(value: unknown, pointer: string): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const keys = pointer.split("/").slice(1);
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = keys.at(-1)!;
  expect(last in node, `${pointer} names a field of the example`).toBe(true);
  node[last] = wrongType(node[last]);
  return copy;
}

const examples = contract.operations.flatMap((op) =>
  Object.entries(op.examples ?? {}).map(([key, example]) => ({ op, key, example })),
);

describe("the extracted Guardrail Policies contract (docs/api-contract.md rules 22 to 33)", () => {
  it("names each operation once, with a method, a path and the page it came from", () => {
    const seen = new Set<string>();
    for (const op of contract.operations) {
      expect(seen.has(op.operationId), op.operationId).toBe(false);
      seen.add(op.operationId);
      expect(["GET", "POST", "PUT", "PATCH", "DELETE"]).toContain(op.method);
      expect(op.path).toMatch(/^\/guardrails\/policies\//);
      expect(op.page).toMatch(/^https:\/\/openrouter\.ai\/docs\//);
    }
    expect(seen.size).toBe(23);
  });

  it("compiles every named schema under JSON Schema 2020-12", () => {
    const ajv = newAjv();
    const names = Object.keys(contract.schemas.$defs);
    expect(names.length).toBeGreaterThan(30);
    for (const name of names)
      expect(ajv.getSchema(`${contract.schemas.$id}#/$defs/${name}`), name).toBeTypeOf("function");
  });

  it("compiles every schema an operation points to: parameters, request body and responses", () => {
    const ajv = newAjv();
    let compiled = 0;
    for (const op of contract.operations) {
      const schemas = [
        ...(Array.isArray(op.parameters) ? op.parameters.map((p) => p.schema) : []),
        op.requestBody?.schema ?? null,
        ...Object.values(op.responses).map((r) => r.schema),
      ];
      for (const schema of schemas) {
        if (schema === null) continue;
        expect(() => ajv.compile(schema), op.operationId).not.toThrow();
        compiled += 1;
      }
    }
    expect(compiled).toBeGreaterThan(50);
  });

  it.each(examples.map((e) => [`${e.op.operationId} ${e.key}`, e] as const))(
    "%s: the documented example validates, and fails with a wrong type in one field",
    (_name, { op, key, example }) => {
      const schema = schemaOf(op, key);
      expect(schema, `${op.operationId} has a schema for ${key}`).not.toBeNull();
      const validate = newAjv().compile(schema!);
      expect(validate(example.value), JSON.stringify(validate.errors)).toBe(true);
      expect(validate(mutated(example.value, example.mutate))).toBe(false);
      expect(validate.errors?.some((e) => e.instancePath === example.mutate && e.keyword === "type")).toBe(true);
    },
  );

  it("holds an example for most operations (the pages give none for the rest)", () => {
    expect(new Set(examples.map((e) => e.op.operationId)).size).toBeGreaterThanOrEqual(18);
  });
});
