/**
 * `GuardrailMemberAssignment` and `GuardrailKeyAssignment`: one resource per guardrail and
 * set. The id list becomes a map `{id: true}` before registration, so a preview names each
 * id added, removed or moved instead of shifting list indices.
 */
import * as pulumi from "@pulumi/pulumi";
import { reportConfigOnce } from "./config-warnings";
import { claimSet, registerSet } from "./claims";
import { shimFor } from "./shim";
import { KEY_ASSIGNMENT_TYPE, MEMBER_ASSIGNMENT_TYPE } from "../core/type-tokens";
import { refuseImportOption } from "./import-hint";
import { secretArgNames } from "./secret-args";

interface AssignmentArgsBase {
  /** The guardrail (its id, e.g. `guardrail.id`). **Changing it replaces the resource**; the members end up on the new guardrail either way. */
  guardrailId: pulumi.Input<string>;
  /**
   * `false` (additive): manage exactly the listed ids and never touch others.
   * `true` (exclusive): own the guardrail's whole set; ids assigned out of band are removed.
   * Changing it updates in place.
   * @default false
   */
  exclusive?: pulumi.Input<boolean>;
}

/** Args of a `GuardrailMemberAssignment`. */
export interface GuardrailMemberAssignmentArgs extends AssignmentArgsBase {
  /** Organization member user ids (`user_...`); a set: order and duplicates do not matter. */
  memberUserIds: pulumi.Input<pulumi.Input<string>[]>;
}

/** Args of a `GuardrailKeyAssignment`. */
export interface GuardrailKeyAssignmentArgs extends AssignmentArgsBase {
  /** API key hashes; a set: order and duplicates do not matter. */
  keyHashes: pulumi.Input<pulumi.Input<string>[]>;
}

const asMap = (ids: pulumi.Input<pulumi.Input<string>[]>) =>
  pulumi.output(ids).apply((list) => Object.fromEntries([...new Set(list)].sort().map((id) => [id, true as const])));

const assignedIds = (map: pulumi.Output<Record<string, true | string>>) =>
  map.apply((m) =>
    Object.keys(m ?? {})
      .filter((id) => m[id] === true)
      .sort(),
  );

/**
 * Members of one guardrail. A member holds at most one guardrail per workspace: assigning
 * it here moves it off any other guardrail of this guardrail's workspace.
 */
export class GuardrailMemberAssignment extends pulumi.dynamic.Resource {
  /** The type token, for CrossGuard's `validateResourceOfType`. */
  static readonly __pulumiType = MEMBER_ASSIGNMENT_TYPE;
  declare readonly guardrailId: pulumi.Output<string>;
  declare readonly exclusive: pulumi.Output<boolean>;
  /** Each listed member's status: `true` when assigned here, else where it went. */
  declare readonly members: pulumi.Output<Record<string, true | string>>;
  /** The listed members that are assigned here, sorted. */
  readonly memberUserIds: pulumi.Output<string[]>;

  constructor(name: string, args: GuardrailMemberAssignmentArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption("GuardrailMemberAssignment", name, opts);
    reportConfigOnce();
    claimSet("member", name, args.guardrailId, args.exclusive);
    super(
      shimFor("memberAssignment"),
      name,
      {
        guardrailId: args.guardrailId,
        exclusive: args.exclusive ?? false,
        members: asMap(args.memberUserIds),
        __secretArgs: secretArgNames({ ...args }, { memberUserIds: "members" }),
      },
      opts,
      "guardrails",
      "GuardrailMemberAssignment",
    );
    this.memberUserIds = assignedIds(this.members);
    registerSet("member", name, args.guardrailId, args.memberUserIds, this);
  }
}

/** API keys of one guardrail. A key holds at most one guardrail at all. */
export class GuardrailKeyAssignment extends pulumi.dynamic.Resource {
  /** The type token, for CrossGuard's `validateResourceOfType`. */
  static readonly __pulumiType = KEY_ASSIGNMENT_TYPE;
  declare readonly guardrailId: pulumi.Output<string>;
  declare readonly exclusive: pulumi.Output<boolean>;
  /** Each listed key's status: `true` when assigned here, else where it went. */
  declare readonly keys: pulumi.Output<Record<string, true | string>>;
  /** The listed keys that are assigned here, sorted. */
  readonly keyHashes: pulumi.Output<string[]>;

  constructor(name: string, args: GuardrailKeyAssignmentArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImportOption("GuardrailKeyAssignment", name, opts);
    reportConfigOnce();
    claimSet("key", name, args.guardrailId, args.exclusive);
    super(
      shimFor("keyAssignment"),
      name,
      {
        guardrailId: args.guardrailId,
        exclusive: args.exclusive ?? false,
        keys: asMap(args.keyHashes),
        __secretArgs: secretArgNames({ ...args }, { keyHashes: "keys" }),
      },
      opts,
      "guardrails",
      "GuardrailKeyAssignment",
    );
    this.keyHashes = assignedIds(this.keys);
    registerSet("key", name, args.guardrailId, args.keyHashes, this);
  }
}
