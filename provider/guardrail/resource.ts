/**
 * `Guardrail`: a named policy object of the management API, as a Pulumi resource.
 */
import * as pulumi from "@pulumi/pulumi";
import type { BuiltinSlug, FilterAction, ResetInterval, ScanScope } from "../args/constants";
import { registerGuardrail } from "../assignments/conflicts";
import { reportConfigOnce } from "../config-warnings";
import { shimFor } from "../shim";
import { refuseImportOption } from "../import-hint";

/** A builtin content filter. */
export interface BuiltinFilterArgs {
  /** Which builtin: `email`, `phone`, `ssn`, `credit-card`, `ip-address`, `person-name`, `address`, `regex-prompt-injection`. */
  slug: BuiltinSlug;
  /** `block` or `redact` for the personal-data slugs; `block`, `redact` or `flag` for `regex-prompt-injection`. */
  action: FilterAction;
  /** Only for `regex-prompt-injection`: `user_only` or `all_messages`. @default "all_messages" */
  scanScope?: ScanScope;
}

/** A custom regex content filter. */
export interface CustomFilterArgs {
  /** A regular expression that compiles. */
  pattern: string;
  /** `block`, `redact` or `flag`. */
  action: FilterAction;
  /** At most 100 characters. @default none */
  label?: string;
}

/** Args of a `Guardrail`. Every property updates in place except `workspaceId`. */
export interface GuardrailArgs {
  /** Display name, 1 to 200 characters. Updates in place. */
  name: pulumi.Input<string>;
  /** At most 1000 characters. @default none (null) */
  description?: pulumi.Input<string>;
  /**
   * Workspace (UUID, any case) that holds the guardrail. Omitting it and writing the default
   * workspace's id are the same value. **Moving to another workspace replaces the guardrail.**
   * @default the default workspace
   */
  workspaceId?: pulumi.Input<string>;
  /** Models allowed, by slug or canonical slug; a set of identifiers (another identifier for a listed model is one update that then settles). Omit instead of `[]`. @default no restriction (null) */
  allowedModels?: pulumi.Input<pulumi.Input<string>[]>;
  /** Provider ids allowed; compared as a set. Omit instead of `[]`. @default no restriction (null) */
  allowedProviders?: pulumi.Input<pulumi.Input<string>[]>;
  /** Models excluded from routing, by slug or canonical slug; a set. Omit instead of `[]`. @default none (null) */
  ignoredModels?: pulumi.Input<pulumi.Input<string>[]>;
  /** Provider ids excluded from routing; a set. Omit instead of `[]`. @default none (null) */
  ignoredProviders?: pulumi.Input<pulumi.Input<string>[]>;
  /** Spending limit in US dollars, finite and >= 0. @default no limit (null) */
  limitUsd?: pulumi.Input<number>;
  /** When the spending limit resets: `daily`, `weekly` or `monthly`. @default none (null) */
  resetInterval?: pulumi.Input<ResetInterval>;
  /** Zero-data-retention for the first named model vendor. @default `enforceZdr`, else null */
  enforceZdrVendorA?: pulumi.Input<boolean>;
  /** Zero-data-retention for the second named model vendor. @default `enforceZdr`, else null */
  enforceZdrVendorB?: pulumi.Input<boolean>;
  /** Zero-data-retention for the third named model vendor. @default `enforceZdr`, else null */
  enforceZdrVendorC?: pulumi.Input<boolean>;
  /** Zero-data-retention for models of any other vendor. @default `enforceZdr`, else null */
  enforceZdrOther?: pulumi.Input<boolean>;
  /**
   * @deprecated Use the four `enforceZdr*` per-vendor-group args. When set, its value fills
   * each per-vendor arg that is not given (an explicit per-vendor value wins).
   * @default null
   */
  enforceZdr?: pulumi.Input<boolean>;
  /** Builtin content filters; each slug at most once. Omit instead of `[]`. @default none (null) */
  contentFilterBuiltins?: pulumi.Input<pulumi.Input<BuiltinFilterArgs>[]>;
  /** Custom regex content filters, applied in order. Omit instead of `[]`. @default none (null) */
  contentFilters?: pulumi.Input<pulumi.Input<CustomFilterArgs>[]>;
  /**
   * Bring an existing guardrail (its UUID) under management instead of creating one: the
   * first `up` reads it and PATCHes what differs from these args. Pulumi's `import` option
   * does not work for dynamic providers (pulumi/pulumi issues 16175, 3550). Read at create
   * only: dropping it later is no change, and changing it to another guardrail fails the
   * preview, since a resource manages one guardrail for its whole life.
   * @default create a new guardrail
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * A guardrail. `pulumi preview` validates every arg before any call, a second `up` is a
 * no-op, `refresh` records drift and the next `up` restores the program's values.
 */
export class Guardrail extends pulumi.dynamic.Resource {
  /** Display name. */
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | null>;
  /** Workspace the guardrail is in (the default one when the program did not say). */
  declare readonly workspaceId: pulumi.Output<string>;
  /** Canonical slugs, as the service holds them. */
  declare readonly allowedModels: pulumi.Output<string[] | null>;
  declare readonly allowedProviders: pulumi.Output<string[] | null>;
  /** Canonical slugs, as the service holds them. */
  declare readonly ignoredModels: pulumi.Output<string[] | null>;
  declare readonly ignoredProviders: pulumi.Output<string[] | null>;
  declare readonly limitUsd: pulumi.Output<number | null>;
  declare readonly resetInterval: pulumi.Output<ResetInterval | null>;
  /** Effective ZDR values per vendor group, after the `enforceZdr` fallback. */
  declare readonly enforceZdrVendorA: pulumi.Output<boolean | null>;
  declare readonly enforceZdrVendorB: pulumi.Output<boolean | null>;
  declare readonly enforceZdrVendorC: pulumi.Output<boolean | null>;
  declare readonly enforceZdrOther: pulumi.Output<boolean | null>;
  /** @deprecated as the arg. */
  declare readonly enforceZdr: pulumi.Output<boolean | null>;
  /** Builtins with the label the service set. */
  declare readonly contentFilterBuiltins: pulumi.Output<Array<BuiltinFilterArgs & { label: string }> | null>;
  declare readonly contentFilters: pulumi.Output<CustomFilterArgs[] | null>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string | null>;

  constructor(name: string, args: GuardrailArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption("Guardrail", name, opts);
    reportConfigOnce();
    // `__resource` lets a create recognise its own interrupted earlier attempt (create-journal.ts).
    const resource = `${pulumi.getProject()}/${pulumi.getStack()}/${name}`;
    super(shimFor("guardrail"), name, { createdAt: undefined, updatedAt: undefined, ...args, __resource: resource }, opts, "guardrails", "Guardrail");
    registerGuardrail(this.id, name, args.workspaceId);
  }
}
