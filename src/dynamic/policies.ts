/**
 * `BudgetPolicy`, `ModelAccessPolicy`, `ModerationPolicy`: one workspace's Guardrail Policy of
 * each kind (issue 40), with who it is assigned to, whether it is the workspace default and who
 * opts out of that, as Pulumi resources. One lifecycle serves the three (core/policies/).
 */
import * as pulumi from "@pulumi/pulumi";
import { assignedIds, toIdMap } from "../core/args/id-map";
import { ID_LISTS, type IdList } from "../core/policies/args";
import { POLICY_OUTPUT_NAMES } from "../core/policies/model";
import { POLICY_FIELDS } from "../core/fields/policy-kinds";
import type { PolicyFieldName } from "../core/fields/fields";
import { KINDS, type KindRow, PACKAGE_TYPE_PREFIX, type PolicyTypeName } from "../core/kinds";
import { reportConfigOnce } from "./config-warnings";
// Types only: a policy's settings are the Guardrail's, from the same field table.
import type { GuardrailArgs, GuardrailFieldOutputs } from "./guardrail";
import { refuseImportOption } from "./import-hint";
import { secretArgNames } from "./secret-args";
import { shimFor } from "./shim";

// The members' JSDoc copies POLICY_ARG_DOCS (core/policies/args.ts): change both.
/** The args every workspace policy has beside its settings. */
export interface PolicyPlacementArgs {
  /**
   * The workspace the policy belongs to (the API's `workspace_id`): its id (UUID, any case) or
   * its slug. State records the id, so a slug that names the same workspace is no change.
   * **Another workspace replaces the resource.**
   */
  workspaceId: pulumi.Input<string>;
  /**
   * Organization member user ids (`user_...`) the policy is assigned to directly (the API's
   * `member_ids`); a set: order and duplicates do not matter. When given (even `[]`), exactly
   * these; a member assigned out of band is an error at the next `up` until `pulumi refresh`
   * shows it. When omitted, this resource leaves the policy's members alone.
   * @default the members are not managed
   */
  memberUserIds?: pulumi.Input<pulumi.Input<string>[]> | undefined;
  /**
   * API key hashes the policy is assigned to directly (the API's `api_key_hashes`); a set.
   * Given or omitted as `memberUserIds`.
   * @default the keys are not managed
   */
  keyHashes?: pulumi.Input<pulumi.Input<string>[]> | undefined;
  /**
   * Whether the policy is its workspace's default for its kind (the API's
   * `is_workspace_default`): every member and key of the workspace without a policy of this
   * kind of its own inherits it. A workspace has one default per kind: making this one the
   * default unsets the previous one.
   * @default false
   */
  workspaceDefault?: pulumi.Input<boolean> | undefined;
  /**
   * Members that do not inherit the policy when it is the workspace default (the API's
   * `opted_out_member_ids`); a set. Given or omitted as `memberUserIds`.
   * @default the opt-outs are not managed
   */
  optedOutMemberUserIds?: pulumi.Input<pulumi.Input<string>[]> | undefined;
  /**
   * API keys that do not inherit the policy when it is the workspace default (the API's
   * `opted_out_api_key_hashes`); a set. Given or omitted as `memberUserIds`.
   * @default the opt-outs are not managed
   */
  optedOutKeyHashes?: pulumi.Input<pulumi.Input<string>[]> | undefined;
}

/** Args of a `BudgetPolicy`: `limitUsd` (with its `resetInterval`) required. */
export type BudgetPolicyArgs = PolicyPlacementArgs &
  Pick<GuardrailArgs, "name" | PolicyFieldName<"budget">> & { limitUsd: NonNullable<GuardrailArgs["limitUsd"]> };
/** Args of a `ModelAccessPolicy` (the API's model availability policy). */
export type ModelAccessPolicyArgs = PolicyPlacementArgs &
  Pick<GuardrailArgs, "name" | PolicyFieldName<"modelAvailability">>;
/** Args of a `ModerationPolicy`. */
export type ModerationPolicyArgs = PolicyPlacementArgs & Pick<GuardrailArgs, "name" | PolicyFieldName<"moderation">>;

/** Whether a program's value is a list of ids (strings), the one shape the class turns into a map. */
const isIdList = (v: unknown): v is string[] => Array.isArray(v) && v.every((id) => typeof id === "string");

/** The outputs every workspace policy has. */
abstract class WorkspacePolicy extends pulumi.dynamic.Resource {
  /** The workspace's id (a UUID). */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The policy's id (also the resource's id). */
  declare readonly policyId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  /** Members and keys assigned directly, as the service holds them (whether managed or not), sorted. */
  declare readonly memberUserIds: pulumi.Output<string[]>;
  declare readonly keyHashes: pulumi.Output<string[]>;
  declare readonly workspaceDefault: pulumi.Output<boolean>;
  /** Members and keys that do not inherit the policy as the workspace default, sorted. */
  declare readonly optedOutMemberUserIds: pulumi.Output<string[]>;
  declare readonly optedOutKeyHashes: pulumi.Output<string[]>;
  /** Members and keys with another policy of this kind assigned directly (the default does not reach them). */
  declare readonly overriddenMemberUserIds: pulumi.Output<string[]>;
  declare readonly overriddenKeyHashes: pulumi.Output<string[]>;
  /** The guardrails this policy was migrated from (the API's `legacy_guardrail_ids`). */
  declare readonly legacyGuardrailIds: pulumi.Output<string[]>;
  /** `legacy_mapping`, `account_default` or null (the API's `reference`). */
  declare readonly reference: pulumi.Output<string | null>;
  declare readonly updatedAt: pulumi.Output<string | null>;

  protected constructor(
    kind: KindRow<PolicyTypeName>,
    name: string,
    args: object,
    opts?: pulumi.CustomResourceOptions,
  ) {
    const type = kind.dynamicToken.slice(PACKAGE_TYPE_PREFIX.length) as PolicyTypeName;
    refuseImportOption(type, name, opts);
    reportConfigOnce();
    const outputs = [...POLICY_FIELDS[kind.policy.fields], ...POLICY_OUTPUT_NAMES];
    // `__secretArgs` names the args that hold a secret (names, never values, secret-args.ts).
    const given = args as Partial<Record<IdList, pulumi.Input<pulumi.Input<string>[]> | undefined>>;
    // Each id list registers as a map `{id: true}` (core/policies/id-maps.ts says why); absent stays absent.
    // Anything but a list of strings goes as it is, for check to refuse naming the field (as the
    // native face does): never a string spread into its letters, nor a null made the id "null".
    const maps = Object.fromEntries(
      ID_LISTS.filter((l) => given[l] !== undefined).map((l) => [
        l,
        pulumi.output(given[l]).apply((ids) => (isIdList(ids) ? toIdMap([...ids].sort()) : ids)),
      ]),
    );
    const props = {
      ...Object.fromEntries(outputs.map((k) => [k, undefined])),
      ...args,
      ...maps,
      // Lets a create recognise its own interrupted earlier attempt (create-journal.ts).
      __resource: `${pulumi.getProject()}/${pulumi.getStack()}/${name}`,
      __secretArgs: secretArgNames({ ...args }),
    };
    super(shimFor(kind.internal), name, props, opts, "guardrails", type);
    // The state holds maps; the program reads each list as the ids, sorted (a secret stays secret).
    const held = this as unknown as Record<IdList, pulumi.Output<Record<string, unknown> | undefined>>;
    this.memberUserIds = held.memberUserIds.apply(assignedIds);
    this.keyHashes = held.keyHashes.apply(assignedIds);
    this.optedOutMemberUserIds = held.optedOutMemberUserIds.apply(assignedIds);
    this.optedOutKeyHashes = held.optedOutKeyHashes.apply(assignedIds);
  }
}

/** The outputs of each kind's settings (declaration merging with the classes below). */
export interface BudgetPolicy extends Pick<GuardrailFieldOutputs, PolicyFieldName<"budget">> {}
/** A workspace's budget policy (docs/resources/budget-policy.md). */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface only adds the table's outputs, set by Pulumi.
export class BudgetPolicy extends WorkspacePolicy {
  /** The type token, so CrossGuard's `validateResourceOfType` matches. */
  static readonly __pulumiType = KINDS.BudgetPolicy.dynamicToken;
  constructor(name: string, args: BudgetPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    super(KINDS.BudgetPolicy, name, args, opts);
  }
}

export interface ModelAccessPolicy extends Pick<GuardrailFieldOutputs, PolicyFieldName<"modelAvailability">> {}
/** A workspace's model and provider access policy (the API's model availability policy; docs/resources/model-access-policy.md). */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface only adds the table's outputs, set by Pulumi.
export class ModelAccessPolicy extends WorkspacePolicy {
  /** The type token, so CrossGuard's `validateResourceOfType` matches. */
  static readonly __pulumiType = KINDS.ModelAccessPolicy.dynamicToken;
  constructor(name: string, args: ModelAccessPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    super(KINDS.ModelAccessPolicy, name, args, opts);
  }
}

export interface ModerationPolicy extends Pick<GuardrailFieldOutputs, PolicyFieldName<"moderation">> {}
/** A workspace's content moderation policy (docs/resources/moderation-policy.md). */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface only adds the table's outputs, set by Pulumi.
export class ModerationPolicy extends WorkspacePolicy {
  /** The type token, so CrossGuard's `validateResourceOfType` matches. */
  static readonly __pulumiType = KINDS.ModerationPolicy.dynamicToken;
  constructor(name: string, args: ModerationPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    super(KINDS.ModerationPolicy, name, args, opts);
  }
}
