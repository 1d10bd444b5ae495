/**
 * The shape of one entry of the guardrail field table (fields.ts) and the builders its rows are
 * made with: scalars, id sets, flags. The table itself, and the types derived from it, live in
 * fields.ts; this file names no field.
 */
import { z } from "zod";

/** Any zod schema (zod 4's `ZodTypeAny` is `ZodType<unknown>`, which a mapped type cannot satisfy). */
// biome-ignore lint/suspicious/noExplicitAny: zod 4 has no other spelling for "any schema".
export type AnySchema = z.ZodType<any, any, any>;

/**
 * The Guardrail Policy kinds a setting can belong to (docs/api-contract.md rule 31: "setting
 * names and values are the same for guardrails and policies"), in the program's names. The
 * service's `policy_type` and path segment of each are in policy-kinds.ts.
 */
export const POLICY_KINDS = ["budget", "modelAvailability", "moderation"] as const;
/** A Guardrail Policy kind. */
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** How a field is sent and compared. */
export type FieldKind =
  /** One value; compared as is. */
  | "scalar"
  /** A list compared as a set (sorted, deduplicated); sent deduplicated, in the program's order. */
  | "set"
  /** A set of model identifiers the service answers as canonical slugs (guardrail/model-lists.ts). */
  | "modelSet"
  /** A list whose order matters. */
  | "orderedList"
  /** A list of content filters compared as a set by slug. */
  | "filterSet";

/** One field. `A` is the program's value, `R` the service's (as read), `O` what outputs record. */
export interface FieldSpec<Wire extends string, Arg extends AnySchema, Read extends AnySchema, O> {
  /** The service's name. */
  wire: Wire;
  kind: FieldKind;
  /** The schema `check` holds a set value to (omission and `null` are handled around it). */
  arg: Arg;
  /** The schema a response's value is read with (absent and `null` read as null around it). */
  read: Read;
  /** Required in args and in every response (only `name`). */
  required?: boolean;
  /** What an omitted arg means, which is also what the service holds then. @default null */
  absent?: boolean | null;
  /** The policy kind whose `config` holds this field; null for `name` and `description` (rule 31). */
  policy?: PolicyKind | null;
  /** Fields sent together whenever one of them changes (the ZDR flags). */
  group?: "zdr";
  /** Another field whose value this one takes when not given (docs/api-contract.md, spec rules 2-3). */
  fallback?: "enforceZdr";
  /** Names inside the value, wire -> program (for messages in the user's names). */
  inner?: Readonly<Record<string, string>>;
  toWire(value: z.output<Arg>): unknown;
  fromWire(value: z.output<Read>): O;
  /** A recorded value in the program's form (what `read` reports where it drifted). */
  toArg(value: O): unknown;
  /** The comparison key of a set value (program's or recorded). */
  compare(value: never): unknown;
}

/** One entry, typed as given (the compiler checks it against `FieldSpec`). */
export const field = <const Wire extends string, Arg extends AnySchema, Read extends AnySchema, O = z.output<Read>>(
  spec: FieldSpec<Wire, Arg, Read, O>,
) => spec;

/** The identity conversion. */
export const same = <T>(v: T): T => v;
const uniq = (xs: readonly string[]) => [...new Set(xs)];
const sortedSet = (xs: readonly string[]) => [...new Set(xs)].sort();
const notEmpty = { error: "must not be empty: omit the property instead of passing []" };

/** One value, sent, recorded and compared as is. */
export const scalar = <const Wire extends string, Arg extends AnySchema, Read extends AnySchema>(
  wire: Wire,
  arg: Arg,
  read: Read,
) =>
  field({
    wire,
    kind: "scalar",
    arg,
    read,
    toWire: same,
    fromWire: (v: z.output<Read>) => v,
    toArg: same,
    compare: same,
  });

/** A list of identifiers: sent deduplicated in the program's order, compared as a sorted set; `[]` refused. */
export const idSet = <const Wire extends string, Item extends z.ZodType<string, string> = z.ZodString>(
  wire: Wire,
  kind: "set" | "modelSet",
  what: string,
  item: Item = z.string() as unknown as Item,
) =>
  field({
    wire,
    kind,
    arg: z
      .array(
        z
          .string({ error: `each item must be a ${what} string` })
          .min(1, { error: `each item must be a non-empty ${what}` })
          .pipe(item),
        { error: `must be a list of ${what}s` },
      )
      .min(1, notEmpty),
    read: z.array(z.string()),
    toWire: uniq,
    fromWire: (v: string[]) => v,
    toArg: same,
    compare: sortedSet,
  });

/** A boolean scalar. */
export const flag = <const Wire extends string>(wire: Wire) =>
  scalar(wire, z.boolean({ error: "must be true or false" }), z.boolean());
/** A per-vendor ZDR flag: sent with its group, and falling back to `enforceZdr`. */
export const zdrFlag = <const Wire extends string>(wire: Wire) => ({
  ...flag(wire),
  group: "zdr" as const,
  fallback: "enforceZdr" as const,
});

/** A row with the policy kind it belongs to (the table's policy column). */
export const inPolicy = <const P extends PolicyKind, Row extends object>(policy: P, row: Row) => ({ ...row, policy });
