/**
 * `WorkspaceDefaultGuardrail`: a workspace's default guardrail, the one that applies to every
 * member and API key of the workspace that has no guardrail of its own, as a Pulumi resource.
 */
import * as pulumi from "@pulumi/pulumi";
import { FIELD_NAMES } from "../core/fields/fields";
import { KINDS } from "../core/kinds";
import { WORKSPACE_DEFAULT_TYPE } from "../core/type-tokens";
import { reportConfigOnce } from "./config-warnings";
// Types only: the settings' args and outputs are the Guardrail's, from the same field table.
import type { GuardrailArgs, GuardrailFieldOutputs } from "./guardrail";
import { refuseImportOption } from "./import-hint";
import { secretArgNames } from "./secret-args";
import { shimFor } from "./shim";

/**
 * Args of a `WorkspaceDefaultGuardrail`: every setting of a Guardrail, all optional, with the
 * same rules. Every property updates in place except `workspaceId`.
 */
export type WorkspaceDefaultGuardrailArgs = Omit<GuardrailArgs, "name" | "workspaceId" | "adoptId"> &
  WorkspaceDefaultPlacementArgs;

// The members' JSDoc copies WORKSPACE_DEFAULT_ARG_DOCS (core/guardrail/workspace-default-args.ts): change both (test/unit/arg-docs.test.ts holds them equal).
/** Which workspace, its name, and what a delete does: the args a Guardrail does not have. */
export interface WorkspaceDefaultPlacementArgs {
  /**
   * The workspace whose default guardrail this is: its id (UUID, any case) or its slug. State
   * records the id, so a slug that names the same workspace is no change.
   * **Another workspace replaces the resource.**
   */
  workspaceId: pulumi.Input<string>;
  /**
   * Display name, 1 to 200 characters. When omitted, the service's name stands (it names a
   * default guardrail `Workspace <id> Default`), and a name changed by hand is left alone.
   * @default the service's name
   */
  name?: GuardrailArgs["name"] | undefined;
  /**
   * What a delete (`pulumi destroy`, or removing the resource) does on the service. false: the
   * resource leaves the state and the settings stay in force (the guardrail cannot be deleted).
   * true: every setting but the name and description is first set back to no restriction.
   * @default false
   */
  resetOnDelete?: pulumi.Input<boolean> | undefined;
}

/** The outputs a WorkspaceDefaultGuardrail has for the table's fields (declaration merging with the class below). */
export interface WorkspaceDefaultGuardrail extends Omit<GuardrailFieldOutputs, "name"> {}

/**
 * A workspace's default guardrail (docs/resources/workspace-default-guardrail.md). Never
 * created or deleted: `up` PATCHes what differs from the program's args, `refresh` reads an
 * unconfigured default as present with no restriction, and a delete leaves it in force unless
 * `resetOnDelete` is set.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface only adds the table's outputs, set by Pulumi.
export class WorkspaceDefaultGuardrail extends pulumi.dynamic.Resource {
  /** The type token, so CrossGuard's `validateResourceOfType` matches (dynamic resources have none of their own). */
  static readonly __pulumiType = WORKSPACE_DEFAULT_TYPE;
  /** The guardrail's name; null until something writes it. */
  declare readonly name: pulumi.Output<string | null>;
  /** The workspace's id (a UUID), also the resource's id. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The default guardrail's id (the workspace's `default_guardrail_id`). */
  declare readonly guardrailId: pulumi.Output<string>;
  /** The workspace's name and slug, as the service last answered them. */
  declare readonly workspaceName: pulumi.Output<string | null>;
  declare readonly workspaceSlug: pulumi.Output<string | null>;
  /** Whether a delete resets every setting to no restriction. */
  declare readonly resetOnDelete: pulumi.Output<boolean>;
  /** null until something writes the guardrail. */
  declare readonly createdAt: pulumi.Output<string | null>;
  declare readonly updatedAt: pulumi.Output<string | null>;
  /** Canonical slugs as the service holds them; `allowedModels` echoes the program's own identifiers. */
  declare readonly allowedModelsCanonical: pulumi.Output<string[] | null>;
  declare readonly ignoredModelsCanonical: pulumi.Output<string[] | null>;

  constructor(name: string, args: WorkspaceDefaultGuardrailArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption("WorkspaceDefaultGuardrail", name, opts);
    reportConfigOnce();
    const outputs = [
      ...FIELD_NAMES,
      "guardrailId",
      "workspaceName",
      "workspaceSlug",
      "resetOnDelete",
      "createdAt",
      "updatedAt",
      "allowedModelsCanonical",
      "ignoredModelsCanonical",
    ];
    // `__secretArgs` names the args that hold a secret (names, never values, secret-args.ts).
    const props = {
      ...Object.fromEntries(outputs.map((k) => [k, undefined])),
      ...args,
      __secretArgs: secretArgNames({ ...args }),
    };
    super(
      shimFor(KINDS.WorkspaceDefaultGuardrail.internal),
      name,
      props,
      opts,
      "guardrails",
      "WorkspaceDefaultGuardrail",
    );
  }
}
