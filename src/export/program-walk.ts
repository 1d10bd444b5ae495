/**
 * The one reading of a native stack's state behind `guardrails-export --from-state <file>
 * --language <language>` (issue 42): which resources the program holds and each one's args,
 * typed by the package schema. Each language's emitter (program-python.ts, program-typescript.ts,
 * program-go.ts, program-yaml.ts) only spells what this answers: literals, names, references.
 *
 * Held: resources of ours, managed (not pending delete, not read), guardrails before the sets
 * that name them; the name as Pulumi reads it (all after the type, `::` and all); `protect`; the
 * args the schema's `inputProperties` name (the state's inputs also hold the face's bookkeeping,
 * a set's id map, which is no arg). A value the schema does not type as it is, a number JSON
 * cannot hold, a string that is not Unicode text, or a secret the export does not show (a plain
 * `pulumi stack export`) is refused, naming the resource and arg: the program would not compile,
 * or would mean something else. A secret anywhere in an arg makes the whole arg secret.
 */
import { shown } from "../core/args/messages";
import { KINDS, NATIVE_TYPE_PREFIX } from "../core/kinds";
import { isSecretEnvelope } from "../core/markers";
import { escapeInvisible } from "../core/text/controls";
import { parseUrn } from "../core/urn";
import { UserError } from "../core/user-error";
import { refuseUnwritten } from "./program-options";
import { StateMigrationError, type StateResource, stateResources } from "./from-state";

/** The package schema as the provider serves it (src/native/schema.json): what the walk reads of it. */
export interface PackageSchema {
  resources: Record<string, { inputProperties?: Record<string, SchemaProperty> }>;
  types: Record<
    string,
    SchemaProperty & { enum?: Array<{ value: unknown }>; properties?: Record<string, SchemaProperty> }
  >;
}
interface SchemaProperty {
  type?: string;
  $ref?: string;
  items?: SchemaProperty;
}

/** A value's type, as the schema gives it; enums and objects by their type's name (`ResetInterval`). */
export type Shape =
  | { kind: "string" | "number" | "boolean" }
  | { kind: "enum"; name: string; values: readonly string[] }
  | { kind: "array"; items: Shape }
  | { kind: "object"; name: string; props: Record<string, Shape> };

/** A value of the state, checked against its shape. An object's entries keep the state's order. */
export type Value =
  | { kind: "scalar"; shape: Shape; value: string | number | boolean }
  | { kind: "list"; shape: Shape & { kind: "array" }; items: Value[] }
  | { kind: "object"; shape: Shape & { kind: "object" }; entries: Array<[string, Value]> };

/** One arg of a resource: `ref` the index (in the walk's list) of the guardrail a set's `guardrailId` names. */
export interface Arg {
  key: string;
  value: Value;
  secret: boolean;
  ref?: number;
}

/** One resource of the program. `cls` is the SDKs' class name (`Guardrail`). */
export interface ProgramResource {
  name: string;
  token: string;
  cls: string;
  args: Arg[];
  protect: boolean;
}

/** Where a secret sits that the export does not reveal. */
export class SecretNotShownError extends UserError {}

const TYPE_REF = "#/types/";

/** The shape of a schema property (a `$ref` read from `types`). */
function shapeOf(p: SchemaProperty, schema: PackageSchema): Shape {
  if (p.$ref?.startsWith(TYPE_REF)) {
    const token = p.$ref.slice(TYPE_REF.length);
    const t = schema.types[token];
    const name = token.slice(token.lastIndexOf(":") + 1);
    if (t?.enum) return { kind: "enum", name, values: t.enum.map((e) => String(e.value)) };
    if (t?.type === "object") {
      const props = Object.fromEntries(Object.entries(t.properties ?? {}).map(([k, v]) => [k, shapeOf(v, schema)]));
      return { kind: "object", name, props };
    }
  }
  if (p.type === "array" && p.items) return { kind: "array", items: shapeOf(p.items, schema) };
  if (p.type === "string" || p.type === "boolean") return { kind: p.type };
  if (p.type === "number" || p.type === "integer") return { kind: "number" };
  throw new Error(`the package schema has a property this command cannot type: ${JSON.stringify(p)}`);
}

const kindShown = (shape: Shape) => (shape.kind === "enum" || shape.kind === "object" ? shape.name : shape.kind);

/** `value` checked against `shape`; `secret.found` set when a secret sat anywhere inside. */
function decode(raw: unknown, shape: Shape, secret: { found: boolean }): Value {
  if (isSecretEnvelope(raw)) {
    const plaintext = (raw as { plaintext?: unknown }).plaintext;
    if (typeof plaintext !== "string") throw new SecretNotShownError("a secret the export does not show");
    let parsed: unknown;
    try {
      parsed = JSON.parse(plaintext);
    } catch {
      // JSON.parse's message quotes the text: the secret. Name only where it is.
      throw new StateMigrationError("a secret whose plaintext is not JSON, as `pulumi stack export` writes it");
    }
    secret.found = true;
    return decode(parsed, shape, secret);
  }
  const mismatch = () =>
    new StateMigrationError(
      `${raw === null ? "null" : Array.isArray(raw) ? "a list" : `a ${typeof raw}`} where the schema takes a ${kindShown(shape)}`,
    );
  switch (shape.kind) {
    case "array":
      if (!Array.isArray(raw)) throw mismatch();
      return { kind: "list", shape, items: raw.map((v) => decode(v, shape.items, secret)) };
    case "object": {
      if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw mismatch();
      const entries: Array<[string, Value]> = [];
      for (const [k, v] of Object.entries(raw)) {
        const inner = Object.hasOwn(shape.props, k) ? shape.props[k] : undefined;
        if (!inner) throw new StateMigrationError(`a key ${shown(k)} that ${shape.name} does not have`);
        if (v !== null && v !== undefined) entries.push([k, decode(v, inner, secret)]);
      }
      return { kind: "object", shape, entries };
    }
    case "enum":
    case "string":
      if (typeof raw !== "string") throw mismatch();
      // A lone surrogate has no UTF-8: no SDK can send it.
      if (/\p{Surrogate}/u.test(raw))
        throw new StateMigrationError("a string that is not Unicode text (a lone surrogate)");
      if (shape.kind === "enum" && !shape.values.includes(raw))
        throw new StateMigrationError(`${shown(raw)}, not one of ${shape.name}'s values (${shape.values.join(", ")})`);
      return { kind: "scalar", shape, value: raw };
    case "number":
      if (typeof raw !== "number") throw mismatch();
      // JSON's 1e999 reads as Infinity: no literal holds it, and leaving the arg out would drop it.
      if (!Number.isFinite(raw)) throw new StateMigrationError("a number out of range");
      return { kind: "scalar", shape, value: raw };
    case "boolean":
      if (typeof raw !== "boolean") throw mismatch();
      return { kind: "scalar", shape, value: raw };
  }
}

/** The class name of a native token (`guardrails:index:Guardrail`), when it is one of ours. */
function classOf(type: string): string | undefined {
  return Object.values(KINDS).some((k) => k.nativeToken === type) ? type.slice(NATIVE_TYPE_PREFIX.length) : undefined;
}

/** A set's `guardrailId` names a guardrail; a set comes after the guardrails, so it can name one. */
const isSet = (type: string) =>
  Object.values(KINDS).some((k) => k.nativeToken === type && (k as { set?: unknown }).set !== undefined);

/**
 * A resource of ours that stateResources cannot read (its URN holds control characters, or is
 * too long) would be missing from the program, and `pulumi up` of the pasted program deletes
 * what it lacks: refused, naming it.
 */
function refuseUnreadable(state: unknown): void {
  const doc = state as { deployment?: { resources?: unknown }; resources?: unknown } | null;
  const list = doc?.deployment?.resources ?? doc?.resources;
  if (!Array.isArray(list)) return;
  const read = new Set(stateResources(state));
  for (const r of list as Array<{ type?: unknown; urn?: unknown }>) {
    if (read.has(r as never) || typeof r?.type !== "string" || classOf(r.type) === undefined) continue;
    throw new StateMigrationError(
      `cannot write the program: the ${shown(r.type)} ${shown(r.urn)} has no URN this command reads (control characters, or too long)`,
    );
  }
}

/**
 * What a bare `new Guardrail(name, args)` cannot mean: a parent (the URN holds the parent's
 * type: a bare one is another resource) or an explicit provider (a bare one takes the default
 * provider's account). Either way `pulumi up` would create one and delete the other: refused.
 */
function refuseOptions(r: StateResource, name: string): void {
  const qualified = parseUrn(r.urn)?.qualifiedType;
  if (qualified !== r.type)
    throw new StateMigrationError(
      `${escapeInvisible(name)}: its URN's type is ${shown(qualified)}, under a parent (or not its type ${shown(r.type)}); this command writes no \`parent\`: write this resource into its component by hand`,
    );
  refuseUnwritten(r as StateResource & Record<string, unknown>, escapeInvisible(name));
  // Pulumi's own test (IsDefaultProvider): a default provider's name starts with `default`.
  if (typeof r.provider === "string" && !parseUrn(r.provider)?.name.startsWith("default"))
    throw new StateMigrationError(
      `${escapeInvisible(name)}: it is on the explicit provider ${shown(r.provider)}; this command writes no \`provider\`: write this resource with its provider by hand`,
    );
}

/** One arg read, its failure led by the resource's name and the arg. */
function argOf(name: string, key: string, raw: unknown, shape: Shape): Arg {
  const secret = { found: false };
  try {
    return { key, value: decode(raw, shape, secret), secret: secret.found };
  } catch (err) {
    if (err instanceof SecretNotShownError)
      throw new StateMigrationError(
        `${escapeInvisible(name)}: ${key} is secret and this export does not show it; export with \`pulumi stack export --show-secrets\``,
      );
    if (err instanceof StateMigrationError)
      throw new StateMigrationError(`${escapeInvisible(name)}: ${key} holds ${err.message}`);
    throw err;
  }
}

/** The program's resources from a stack's state, and a note per resource of ours left out. */
export function walkState(state: unknown, schema: PackageSchema): { resources: ProgramResource[]; notes: string[] } {
  const notes: string[] = [];
  refuseUnreadable(state);
  const ours = stateResources(state).filter((r) => {
    if (classOf(r.type) === undefined || r.custom === false) return false;
    if (r.delete === true || r.external === true) {
      notes.push(`left out ${escapeInvisible(r.urn)}: ${r.delete === true ? "pending delete" : "read, not managed"}`);
      return false;
    }
    return true;
  });
  ours.sort((a, b) => Number(isSet(a.type)) - Number(isSet(b.type)));
  const byId = new Map<string, number>();
  const resources = ours.map((r, index): ProgramResource => {
    const name = parseUrn(r.urn)?.name ?? r.urn.slice(r.urn.lastIndexOf("::") + 2);
    refuseOptions(r, name);
    const props = schema.resources[r.type]?.inputProperties ?? {};
    const args: Arg[] = [];
    for (const [k, v] of Object.entries((r.inputs ?? {}) as Record<string, unknown>)) {
      const p = Object.hasOwn(props, k) ? props[k] : undefined;
      if (!p || v === null || v === undefined) continue;
      const arg = argOf(name, k, v, shapeOf(p, schema));
      const ref = k === "guardrailId" && typeof v === "string" ? byId.get(v) : undefined;
      args.push(ref === undefined ? arg : { ...arg, ref });
    }
    if (typeof r.id === "string" && r.type === KINDS.Guardrail.nativeToken) byId.set(r.id, index);
    return { name, token: r.type, cls: classOf(r.type)!, args, protect: r.protect === true };
  });
  return { resources, notes };
}
