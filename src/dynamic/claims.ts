/**
 * What each resource of one program claims (a guardrail to manage, ids to hold), checked
 * while the program runs so `pulumi preview` names a conflict before any call:
 * - one guardrail managed by two resources: two Guardrails adopting it, or an exclusive set
 *   beside another set of the same kind on one guardrail. Each `up` would undo the other, so
 *   the program fails, naming both resources (issue 24, finding 18);
 * - an id the holder rule allows once (core/holders.ts) listed by two sets on different
 *   guardrails: it would move back and forth on every `up --refresh`, so preview warns.
 * The declarative loader rejects the same things in YAML; this covers programs that construct
 * the resources. Workspace and guardrail ids are UUIDs, compared in any case.
 */
import * as pulumi from "@pulumi/pulumi";
import { HolderTable, type Holder, type HolderNoun } from "../core/holders";
import { SetClaims, setHeldTwiceMessage, type ClaimTarget } from "../core/assignments/claims";
import { UserError } from "../core/user-error";

/** What the program said about one Guardrail, by the identity of its `id` output. */
interface GuardrailFacts {
  name: string;
  workspaceId: pulumi.Output<string | undefined>;
  /** The adopted guardrail, lower case, when the program wrote its id as a string. */
  adoptId?: string;
}

const guardrails = new WeakMap<object, GuardrailFacts>();

/** Called by the Guardrail's constructor, after it registered. */
export function registerGuardrail(
  id: pulumi.Output<string>,
  name: string,
  workspaceId: pulumi.Input<string> | undefined,
  adoptId?: pulumi.Input<string>,
): void {
  guardrails.set(id, {
    name,
    workspaceId: pulumi.output(workspaceId),
    ...(typeof adoptId === "string" ? { adoptId: adoptId.toLowerCase() } : {}),
  });
}

/** Who adopts what, per stack: `adopt:<uuid>` -> Guardrail name. */
const managers = new Map<string, Array<{ name: string; exclusive: boolean }>>();
/** The sets on each guardrail, per stack (the rule is the core's, shared with the native face). */
const setClaims = new SetClaims();
const scoped = (key: string) => `${pulumi.getProject()}/${pulumi.getStack()}\u0000${key}`;

/** Fails the program now when the value is known, or logs an error (which fails the run) once it is. */
function refuse(message: string, now: boolean): void {
  if (now) throw new UserError(message);
  void pulumi.log.error(message);
}

/**
 * Called by the Guardrail's constructor before it registers: refuses an `adoptId` another
 * Guardrail of this program adopts (in any case), or one that is another Guardrail's own id.
 * A re-run in the same process (same resource name) is no conflict.
 */
export function claimAdoption(name: string, adoptId: pulumi.Input<string> | undefined): void {
  if (adoptId === undefined) return;
  const owner = typeof adoptId === "object" && adoptId !== null ? guardrails.get(adoptId) : undefined;
  if (owner && owner.name !== name) {
    refuse(
      `Guardrail "${name}": adoptId is the id of Guardrail "${owner.name}" of this program, which already manages that guardrail; a guardrail is managed by one resource, so each up would set it to the other's args. Remove one of them.`,
      true,
    );
  }
  const check = (id: string | undefined, now: boolean) => {
    if (typeof id !== "string" || id === "") return;
    const key = scoped(`adopt:${id.toLowerCase()}`);
    const prior = managers.get(key)?.find((m) => m.name !== name);
    // A value that came as an output may be secret: only a literal is quoted.
    if (prior)
      refuse(
        `Guardrail "${name}": adoptId ${now ? `${id} ` : ""}is already adopted by Guardrail "${prior.name}" of this program; a guardrail is managed by one resource, so each up would set it to the other's args. Remove one of them, or adopt another guardrail.`,
        now,
      );
    else managers.set(key, [{ name, exclusive: true }]);
  };
  if (typeof adoptId === "string") check(adoptId, true);
  else pulumi.output(adoptId).apply((id) => check(id, false));
}

/** A set's guardrail as a comparable key and as messages name it, when the program says which. */
function guardrailOf(guardrailId: pulumi.Input<string>): ClaimTarget | undefined {
  if (typeof guardrailId === "string")
    return { key: `uuid:${guardrailId.toLowerCase()}`, shown: `guardrail ${guardrailId}` };
  const facts = typeof guardrailId === "object" && guardrailId !== null ? guardrails.get(guardrailId) : undefined;
  if (!facts) return undefined;
  return {
    key: facts.adoptId ? `uuid:${facts.adoptId}` : `resource:${facts.name}`,
    shown: `guardrail "${facts.name}"`,
  };
}

/**
 * Called by a set's constructor before it registers: an exclusive set owns its guardrail's
 * whole member (or key) set, so it refuses to share the guardrail with another set of its
 * kind, and any set refuses a guardrail an exclusive one owns. Names both resources.
 */
export function claimSet(
  kind: "member" | "key",
  setName: string,
  guardrailId: pulumi.Input<string>,
  exclusive: pulumi.Input<boolean> | undefined,
): void {
  const check = (target: ClaimTarget, isExclusive: boolean, now: boolean) => {
    const set = { who: setName, name: setName, exclusive: isExclusive };
    const refusal = setClaims.claim(kind, { ...target, key: scoped(target.key) }, set);
    if (refusal) refuse(refusal, now);
  };
  const known = guardrailOf(guardrailId);
  if (known && (exclusive === undefined || typeof exclusive === "boolean"))
    return void check(known, exclusive ?? false, true);
  // A guardrail id that came as a secret output is compared all the same, never printed.
  const secret = pulumi.isSecret(pulumi.output(guardrailId));
  pulumi.all([pulumi.output(guardrailId), pulumi.output(exclusive)]).apply(async ([id, ex]) => {
    const target =
      known ??
      (typeof id === "string"
        ? { key: `uuid:${id.toLowerCase()}`, shown: `guardrail ${id}`, secret: await secret }
        : undefined);
    if (target) check(target, ex ?? false, false);
  });
}

/** A set's hold on one id, as the program states it. */
interface Claim extends Holder {
  set: string;
  /** The set's ids are secret: the id is never printed, by this set's warning or a later one's. */
  secret: boolean;
}

const claims = new HolderTable<Claim>();

/**
 * Called by a set's constructor. Compares the set's ids with every set registered before it
 * once the ids and the guardrail's workspace are known (during preview for literal values),
 * and warns, naming both resources, about each id the holder rule allows once (core/holders.ts).
 */
export function registerSet(
  kind: HolderNoun,
  setName: string,
  guardrailId: pulumi.Input<string>,
  ids: pulumi.Input<pulumi.Input<string>[]>,
  resource: pulumi.Resource,
): void {
  const facts = typeof guardrailId === "object" && guardrailId !== null ? guardrails.get(guardrailId) : undefined;
  const guardrail = facts?.name ?? (typeof guardrailId === "string" ? guardrailId : undefined);
  if (guardrail === undefined) return; // a guardrail this program did not construct: its workspace is unknown here
  const workspace = kind === "key" ? pulumi.output(undefined) : facts ? facts.workspaceId : undefined;
  if (!workspace) return;
  // Ids the program made secret (in this set or the one it meets) are compared all the same, but never printed (issue 24).
  const secret = pulumi.isSecret(pulumi.output(ids));
  pulumi.all([workspace, pulumi.output(ids)]).apply(async ([ws, list]) => {
    const hidden = await secret;
    const messages: string[] = [];
    for (const id of new Set(list)) {
      const first = claims.add({ noun: kind, id, guardrail, workspace: ws, set: setName, secret: hidden });
      if (first)
        messages.push(
          setHeldTwiceMessage(
            kind,
            hidden || first.secret ? "[secret]" : `"${id}"`,
            { guardrail: `"${first.guardrail}"`, set: first.set },
            { guardrail: `"${guardrail}"`, set: setName },
          ),
        );
    }
    for (const m of messages) void pulumi.log.warn(`pulumi-guardrails: ${m}`, resource);
  });
}
