/**
 * `WorkspaceWidePolicy`: a workspace-wide ("account") Guardrail Policy of one kind and the
 * workspaces it covers (issue 40), as a Pulumi resource. Its lifecycle is the core's
 * (core/policies/workspace-wide-lifecycle.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { assignedIds, toIdMap } from "../core/args/id-map";
import { COVERAGE_LISTS, type CoverageList } from "../core/policies/workspace-wide-model";
import type { PolicyFieldName } from "../core/fields/policy-kinds";
import { POLICY_FIELDS, POLICY_KINDS } from "../core/fields/policy-kinds";
import { KINDS } from "../core/kinds";
import { reportConfigOnce } from "./config-warnings";
// Types only: a policy's settings are the Guardrail's, from the same field table.
import type { GuardrailArgs, GuardrailFieldOutputs } from "./guardrail";
import { refuseImportOption } from "./import-hint";
import { secretArgNames } from "./secret-args";
import { shimFor } from "./shim";

// The members' JSDoc copies WORKSPACE_WIDE_ARG_DOCS (core/policies/workspace-wide-args.ts): change both.
/** The args of every workspace-wide policy beside its name and settings. */
export interface WorkspaceWideCoverageArgs {
  /**
   * The policy's kind: `"budget"`, `"modelAccess"` (the API's `model_availability`) or
   * `"moderation"`; it takes that kind's settings only. **A change replaces the resource.**
   */
  policyType: "budget" | "modelAccess" | "moderation";
  /**
   * The workspaces the policy covers (the API's `workspace_ids`), by id (UUID); a set: order and
   * duplicates do not matter. The complete list: an update replaces the coverage whole. Not
   * used with `allWorkspaces`.
   * @default none
   */
  workspaceIds?: pulumi.Input<pulumi.Input<string>[]> | undefined;
  /**
   * Whether the policy covers every workspace of the organization, present and future (the
   * API's `is_default`), but those in `optedOutWorkspaceIds`.
   * @default false
   */
  allWorkspaces?: pulumi.Input<boolean> | undefined;
  /**
   * Workspaces the policy does not cover even though `allWorkspaces` or `workspaceIds` names
   * them (the API's `opted_out_workspace_ids`), by id (UUID); a set.
   * @default none
   */
  optedOutWorkspaceIds?: pulumi.Input<pulumi.Input<string>[]> | undefined;
}

/**
 * The args of a `WorkspaceWidePolicy`: its `policyType` (`"budget"`, `"modelAccess"` or
 * `"moderation"`; a change replaces it) and that kind's settings only; a budget's `limitUsd`
 * (with its `resetInterval`) required.
 */
export type WorkspaceWidePolicyArgs = Pick<GuardrailArgs, "name"> &
  WorkspaceWideCoverageArgs &
  (
    | ({ policyType: "budget" } & Pick<GuardrailArgs, PolicyFieldName<"budget">> & {
          limitUsd: NonNullable<GuardrailArgs["limitUsd"]>;
        })
    | ({ policyType: "modelAccess" } & Pick<GuardrailArgs, PolicyFieldName<"modelAvailability">>)
    | ({ policyType: "moderation" } & Pick<GuardrailArgs, PolicyFieldName<"moderation">>)
  );

/** The outputs of every kind's settings (declaration merging with the class below); a kind's others are unset. */
export interface WorkspaceWidePolicy
  extends Pick<GuardrailFieldOutputs, PolicyFieldName<"budget" | "modelAvailability" | "moderation">> {}

const COVERAGE = Object.keys(COVERAGE_LISTS) as CoverageList[];
/** Whether a program's value is a list of ids (strings), the one shape the class turns into a map. */
const isIdList = (v: unknown): v is string[] => Array.isArray(v) && v.every((id) => typeof id === "string");

/** A workspace-wide policy (docs/resources/workspace-wide-policy.md). */
export class WorkspaceWidePolicy extends pulumi.dynamic.Resource {
  /** The type token, so CrossGuard's `validateResourceOfType` matches. */
  static readonly __pulumiType = KINDS.WorkspaceWidePolicy.dynamicToken;
  /** The policy's id (also the resource's id). */
  declare readonly policyId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly policyType: pulumi.Output<"budget" | "modelAccess" | "moderation">;
  /** The workspaces listed, as the service holds them, sorted. */
  declare readonly workspaceIds: pulumi.Output<string[]>;
  declare readonly allWorkspaces: pulumi.Output<boolean>;
  /** The workspaces opted out, as the service holds them, sorted. */
  declare readonly optedOutWorkspaceIds: pulumi.Output<string[]>;
  /** How many workspaces the service says the policy covers (the API's `workspace_count`). */
  declare readonly workspaceCount: pulumi.Output<number | null>;
  declare readonly updatedAt: pulumi.Output<string | null>;

  constructor(name: string, args: WorkspaceWidePolicyArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption("WorkspaceWidePolicy", name, opts);
    reportConfigOnce();
    const outputs = [
      ...POLICY_KINDS.flatMap((k) => POLICY_FIELDS[k]),
      "policyId",
      "workspaceIds",
      "allWorkspaces",
      "optedOutWorkspaceIds",
      "workspaceCount",
      "updatedAt",
    ];
    // Each coverage list registers as a map `{id: true}` (core/policies/id-maps.ts says why), as a
    // workspace policy's id lists do (policies.ts); absent stays absent, anything but a list of
    // strings goes as it is, for check to refuse naming the field.
    const given = args as Partial<Record<CoverageList, pulumi.Input<pulumi.Input<string>[]> | undefined>>;
    const maps = Object.fromEntries(
      COVERAGE.filter((l) => given[l] !== undefined).map((l) => [
        l,
        pulumi.output(given[l]).apply((ids) => (isIdList(ids) ? toIdMap([...ids].sort()) : ids)),
      ]),
    );
    // `__secretArgs` names the args that hold a secret (names, never values, secret-args.ts).
    const props = {
      ...Object.fromEntries(outputs.map((k) => [k, undefined])),
      ...args,
      ...maps,
      // Lets a create recognise its own interrupted earlier attempt (create-journal.ts).
      __resource: `${pulumi.getProject()}/${pulumi.getStack()}/${name}`,
      __secretArgs: secretArgNames({ ...args }),
    };
    super(shimFor(KINDS.WorkspaceWidePolicy.internal), name, props, opts, "guardrails", "WorkspaceWidePolicy");
    // The state holds maps; the program reads each list as the ids, sorted (a secret stays secret).
    const held = this as unknown as Record<CoverageList, pulumi.Output<Record<string, unknown> | undefined>>;
    this.workspaceIds = held.workspaceIds.apply(assignedIds);
    this.optedOutWorkspaceIds = held.optedOutWorkspaceIds.apply(assignedIds);
  }
}
