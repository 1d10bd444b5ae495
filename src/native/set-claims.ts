/**
 * The program-side checks of the assignment sets (src/dynamic/claims.ts) on the native face.
 * One provider process serves every resource's `check` of one deployment (one process per
 * provider instance), so it sees the whole program's sets and checks them there, by the
 * core's rules (core/assignments/claims.ts):
 * - two sets of one kind on one guardrail when either is exclusive: the later one's check
 *   fails at `guardrailId`, naming both;
 * - an id listed by sets on two competing guardrails: a warning on the later set (the engine
 *   shows it on the resource, engine-log.ts).
 * A secret guardrail id or id is compared all the same and never printed (`[secret]`).
 * A guardrail id not known yet (a preview of a guardrail still to be created) cannot be
 * compared: the check of that set happens again once it is known, at the `up`, before the set
 * is created. A member's hold reaches its guardrail's workspace, which the program does not
 * state here: only when an id is listed on two guardrails are their workspaces read (one GET
 * each, once per deployment); an unreadable one warns of nothing.
 */
import { SECRET_GUARDRAIL, SetClaims, setHeldTwiceMessage } from "../core/assignments/claims";
import { competes, HOLD_SCOPE, type HolderNoun } from "../core/holders";
import type { PropertyFailure } from "../core/results";
import { lastNameOfUrn } from "../core/urn";
import type { Connection } from "../core/connection";
import { guardrailFacts } from "../core/resource/guardrail-reads";

/** One set's check, as the claims compare it. */
export interface SetCheck {
  noun: HolderNoun;
  /** The resource's URN: its identity (a re-check replaces its claims) and its name in messages. */
  urn: string;
  /** Lower case. */
  guardrailId: string;
  exclusive: boolean;
  ids: readonly string[];
  /** Ids the program made secret are compared all the same, never printed. */
  secret: boolean;
  /** A guardrail id the program made secret is compared all the same, never printed. */
  guardrailSecret: boolean;
}

interface Hold {
  who: string;
  set: string;
  guardrail: string;
  idsSecret: boolean;
}

/** The resource name of a URN (`urn:pulumi:stack::project::type::name`). */
export const nameOf = lastNameOfUrn;

/** What this process has seen of the deployment's sets. */
export class DeploymentClaims {
  private readonly sets = new SetClaims();
  private readonly holds = new Map<string, Hold[]>();
  private readonly workspaces = new Map<string, Promise<string | null | undefined>>();
  /** Guardrail ids some set made secret: every copy of a secret is one, so no message names them. */
  private readonly secretGuardrails = new Set<string>();

  /** `workspaceOf` reads a guardrail's workspace (null: the default one; undefined: not known). */
  constructor(private readonly workspaceOf: (guardrailId: string) => Promise<string | null | undefined>) {}

  /** Claims the set's guardrail and ids: the failures of a refused claim, and the warnings to say. */
  async check(c: SetCheck): Promise<{ failures: PropertyFailure[]; warnings: string[] }> {
    const name = nameOf(c.urn);
    if (c.guardrailSecret) this.secretGuardrails.add(c.guardrailId);
    const target = { key: `uuid:${c.guardrailId}`, shown: `guardrail ${c.guardrailId}`, secret: c.guardrailSecret };
    const refusal = this.sets.claim(c.noun, target, { who: c.urn, name, exclusive: c.exclusive });
    if (refusal) return { failures: [{ property: "guardrailId", reason: refusal }], warnings: [] };
    const ours = { who: c.urn, set: name, guardrail: c.guardrailId, idsSecret: c.secret };
    return { failures: [], warnings: await this.heldTwice(c, ours) };
  }

  private async heldTwice(c: SetCheck, ours: Hold): Promise<string[]> {
    const warnings: string[] = [];
    for (const id of new Set(c.ids)) {
      const key = `${c.noun}\u0000${id}`;
      const earlier = (this.holds.get(key) ?? []).filter((h) => h.who !== c.urn);
      this.holds.set(key, [...earlier, ours]);
      for (const first of earlier.filter((h) => h.guardrail !== c.guardrailId)) {
        if (!(await this.compete(c.noun, first.guardrail, c.guardrailId))) continue;
        // Any set's secret copy of the id, or of a guardrail's id, keeps it out of the message.
        const shown = c.secret || earlier.some((h) => h.idsSecret) ? "[secret]" : `"${id}"`;
        const guardrail = (h: Hold) => ({
          guardrail: this.secretGuardrails.has(h.guardrail) ? SECRET_GUARDRAIL : `guardrail ${h.guardrail}`,
          set: h.set,
        });
        warnings.push(setHeldTwiceMessage(c.noun, shown, guardrail(first), guardrail(ours)));
        break;
      }
    }
    return warnings;
  }

  private async compete(noun: HolderNoun, a: string, b: string): Promise<boolean> {
    if (HOLD_SCOPE[noun] === "organization") return true;
    const [wa, wb] = await Promise.all([this.workspace(a), this.workspace(b)]);
    return wa !== undefined && wb !== undefined && competes(noun, wa, wb);
  }

  private workspace(guardrailId: string): Promise<string | null | undefined> {
    let known = this.workspaces.get(guardrailId);
    if (!known) {
      known = this.workspaceOf(guardrailId).catch(() => undefined);
      this.workspaces.set(guardrailId, known);
    }
    return known;
  }
}

/** A provider instance's claims: its guardrails' workspaces read with its client. */
export function claimsOver(conn: Connection): DeploymentClaims {
  // Shared with the sets' and the Guardrail's reads of the same command (core/resource/guardrail-reads.ts).
  return new DeploymentClaims(async (id) => (await guardrailFacts(conn.client(), id)).workspaceId ?? null);
}
