/**
 * Cross-set conflicts, found in the user's program so `pulumi preview` warns before anything
 * bounces: a member held by two member sets on guardrails of one workspace (a member holds
 * one guardrail per workspace), or a key held by any two key sets (a key holds one guardrail
 * at all). Either would move back and forth on every `up --refresh`. The declarative loader
 * rejects the same thing in YAML; this covers programs that construct the resources.
 */
import * as pulumi from "@pulumi/pulumi";

/** What the program said about one Guardrail, by the identity of its `id` output. */
interface GuardrailFacts {
  name: string;
  workspaceId: pulumi.Output<string | undefined>;
}

const guardrails = new WeakMap<object, GuardrailFacts>();

/** Called by the Guardrail's constructor. */
export function registerGuardrail(id: pulumi.Output<string>, name: string, workspaceId: pulumi.Input<string> | undefined): void {
  guardrails.set(id, { name, workspaceId: pulumi.output(workspaceId) });
}

interface Claim {
  set: string;
  guardrail: string;
  /** The workspace scope: the workspace id, "(default)", or the whole organization for keys. */
  scope: string;
}

const claims = { member: new Map<string, Claim[]>(), key: new Map<string, Claim[]>() };

/**
 * Called by a set's constructor. Compares the set's ids with every set registered before it
 * once the ids and the guardrail's workspace are known (during preview for literal values),
 * and warns, naming both resources, about each id claimed twice in one scope.
 */
export function registerSet(kind: "member" | "key", setName: string, guardrailId: pulumi.Input<string>, ids: pulumi.Input<pulumi.Input<string>[]>, resource: pulumi.Resource): void {
  const facts = typeof guardrailId === "object" && guardrailId !== null ? guardrails.get(guardrailId) : undefined;
  const guardrail = facts?.name ?? (typeof guardrailId === "string" ? guardrailId : undefined);
  if (guardrail === undefined) return; // a guardrail this program did not construct: its workspace is unknown here
  const scope = kind === "key" ? pulumi.output("the organization") : facts ? facts.workspaceId.apply((w) => w ?? "(default)") : undefined;
  if (!scope) return;
  // Ids the program made secret are compared all the same, but never printed (issue 24).
  const secret = pulumi.isSecret(pulumi.output(ids));
  pulumi.all([scope, pulumi.output(ids)]).apply(async ([where, list]) => {
    const shown = (await secret) ? () => "[secret]" : (id: string) => `"${id}"`;
    const table = claims[kind];
    const messages: string[] = [];
    for (const id of new Set(list)) {
      const earlier = table.get(id) ?? [];
      for (const other of earlier) {
        if (other.scope !== where || other.guardrail === guardrail) continue;
        messages.push(
          kind === "key"
            ? `key ${shown(id)} is listed by GuardrailKeyAssignment "${other.set}" (guardrail "${other.guardrail}") and "${setName}" (guardrail "${guardrail}"); a key holds one guardrail at all, so it would move back and forth on every up`
            : `member ${shown(id)} is listed by GuardrailMemberAssignment "${other.set}" (guardrail "${other.guardrail}") and "${setName}" (guardrail "${guardrail}") of the same workspace; a member holds one guardrail per workspace, so it would move back and forth on every up`,
        );
      }
      table.set(id, [...earlier, { set: setName, guardrail, scope: where }]);
    }
    for (const m of messages) void pulumi.log.warn(`pulumi-guardrails: ${m}`, resource);
  });
}
