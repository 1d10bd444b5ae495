/**
 * `GuardrailMemberAssignment` and `GuardrailKeyAssignment`: one resource per guardrail and
 * set. The id list becomes a map `{id: true}` before registration, so a preview names each
 * id added, removed or moved instead of shifting list indices.
 */
import * as pulumi from "@pulumi/pulumi";
import { reportConfigOnce } from "./config-warnings";
import { claimSet, registerSet } from "./claims";
import { shimFor } from "./shim";
import { KINDS } from "../core/kinds";
import { KEY_ASSIGNMENT_TYPE, MEMBER_ASSIGNMENT_TYPE } from "../core/type-tokens";
import { refuseImportOption } from "./import-hint";
import { secretArgNames } from "./secret-args";
import { KEY_KIND, MEMBER_KIND, type AssignmentSetKind } from "../core/assignments/kind";
import { assignedIds, toIdMap } from "../core/assignments/id-map";
import { DRY_RUN_KEY } from "../core/assignments/moves";

// The members' JSDoc here and in the two interfaces below copies SET_ARG_DOCS (core/args/assignment-args.ts):
// change both (test/unit/arg-docs.test.ts holds them equal).
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
  pulumi.output(ids).apply((list) => toIdMap([...list].sort()));

/**
 * What both set classes do before registering: refuse the import option, report config once,
 * claim the set against the program's other sets, and the inputs (the id list as a map, the
 * names of the secret args in the state's words).
 */
function setInputs(
  kind: AssignmentSetKind,
  name: string,
  args: AssignmentArgsBase,
  ids: pulumi.Input<pulumi.Input<string>[]>,
  opts: pulumi.CustomResourceOptions | undefined,
) {
  refuseImportOption(kind.typeName, name, opts);
  reportConfigOnce();
  claimSet(kind.noun, name, args.guardrailId, args.exclusive);
  return {
    guardrailId: args.guardrailId,
    exclusive: args.exclusive ?? false,
    [kind.stateKey]: asMap(ids),
    __secretArgs: secretArgNames({ ...args }, { [kind.argName]: kind.stateKey }),
    // For `guardrails:movesLookup: preview-only`: only the program knows it runs a preview; `check` drops it.
    [DRY_RUN_KEY]: pulumi.runtime.isDryRun(),
  };
}

/** What both set classes do once registered: the assigned ids as an output, and the set's holder claims. */
function registered(
  kind: AssignmentSetKind,
  name: string,
  args: AssignmentArgsBase,
  ids: pulumi.Input<pulumi.Input<string>[]>,
  set: pulumi.dynamic.Resource & Partial<Record<"members" | "keys", pulumi.Output<Record<string, true | string>>>>,
): pulumi.Output<string[]> {
  registerSet(kind.noun, name, args.guardrailId, ids, set);
  return set[kind.stateKey]!.apply(assignedIds);
}

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
    const inputs = setInputs(MEMBER_KIND, name, args, args.memberUserIds, opts);
    super(shimFor(KINDS.GuardrailMemberAssignment.internal), name, inputs, opts, "guardrails", MEMBER_KIND.typeName);
    this.memberUserIds = registered(MEMBER_KIND, name, args, args.memberUserIds, this);
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
    const inputs = setInputs(KEY_KIND, name, args, args.keyHashes, opts);
    super(shimFor(KINDS.GuardrailKeyAssignment.internal), name, inputs, opts, "guardrails", KEY_KIND.typeName);
    this.keyHashes = registered(KEY_KIND, name, args, args.keyHashes, this);
  }
}
