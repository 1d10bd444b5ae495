/**
 * `Guardrail`: a named policy object of the management API, as a Pulumi resource.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { BuiltinSlug, FilterAction, ScanScope } from "../core/fields/constants";
import type { FIELDS, OutputValue } from "../core/fields/fields";
import { claimAdoption, registerGuardrail } from "./claims";
import { reportConfigOnce } from "./config-warnings";
import { shimFor } from "./shim";
import { KINDS } from "../core/kinds";
import type { UnsyncedPolicy } from "../core/guardrail/policy-drift";
import { GUARDRAIL_TYPE } from "../core/type-tokens";
import { refuseImportOption } from "./import-hint";
import { secretArgNames } from "./secret-args";

// The members' JSDoc copies FILTER_ARG_DOCS.builtin (core/fields/filters.ts): change both (test/unit/arg-docs.test.ts holds them equal).
/** A builtin content filter. */
export interface BuiltinFilterArgs {
  /** Which builtin: `email`, `phone`, `ssn`, `credit-card`, `ip-address`, `person-name`, `address`, `regex-prompt-injection`. */
  slug: BuiltinSlug;
  /** `block` or `redact` for the personal-data slugs; `block`, `redact` or `flag` for `regex-prompt-injection`. */
  action: FilterAction;
  /** Only for `regex-prompt-injection`: `user_only` or `all_messages`. @default "all_messages" */
  scanScope?: ScanScope;
}

// The members' JSDoc copies FILTER_ARG_DOCS.custom (core/fields/filters.ts): change both (test/unit/arg-docs.test.ts holds them equal).
/** A custom regex content filter. */
export interface CustomFilterArgs {
  /** A regular expression that compiles. */
  pattern: string;
  /** `block`, `redact` or `flag`. */
  action: FilterAction;
  /** At most 100 characters. @default none */
  label?: string;
}

/** A program value of type `T`, where any part may be a Pulumi input (not distributed over unions). */
type DeepInput<T> = [T] extends [readonly (infer U)[]]
  ? pulumi.Input<DeepInput<U>[]>
  : [T] extends [object]
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** The settings of the field table (core/fields/fields.ts), with its docs. */
// `keyof typeof FIELDS` written out (not an alias) keeps the mapping homomorphic, so an IDE shows each entry's JSDoc.
type FieldArgs = { [K in keyof typeof FIELDS]: DeepInput<z.output<(typeof FIELDS)[K]["arg"]>> };

/** `Partial`, where `undefined` (what `config.get()` returns for an unset key) also means omitted. */
type Optional<T> = { [K in keyof T]?: T[K] | undefined };

/** Args of a `Guardrail`. Every property updates in place except `workspaceId`. */
export type GuardrailArgs = Pick<FieldArgs, "name"> & Optional<Omit<FieldArgs, "name">> & GuardrailPlacementArgs;

// The members' JSDoc copies GUARDRAIL_ARG_DOCS (core/args/guardrail-args.ts): change both (test/unit/arg-docs.test.ts holds them equal).
/** Where the guardrail lives, and which one it is: not settings, read at create. */
export interface GuardrailPlacementArgs {
  /**
   * Workspace (UUID, any case) that holds the guardrail. Omitting it and writing the default
   * workspace's id are the same value. **Moving to another workspace replaces the guardrail.**
   * @default the default workspace
   */
  workspaceId?: pulumi.Input<string> | undefined;
  /**
   * Bring an existing guardrail (its UUID) under management instead of creating one: the
   * first `up` reads it and PATCHes what differs from these args. Pulumi's `import` option
   * does not work for dynamic providers (pulumi/pulumi issues 16175, 3550). Read at create
   * only: dropping it later is no change, and changing it to another guardrail fails the
   * preview, since a resource manages one guardrail for its whole life.
   * @default create a new guardrail
   */
  adoptId?: pulumi.Input<string> | undefined;
}

/**
 * The Guardrail's outputs for the table's fields: each as the service holds it (model lists
 * echo the program's identifiers while the service holds their answer, effective ZDR values after the `enforceZdr` fallback, builtins with the label
 * the service set), null where it holds nothing.
 */
export type GuardrailFieldOutputs = { readonly [K in keyof typeof FIELDS]: pulumi.Output<OutputValue<K>> };

// Declaration merging gives the class one output per field of the table.
/** The outputs a Guardrail has for the table's fields (declaration merging with the class below). */
export interface Guardrail extends GuardrailFieldOutputs {}

/**
 * A guardrail. `pulumi preview` validates every arg before any call, a second `up` is a
 * no-op, `refresh` records drift and the next `up` restores the program's values.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface only adds the table's outputs, set by Pulumi.
export class Guardrail extends pulumi.dynamic.Resource {
  /** The type token, so CrossGuard's `validateResourceOfType(Guardrail, ...)` matches (dynamic resources have none of their own). */
  static readonly __pulumiType = GUARDRAIL_TYPE;
  /** Workspace the guardrail is in (the default one when the program did not say; null for a guardrail older than workspaces). */
  declare readonly workspaceId: pulumi.Output<string | null>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string | null>;
  /** Canonical slugs as the service holds them; `allowedModels` echoes the program's own identifiers (issue 14). */
  declare readonly allowedModelsCanonical: pulumi.Output<string[] | null>;
  declare readonly ignoredModelsCanonical: pulumi.Output<string[] | null>;
  /**
   * Each kind this guardrail sets whose policy was edited (or deleted) in Guardrail Policies, so
   * the service no longer takes it from the guardrail: recorded by `pulumi refresh`, which warns,
   * as every preview then does. Undefined when none. `pulumi up` cannot repair it: see the
   * Guardrail's docs, "When its policies were edited apart".
   */
  declare readonly unsyncedPolicies: pulumi.Output<UnsyncedPolicy[] | undefined>;
  /**
   * Per kind this guardrail sets, the id of the policy the last refresh listed as its own: a
   * policy no longer listed is then reported in `unsyncedPolicies`. Undefined before the first refresh.
   */
  declare readonly mappedPolicyIds: pulumi.Output<Partial<Record<UnsyncedPolicy["kind"], string>> | undefined>;

  constructor(name: string, args: GuardrailArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption("Guardrail", name, opts);
    reportConfigOnce();
    claimAdoption(name, args.adoptId);
    // `__resource` lets a create recognise its own interrupted earlier attempt (create-journal.ts);
    // `__secretArgs` names the args that hold a secret (names, never values, secret-args.ts), so
    // `check` never quotes them and every copy of them in state is a secret (secret-copies.ts).
    const resource = `${pulumi.getProject()}/${pulumi.getStack()}/${name}`;
    const props = {
      createdAt: undefined,
      updatedAt: undefined,
      allowedModelsCanonical: undefined,
      ignoredModelsCanonical: undefined,
      unsyncedPolicies: undefined,
      mappedPolicyIds: undefined,
      ...args,
      __resource: resource,
      __secretArgs: secretArgNames({ ...args }),
    };
    super(shimFor(KINDS.Guardrail.internal), name, props, opts, "guardrails", "Guardrail");
    registerGuardrail(this.id, name, args.workspaceId, args.adoptId);
  }
}
