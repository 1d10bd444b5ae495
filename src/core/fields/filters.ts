/**
 * Content filters both ways: the args a program writes (closed enums, the spec's rules) and
 * the records the service answers (open: a new slug, action or scan scope is read and kept,
 * docs/api-contract.md rule 11).
 */
import { z } from "zod";
import type { ArgDoc } from "../arg-doc";
import {
  BUILTIN_SLUGS,
  FILTER_ACTIONS,
  FILTER_LABEL_MAX,
  PROMPT_INJECTION_SLUG,
  SCAN_SCOPES,
  regexCompiles,
} from "./constants";
import { builtinViolations } from "./filter-rules";

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(", ")}` });
const notEmpty = { error: "must not be empty: omit the property instead of passing []" };

/** A builtin content filter as a program writes it. */
export const builtinFilterArgs = z.strictObject({
  slug: z.enum(BUILTIN_SLUGS, oneOf(BUILTIN_SLUGS)),
  action: z.enum(FILTER_ACTIONS, oneOf(FILTER_ACTIONS)),
  scanScope: z.enum(SCAN_SCOPES, oneOf(SCAN_SCOPES)).optional(),
});

/** A custom regex content filter as a program writes it. */
export const customFilterArgs = z.strictObject({
  pattern: z
    .string({ error: "must be a regular expression string" })
    .min(1, { error: "must be a non-empty regular expression" })
    .refine(regexCompiles, { error: "must be a regular expression that compiles" }),
  action: z.enum(FILTER_ACTIONS, oneOf(FILTER_ACTIONS)),
  label: z
    .string({ error: "must be a string" })
    .max(FILTER_LABEL_MAX, { error: `must be at most ${FILTER_LABEL_MAX} characters` })
    .optional(),
});

/**
 * The docs of a filter's properties (the native schema's filter types). A new property does not
 * compile until it is described here. src/dynamic/guardrail.ts repeats them as JSDoc for the
 * IDE (test/unit/arg-docs.test.ts holds the copies equal).
 */
export const FILTER_ARG_DOCS: {
  builtin: Record<keyof typeof builtinFilterArgs.shape, ArgDoc>;
  custom: Record<keyof typeof customFilterArgs.shape, ArgDoc>;
} = {
  builtin: {
    slug: {
      text: "Which builtin: `email`, `phone`, `ssn`, `credit-card`, `ip-address`, `person-name`, `address`, `regex-prompt-injection`.",
    },
    action: {
      text: "`block` or `redact` for the personal-data slugs; `block`, `redact` or `flag` for `regex-prompt-injection`.",
    },
    scanScope: {
      text: "Only for `regex-prompt-injection`: `user_only` or `all_messages`.",
      fallback: '"all_messages"',
    },
  },
  custom: {
    pattern: { text: "A regular expression that compiles." },
    action: { text: "`block`, `redact` or `flag`." },
    label: { text: "At most 100 characters.", fallback: "none" },
  },
};

/** The `contentFilterBuiltins` arg: each slug once, `flag` and `scanScope` only where the spec allows. */
export const builtinListArgs = z
  .array(builtinFilterArgs, { error: "must be a list of {slug, action, scanScope?}" })
  .min(1, notEmpty)
  .superRefine((items, ctx) => {
    for (const v of builtinViolations(items))
      ctx.addIssue({ code: "custom", path: [v.index, v.field], message: v.message, input: items[v.index]![v.field] });
  });

/** The `contentFilters` arg: applied in order. */
export const customListArgs = z
  .array(customFilterArgs, { error: "must be a list of {pattern, action, label?}" })
  .min(1, notEmpty);

/** A builtin as the service answers it; unknown values are kept as they are. */
export const wireBuiltinFilter = z.object({
  slug: z.string(),
  action: z.string(),
  scan_scope: z.string().nullish(),
  label: z.string().nullish(),
});
/** A builtin content filter record. */
export type WireBuiltinFilter = z.infer<typeof wireBuiltinFilter>;

/** A custom filter as the service answers it. */
export const wireCustomFilter = z.object({
  pattern: z.string(),
  action: z.string(),
  label: z.string().nullish(),
});
/** A custom content filter record. */
export type WireCustomFilter = z.infer<typeof wireCustomFilter>;

/** A recorded builtin: the program's names, the label the service set. */
export interface BuiltinFilterOutput {
  slug: string;
  action: string;
  scanScope?: string;
  label?: string;
}
/** A recorded custom filter. */
export interface CustomFilterOutput {
  pattern: string;
  action: string;
  label?: string;
}

type BuiltinLike = { slug: string; action: string; scanScope?: string | undefined };
type CustomLike = { pattern: string; action: string; label?: string | null | undefined };

/** Builtins compare as a set by slug; the prompt-injection scope defaults to `all_messages`. */
export const builtinsKey = (xs: readonly BuiltinLike[]) =>
  [...xs]
    .map((b) => ({
      slug: b.slug,
      action: b.action,
      scanScope: b.slug === PROMPT_INJECTION_SLUG ? (b.scanScope ?? "all_messages") : (b.scanScope ?? null),
    }))
    .sort((a, b) => a.slug.localeCompare(b.slug));

/** Custom filters compare in order; a missing label is no label. */
export const filtersKey = (xs: readonly CustomLike[]) =>
  xs.map((f) => ({ pattern: f.pattern, action: f.action, label: f.label ?? null }));

/** Builtins as a request carries them (no label: the service sets it). */
export const builtinToWire = (xs: readonly BuiltinLike[]) =>
  xs.map((b) => ({ slug: b.slug, action: b.action, ...(b.scanScope ? { scan_scope: b.scanScope } : {}) }));
/** Builtins as outputs record them. */
export const builtinFromWire = (xs: readonly WireBuiltinFilter[]): BuiltinFilterOutput[] =>
  xs.map((b) => ({
    slug: b.slug,
    action: b.action,
    ...(b.scan_scope ? { scanScope: b.scan_scope } : {}),
    ...(b.label ? { label: b.label } : {}),
  }));
/** Labels are the service's: the program never writes one. */
export const builtinToArg = (xs: readonly BuiltinFilterOutput[]) => xs.map(({ label: _label, ...b }) => b);

/** Custom filters as a request carries them. */
export const customToWire = (xs: readonly CustomLike[]) =>
  xs.map((f) => ({
    pattern: f.pattern,
    action: f.action,
    ...(f.label !== undefined && f.label !== null ? { label: f.label } : {}),
  }));
/** Custom filters as outputs record them. */
export const customFromWire = (xs: readonly WireCustomFilter[]): CustomFilterOutput[] =>
  xs.map((f) => ({ pattern: f.pattern, action: f.action, ...(f.label != null ? { label: f.label } : {}) }));
