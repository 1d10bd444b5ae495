/**
 * Markdown for a pull-request comment from `pulumi preview --json`, read the way a reviewer
 * thinks: one line first saying what loosens and for whom, then replacements and deletions,
 * then one section per guardrail with each change marked (loosens, may loosen, tightens,
 * neutral), list settings element by element, and the members and keys added, removed or
 * moved, each move judged by what it gains. Secrets are never printed, every user-supplied
 * string is neutralised (markdown.ts), and a failed or malformed preview is a "preview failed"
 * summary, never "no changes"; with policy violations, the plan is still listed after them.
 */
import { readPreview, type PreviewStep } from "./input";
import { code } from "../core/text/markdown";
import { compareSides } from "./judge";
import { emptyChange, setChanged, type GuardrailChange } from "./model";
import { renderChanges } from "./render";
import { addSetChanges, type SetRepoints } from "./sets";
import { changed, defaultFor, guardrailsOf, type GuardrailOfPreview } from "./steps";
import { guardrailLabel } from "./marks";
import { replaceDefault, resetJudged, takeOver } from "./defaults";
import { bounded } from "./opening";
import { policySection, type PolicyEvents } from "./policy-events";
import { policiesLoosen, policyChanges, policyOpening, policySections } from "./policies";
import { type EffectiveChange, effectiveChanges } from "./effective";
import { applyEffective, directionOf, effectiveOpening, effectiveSection } from "./effective-render";

/** The parts of `pulumi preview --json` the summary reads. */
export type { PreviewJson, PreviewStep } from "./input";
export { typeOf } from "./steps";

/** A summary, and whether it describes a preview that failed (the CLI then exits non-zero). */
export interface Summary {
  markdown: string;
  failed: boolean;
  /** Whether anything loosens or may loosen (`--fail-on-loosening`). */
  loosens: boolean;
}

/** Inputs beside the preview: the policy events of the engine's log (`--event-log`), the keys' owners (`--key-owners`). */
export interface SummaryOptions {
  policies?: PolicyEvents;
  /**
   * The member owning each key hash (the service has no key -> owner lookup): a key's owner's
   * layers count in its effective access. A key not named here has them unknown.
   */
  keyOwners?: Readonly<Record<string, string>>;
}

const NOT_SETTINGS = ["workspaceId", "adoptId"] as const;

/** The Markdown summary of a preview (a "preview failed" summary when it is one). */
export function summarizePreview(preview: unknown): string {
  return summarize(preview).markdown;
}

/**
 * The summary, with `failed` set for a preview with error diagnostics or input that is not a
 * preview. A preview that failed only because a mandatory policy did (the policy events say so
 * and the steps are there) still lists every planned change, after the violations.
 */
export function summarize(preview: unknown, options: SummaryOptions = {}): Summary {
  const input = readPreview(preview);
  const policies = options.policies ? policySection(options.policies) : "";
  const mandatory = options.policies?.violations.some((v) => v.level === "mandatory") ?? false;
  // The engine's one error when a mandatory policy fails is "preview failed"; any other error may have cut the plan short.
  const onlyPolicies = !input.ok && input.errors.every((e) => /^error: preview failed\s*$/.test(e));
  if (!input.ok && !(mandatory && onlyPolicies && input.steps)) {
    const errors = input.errors.map((e) => `- ${code(e, 300)}`);
    const failed = [
      `**Guardrails: preview failed.** ${input.reason}; nothing here says what would change.`,
      ...(errors.length ? [errors.join("\n")] : []),
    ].join("\n\n");
    return { failed: true, loosens: false, markdown: [policies, failed].filter(Boolean).join("\n") + "\n" };
  }
  const steps = input.ok ? input.steps : input.steps!;
  const { opening, body, loosens } = summarizeSteps(steps, options.keyOwners);
  const plan = input.ok
    ? body
    : `**The changes the preview planned** before it stopped at the mandatory violations above (fixing them may change this plan):\n\n${body}`;
  return {
    failed: !input.ok,
    loosens,
    markdown: bounded([opening, policies.trimEnd(), plan.trimEnd()].filter(Boolean).join("\n\n") + "\n"),
  };
}

function summarizeSteps(
  steps: PreviewStep[],
  keyOwners?: Readonly<Record<string, string>>,
): { opening: string; body: string; loosens: boolean } {
  // Effective access (issue 41): each member and key judged by what every layer leaves it.
  const effective = effectiveChanges(steps, keyOwners);
  const access = effectiveSection(effective.changes, effective.defaults);
  const widens =
    effective.changes.some((c) => ["loosening", "unknown"].includes(directionOf(c))) ||
    effective.defaults.some((d) => d.gains.length > 0);
  const widening = effectiveOpening(effective.changes, effective.defaults);
  const g = summarizeGuardrails(steps, effective);
  // The first line answers by effect: "nothing loosens" setting by setting is not said when someone's access widens.
  const guardrails = { ...g, opening: widening && g.opening.startsWith("**🔒") ? "" : g.opening };
  // Guardrail Policies (issue 40) follow the guardrails, judged with the same table.
  const policies = policyChanges(steps);
  const first = access ? `${access}\n\n` : "";
  if (policies.length === 0)
    return {
      opening: [guardrails.opening, widening].filter(Boolean).join("\n\n"),
      body: `${first}${guardrails.body}`,
      loosens: guardrails.loosens || widens,
    };
  const sections = policySections(policies);
  const none = guardrails.body === NO_CHANGES;
  return {
    opening: [guardrails.opening, policyOpening(policies), widening].filter(Boolean).join("\n\n"),
    body: first + (none ? `${sections}\n` : `${guardrails.body.trimEnd()}\n\n${sections}\n`),
    loosens: guardrails.loosens || policiesLoosen(policies) || widens,
  };
}

const NO_CHANGES = "**Guardrails: no changes.**\n";

function summarizeGuardrails(
  steps: PreviewStep[],
  effective: { changes: EffectiveChange[]; judged: Set<string> },
): { opening: string; body: string; loosens: boolean } {
  const { all: guardrails, byId } = guardrailsOf(steps);
  const changes = new Map<string, GuardrailChange>();
  for (const g of guardrails.values()) {
    const c = emptyChange(g.logical, g.name, g.op, g.isDefault);
    changes.set(g.logical, c);
    if (g.isDefault && g.resets !== undefined) c.resets = g.resets;
    // A default guardrail leaving the stack: its settings stay in force, or (resetOnDelete) all reset to no restriction.
    if (g.isDefault && g.op === "delete") c.judged = resetJudged(g);
    // A default created here is written over the workspace's current one, which the preview does not show.
    if (g.isDefault && g.op === "create") takeOver(g, c);
    if (!changed(g.op) || g.op === "delete" || g.op === "import" || c.takesOver) continue;
    const before = g.before?.inputs ?? {};
    const after = g.after?.inputs ?? {};
    for (const key of NOT_SETTINGS)
      if (g.op !== "create" && JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null))
        c.other.push({ key, before: before[key], after: after[key] });
    // A new guardrail has nothing to compare with: its settings are listed as set, neutral.
    c.judged = g.before ? compareSides(g.before, { inputs: after }) : compareSides({ inputs: {} }, { inputs: after });
    if (!g.before) for (const j of c.judged) j.direction = "neutral";
    if (g.isDefault && g.op === "replace") replaceDefault(g, c);
  }
  const { repointed, held } = addSetChanges(steps, changes, guardrails, byId, (logical, name) =>
    emptyChange(logical, name),
  );
  renamesAndDeletes(guardrails, changes, repointed);
  replacements(guardrails, changes, held);
  const all = [...changes.values()].filter((g) => changed(g.op) || Object.values(g.sets).some(setChanged));
  if (all.length === 0) return { opening: "", body: NO_CHANGES, loosens: false };
  applyEffective(all, effective, steps);
  return renderChanges(all);
}

/**
 * A guardrail deleted and one created in the same preview (a rename without an alias) are one
 * guardrail changing, compared setting by setting: paired by display name (one of each), then by
 * the sets re-pointed from one to the other. And a deleted guardrail releases everyone on it that
 * the stack does not list (issue 38): they fall back to the workspace default (compared with it
 * when the stack manages it, else with no restriction), unless it has a successor that every one
 * of its members and keys moves to (exclusive sets of both kinds, so the stack lists them all).
 */
function renamesAndDeletes(
  guardrails: Map<string, GuardrailOfPreview>,
  changes: Map<string, GuardrailChange>,
  repoints: SetRepoints["repointed"],
): void {
  const all = [...guardrails.values()].filter((g) => !g.isDefault);
  const deleted = all.filter((g) => g.op === "delete" && g.before);
  const created = all.filter((g) => g.op === "create" && g.after);
  const successor = new Map<string, GuardrailOfPreview>();
  const taken = new Set<string>();
  const pair = (d: GuardrailOfPreview, c: GuardrailOfPreview) => {
    successor.set(d.logical, c);
    taken.add(c.logical);
  };
  for (const d of deleted) {
    const fits = created.filter((c) => c.name === d.name);
    if (fits.length === 1 && deleted.filter((o) => o.name === d.name).length === 1) pair(d, fits[0]!);
  }
  for (const d of deleted.filter((g) => !successor.has(g.logical))) {
    const to = new Set(repoints.filter((r) => r.from === d.logical).map((r) => r.to));
    const fits = created.filter((c) => to.has(c.logical) && !taken.has(c.logical));
    if (fits.length === 1) pair(d, fits[0]!);
  }
  for (const [from, c] of successor) {
    const change = changes.get(c.logical)!;
    change.succeeds = from;
    change.judged = compareSides(guardrails.get(from)!.before!, { inputs: c.after!.inputs });
  }
  for (const d of deleted) {
    const next = successor.get(d.logical);
    const moved = (kind: "members" | "keys") =>
      repoints.some((r) => r.from === d.logical && r.to === next?.logical && r.kind === kind && r.exclusive);
    if (next && moved("members") && moved("keys")) continue;
    const change = changes.get(d.logical)!;
    const { lost, to } = released(guardrails, d);
    change.judged = lost;
    if (lost.length) change.releases = to;
  }
}

/**
 * What anyone on guardrail `g` that the stack does not list loses when `g` is deleted: its
 * settings against what they fall back to (the workspace default when the stack manages it,
 * else no restriction). A name or a description nobody holds any more is no change to them.
 */
function released(guardrails: Map<string, GuardrailOfPreview>, g: GuardrailOfPreview) {
  const fallback = defaultFor(guardrails, g);
  const lost = compareSides(g.before!, fallback?.after ?? { inputs: {} }).filter((j) => j.direction !== "neutral");
  const to = fallback
    ? `the ${guardrailLabel(fallback.name, true)}`
    : "no restriction (no workspace default in this stack to compare with)";
  return { lost, to };
}

/**
 * A guardrail replaced in place (its workspaceId changes, say) is a new guardrail, and the old
 * one is deleted with its assignments (issue 38): the stack's sets assign their ids to the new
 * one, but anyone else on it is released, as by a deletion. Only exclusive sets of both kinds
 * that follow it (so the stack lists everyone on it) clear that.
 */
function replacements(
  guardrails: Map<string, GuardrailOfPreview>,
  changes: Map<string, GuardrailChange>,
  held: SetRepoints["held"],
): void {
  for (const g of guardrails.values()) {
    if (g.isDefault || g.op !== "replace" || !g.before) continue;
    const follows = (kind: "members" | "keys") =>
      held.some((h) => h.guardrail === g.logical && h.kind === kind && h.exclusive);
    if (follows("members") && follows("keys")) continue;
    const { lost, to } = released(guardrails, g);
    if (lost.length === 0) continue;
    const change = changes.get(g.logical)!;
    change.released = lost;
    change.releases = to;
  }
}
