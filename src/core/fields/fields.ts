/**
 * The guardrail field table: every setting a program writes and the service holds, stated
 * once. Per field: the wire name, the zod schema `check` holds the program to (strict), the
 * one the client reads responses with (tolerant: docs/api-contract.md rules 10-12), its kind
 * (how it is sent, recorded and compared), the Guardrail Policy kind whose `config` holds it
 * (`policy`, rule 31; policy-kinds.ts derives each kind's fields from it) and, as the entry's
 * JSDoc, the docs a user reads in the IDE on `GuardrailArgs`. The args schema, the wire schemas, the outputs, diff, the
 * create and PATCH bodies, refresh and the user-facing names are all derived from it, and
 * typed over its keys, so a field cannot be half added. What an entry is, and the builders
 * the rows are made with, are in field-spec.ts: this file holds the table and the names derived
 * from it only.
 *
 * `workspaceId` (create-only; moving replaces) and `adoptId` (read at create only) are not
 * settings and are not in the table.
 */
import { z } from "zod";
import { DATA_REGIONS, DESCRIPTION_MAX, NAME_MAX, RESET_INTERVALS } from "./constants";
import {
  type AnySchema,
  type FieldSpec,
  field,
  flag,
  idSet,
  inPolicy,
  type PolicyKind,
  same,
  scalar,
  zdrFlag,
} from "./field-spec";
import * as filters from "./filters";

/** The table. Its JSDoc is what `GuardrailArgs` shows in an IDE. */
export const FIELDS = {
  /** Display name, 1 to 200 characters. Updates in place. */
  name: {
    ...scalar(
      "name",
      z
        .string({ error: "must be a string" })
        .min(1, { error: `must be 1 to ${NAME_MAX} characters` })
        .max(NAME_MAX, { error: `must be 1 to ${NAME_MAX} characters` }),
      z.string(),
    ),
    required: true as const,
    policy: null,
  },
  /** At most 1000 characters. @default none (null) */
  description: {
    ...scalar(
      "description",
      z
        .string({ error: "must be a string" })
        .max(DESCRIPTION_MAX, { error: `must be at most ${DESCRIPTION_MAX} characters` }),
      z.string(),
    ),
    policy: null,
  },
  /** Models allowed, by slug or canonical slug; a set of identifiers (another identifier for a listed model is one update that then settles). Omit instead of `[]`. @default no restriction (null) */
  allowedModels: inPolicy("modelAvailability", idSet("allowed_models", "modelSet", "model identifier")),
  /** Provider ids allowed; compared as a set. Omit instead of `[]`. @default no restriction (null) */
  allowedProviders: inPolicy("modelAvailability", idSet("allowed_providers", "set", "provider id")),
  /** Models excluded from routing, by slug or canonical slug; a set. Omit instead of `[]`. @default none (null) */
  ignoredModels: inPolicy("modelAvailability", idSet("ignored_models", "modelSet", "model identifier")),
  /** Provider ids excluded from routing; a set. Omit instead of `[]`. @default none (null) */
  ignoredProviders: inPolicy("modelAvailability", idSet("ignored_providers", "set", "provider id")),
  /** Spending limit in US dollars, finite and >= 0. @default no limit (null) */
  limitUsd: inPolicy(
    "budget",
    scalar(
      "limit_usd",
      z
        // zod 4 refuses NaN and ±Infinity as not numbers; check says "must be a finite number" (args/messages.ts).
        .number({ error: "must be a number of US dollars" })
        .refine((n) => n >= 0, { error: "must be >= 0" }),
      z.number(),
    ),
  ),
  /** When the spending limit resets: `daily`, `weekly` or `monthly`. @default none (null) */
  resetInterval: inPolicy(
    "budget",
    scalar(
      "reset_interval",
      z.enum(RESET_INTERVALS, { error: `must be one of ${RESET_INTERVALS.join(", ")}` }),
      z.string(),
    ),
  ),
  /** Zero-data-retention for the first named model vendor. @default `enforceZdr`, else null */
  enforceZdrVendorA: inPolicy("modelAvailability", zdrFlag("enforce_zdr_vendor_a")),
  /** Zero-data-retention for the second named model vendor. @default `enforceZdr`, else null */
  enforceZdrVendorB: inPolicy("modelAvailability", zdrFlag("enforce_zdr_vendor_b")),
  /** Zero-data-retention for the third named model vendor. @default `enforceZdr`, else null */
  enforceZdrVendorC: inPolicy("modelAvailability", zdrFlag("enforce_zdr_vendor_c")),
  /** Zero-data-retention for models of any other vendor. @default `enforceZdr`, else null */
  enforceZdrOther: inPolicy("modelAvailability", zdrFlag("enforce_zdr_other")),
  /**
   * @deprecated Use the four `enforceZdr*` per-vendor-group args. When set, its value fills
   * each per-vendor arg that is not given (an explicit per-vendor value wins).
   * @default null
   */
  enforceZdr: inPolicy("modelAvailability", { ...flag("enforce_zdr"), group: "zdr" as const }),
  /** Builtin content filters; each slug at most once. Omit instead of `[]`. @default none (null) */
  contentFilterBuiltins: inPolicy(
    "moderation",
    field({
      wire: "content_filter_builtins",
      kind: "filterSet",
      arg: filters.builtinListArgs,
      read: z.array(filters.wireBuiltinFilter),
      inner: { scan_scope: "scanScope" },
      toWire: filters.builtinToWire,
      fromWire: filters.builtinFromWire,
      toArg: filters.builtinToArg,
      compare: filters.builtinsKey,
    }),
  ),
  /** Custom regex content filters, applied in order. Omit instead of `[]`. @default none (null) */
  contentFilters: inPolicy(
    "moderation",
    field({
      wire: "content_filters",
      kind: "orderedList",
      arg: filters.customListArgs,
      read: z.array(filters.wireCustomFilter),
      toWire: filters.customToWire,
      fromWire: filters.customFromWire,
      toArg: same,
      compare: filters.filtersKey,
    }),
  ),
  /** Whether providers may train on prompts sent to free models. @default the service's setting (null) */
  enableFreeModelTraining: inPolicy("modelAvailability", flag("enable_free_model_training")),
  /** Whether providers may train on prompts sent to paid models. @default the service's setting (null) */
  enablePaidModelTraining: inPolicy("modelAvailability", flag("enable_paid_model_training")),
  /** Whether prompts sent to free models may be published. @default the service's setting (null) */
  enableFreeModelPublication: inPolicy("modelAvailability", flag("enable_free_model_publication")),
  /** Regions requests may be processed in: `global`, `europe`, `us`; compared as a set. Omit instead of `[]`. @default no restriction (null) */
  allowedDataRegions: inPolicy(
    "modelAvailability",
    idSet(
      "allowed_data_regions",
      "set",
      "data region",
      z.enum(DATA_REGIONS, { error: `must be one of ${DATA_REGIONS.join(", ")}` }),
    ),
  ),
  /** Whether bring-your-own-key spend counts toward `limitUsd`. Omitted means false, the service's default. @default false */
  includeByokInBudgets: inPolicy("budget", { ...flag("include_byok_in_budgets"), absent: false }),
};

type Fields = typeof FIELDS;
/** The program's name of each field. */
export type FieldName = keyof Fields;
/** Every field's program name, in table order. */
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

/** Every entry is a FieldSpec (the compiler checks the table's shape here). */
const _table: {
  [K in FieldName]: FieldSpec<
    Fields[K]["wire"],
    Fields[K]["arg"],
    Fields[K]["read"],
    ReturnType<Fields[K]["fromWire"]>
  > & { policy: PolicyKind | null };
} = FIELDS;
void _table;

type IsRequired<K extends FieldName> = Fields[K] extends { required: true } ? true : false;
/** A field's value as the program gives it (after `check`). */
export type ArgValue<K extends FieldName> = z.output<Fields[K]["arg"]>;
/** A field's value as outputs record it: null when the service holds none. */
export type OutputValue<K extends FieldName> =
  | ReturnType<Fields[K]["fromWire"]>
  | (IsRequired<K> extends true ? never : null);
/** A field's value as the service answers it. */
export type WireValue<K extends FieldName> = z.output<Fields[K]["read"]> | (IsRequired<K> extends true ? never : null);
/** The fields of one policy kind (the table's policy column), as a type. */
export type PolicyFieldName<P extends PolicyKind> = {
  [K in FieldName]: Fields[K]["policy"] extends P ? K : never;
}[FieldName];
/** The service's name of a field. */
export type WireName<K extends FieldName> = Fields[K]["wire"];

/** Looks up an entry with the loose type the derivations need. */
export const spec = (k: FieldName): FieldSpec<string, AnySchema, AnySchema, unknown> =>
  FIELDS[k] as unknown as FieldSpec<string, AnySchema, AnySchema, unknown>;
