/**
 * The Guardrail Policies operations of docs/guardrail-policies.openapi.json (docs/api-contract.md
 * rules 22 to 33) as a request checker: which operation a method and path are, and whether the
 * request's path, query and body validate against that operation's schemas with ajv (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1). Imports nothing from src/: the bridge between the client
 * (or the emulator) and the contract is the extracted document alone.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";

type Schema = Record<string, unknown> | null;
interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: Schema;
}
/** One operation of the extracted document. */
export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  parameters: Parameter[] | { source: string };
  requestBody: { schema: Schema } | null;
  responses: Record<string, { schema: Schema }>;
}
interface Contract {
  schemas: { $id: string };
  operations: ContractOperation[];
}

export const CONTRACT = JSON.parse(
  readFileSync(join(__dirname, "../../docs/guardrail-policies.openapi.json"), "utf8"),
) as Contract;
export const OPERATIONS = CONTRACT.operations;

const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(CONTRACT.schemas);
const compiled = new Map<Schema, ValidateFunction>();
const validator = (schema: NonNullable<Schema>): ValidateFunction => {
  const v = compiled.get(schema) ?? ajv.compile(schema);
  compiled.set(schema, v);
  return v;
};

/** A path template as a regex whose groups are its parameters (`{id}` matches one segment). */
const templateRe = (template: string) => new RegExp(`^/api/v1${template.replace(/\{[^}]+\}/g, "([^/]+)")}$`);

/** The operation a method and path (with `/api/v1`, without the query) are, and its path parameters. */
export function operationOf(
  method: string,
  path: string,
): { op: ContractOperation; params: Record<string, string> } | undefined {
  for (const op of OPERATIONS) {
    if (op.method !== method) continue;
    const m = templateRe(op.path).exec(path);
    if (!m) continue;
    const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]!);
    return { op, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return undefined;
}

/** A query value as its schema types it (the wire carries text). */
function typed(value: string, schema: Schema): unknown {
  const t = (schema as { type?: unknown } | null)?.type;
  return t === "integer" || t === "number" ? Number(value) : value;
}

/**
 * What is wrong with one request against its operation: an unknown route, a missing required
 * parameter, a parameter or body its schema refuses. Empty when it validates.
 */
export function requestProblems(method: string, url: string, body: unknown): string[] {
  const u = new URL(url, "http://x");
  const found = operationOf(method, u.pathname);
  if (!found) return [`${method} ${u.pathname}: no operation of the contract`];
  const { op, params } = found;
  const problems: string[] = [];
  const query = Object.fromEntries(u.searchParams);
  for (const p of Array.isArray(op.parameters) ? op.parameters : []) {
    const value = p.in === "path" ? params[p.name] : query[p.name];
    if (value === undefined) {
      if (p.required) problems.push(`${op.operationId}: ${p.in} parameter ${p.name} is required`);
      continue;
    }
    const v = p.schema ? validator(p.schema) : undefined;
    if (v && !v(typed(value, p.schema))) problems.push(`${op.operationId}: ${p.name} ${JSON.stringify(v.errors)}`);
  }
  const schema = op.requestBody?.schema ?? null;
  if (schema) {
    const v = validator(schema);
    if (!v(body)) problems.push(`${op.operationId}: body ${JSON.stringify(v.errors)}`);
  } else if (op.requestBody === null && body !== undefined) {
    problems.push(`${op.operationId}: the operation takes no body`);
  }
  return problems;
}

/** Whether a response validates against the operation's schema for its status (or its `success`). */
export function responseProblems(op: ContractOperation, status: number, body: unknown): string[] {
  const entry = op.responses[String(status)] ?? (status < 300 ? op.responses.success : undefined);
  if (!entry?.schema) return [];
  const v = validator(entry.schema);
  return v(body) ? [] : [`${op.operationId} ${status}: ${JSON.stringify(v.errors)}`];
}
