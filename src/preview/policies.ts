/**
 * Guardrail Policies in the review (issue 40): each workspace policy the preview changes, its
 * settings judged with the guardrail's loosening table (judge.ts `compareSides`), and each change
 * to who it holds judged by what that member or key had before against what it has after:
 *
 * - joining a policy directly: the member stops inheriting its workspace's default of that kind
 *   (rule 27: a direct policy overrides it), so it is compared with that default when the stack
 *   holds it (or with nothing when the member opted out of it, or also holds another direct
 *   policy of the kind, whose rules still apply); without it, it may loosen;
 * - leaving one: compared with what it falls back to (another direct policy of the kind in the
 *   stack, else the stack's default, else nothing: every restriction lost loosens);
 * - an opt-out added to a default: it loses the default (loosens); removed: gains it (tightens);
 * - the workspace default flag turned off (or a default deleted): everyone inheriting it loses it;
 *   turned on (or a default created): it takes over from the workspace's current default, which
 *   is compared when the stack holds it, else may loosen;
 * - a new policy's settings are listed; a deleted policy loosens for everyone on it.
 *
 * A loosening is a loosening until proven otherwise: what the preview does not show is `unknown`.
 */
import { FIELD_NAMES } from "../core/fields/fields";
import type { Judged } from "../core/fields/loosening";
import { KINDS, POLICY_TYPE_NAMES, type PolicyTypeName } from "../core/kinds";
import { WW_POLICY_TYPES } from "../core/policies/workspace-wide-args";
import { code } from "../core/text/markdown";
import { nameCode } from "../core/text/names";
import type { PreviewStep } from "./input";
import { compareSides, type Side } from "./judge";
import { changeText, gainText, MARK, settingText, some } from "./marks";
import { DIRECTIONS, verdictOf, worst, type Verdict } from "./model";
import { verdictText } from "./render";
import { changed, nameOf, typeOf } from "./steps";
import { isSecret } from "./values";

type Bag = Record<string, unknown>;

/** The id lists of a policy, each with the subject it holds and what a change to it means. */
const LISTS = [
  { arg: "memberUserIds", noun: "member", optOut: false },
  { arg: "keyHashes", noun: "key", optOut: false },
  { arg: "optedOutMemberUserIds", noun: "member", optOut: true },
  { arg: "optedOutKeyHashes", noun: "key", optOut: true },
] as const;
type ListArg = (typeof LISTS)[number]["arg"];

/** A workspace policy of the preview. */
interface PolicyOfPreview {
  logical: string;
  type: PolicyTypeName | WideType;
  name: string;
  op: string;
  workspace: string | undefined;
  before?: Bag | undefined;
  after?: Bag | undefined;
}

/** One line about who a policy holds: a subject joining or leaving, an opt-out, the default flag. */
interface SubjectLine {
  text: string;
  verdict: Verdict;
}

/** What the review says of one policy. */
export interface PolicyChange {
  logical: string;
  label: string;
  op: string;
  judged: Judged[];
  subjects: SubjectLine[];
  /** The heading of its subject lines: `Assignments` (a workspace policy) or `Coverage` (a workspace-wide one). */
  heading: string;
}

/** The workspace-wide kind (issue 40): it belongs to the organization and covers workspaces. */
type WideType = "WorkspaceWidePolicy";
const WIDE: WideType = "WorkspaceWidePolicy";
const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
const policyType = (urn: string): PolicyTypeName | WideType | undefined => {
  const t = typeOf(urn);
  if (t === WIDE) return t;
  return t !== "" && "policy" in KINDS[t] ? (t as PolicyTypeName) : undefined;
};
/** A policy's noun: its kind's (`budget policy`), a workspace-wide one's from its `policyType`. */
function nounOf(p: PolicyOfPreview): string {
  if (p.type !== WIDE) return KINDS[p.type].policy.noun;
  const word = p.after?.policyType ?? p.before?.policyType;
  const fields =
    typeof word === "string" && Object.hasOwn(WW_POLICY_TYPES, word)
      ? WW_POLICY_TYPES[word as keyof typeof WW_POLICY_TYPES]
      : undefined;
  const row = POLICY_TYPE_NAMES.find((t) => KINDS[t].policy.fields === fields);
  return `workspace-wide ${row ? KINDS[row].policy.noun : "policy"}`;
}
const ids = (bag: Bag | undefined, arg: ListArg): string[] | "secret" | undefined => {
  const v = bag?.[arg];
  if (isSecret(v) || (Array.isArray(v) && v.some(isSecret))) return "secret";
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
};
const isDefault = (bag: Bag | undefined) => bag?.workspaceDefault === true;
/** A side holding only a policy's settings (the rest of its args are not settings). */
const settings = (bag: Bag | undefined): Side => ({
  inputs: Object.fromEntries(FIELD_NAMES.filter((f) => bag?.[f] !== undefined).map((f) => [f, bag![f]])),
});
const NOTHING: Side = { inputs: {} };

/** The workspace policies of the preview, by logical name. */
function policiesOf(steps: PreviewStep[]): PolicyOfPreview[] {
  const all = new Map<string, PolicyOfPreview>();
  for (const s of steps) {
    const type = policyType(s.urn);
    if (!type) continue;
    const logical = nameOf(s.urn);
    if (!changed(s.op) && all.has(logical)) continue;
    const op = changed(s.op) ? s.op : "same";
    const before = s.op === "create" || !s.oldState ? undefined : (s.oldState.inputs ?? {});
    const after = s.op === "delete" ? undefined : (s.newState?.inputs ?? before);
    const name = after?.name ?? before?.name;
    const workspace =
      str(s.oldState?.outputs?.workspaceId) ?? str(s.newState?.inputs?.workspaceId) ?? str(before?.workspaceId);
    all.set(logical, {
      logical,
      type,
      name: typeof name === "string" ? name : name === undefined ? logical : "[secret]",
      op,
      workspace,
      before,
      after,
    });
  }
  return [...all.values()];
}

/** The review of the preview's workspace policies: a section each, and what loosens. */
export function policyChanges(steps: PreviewStep[]): PolicyChange[] {
  const all = policiesOf(steps);
  const out: PolicyChange[] = [];
  for (const p of all) {
    const label = `${nounOf(p)} ${nameCode(p.name, 80)}`;
    const heading = p.type === WIDE ? "Coverage" : "Assignments";
    const c: PolicyChange = { logical: p.logical, label, op: p.op, judged: [], subjects: [], heading };
    if (p.type === WIDE) {
      wide(p, c);
      if (c.judged.length || c.subjects.length || changed(p.op)) out.push(c);
      continue;
    }
    const peers = all.filter(
      (o) => o !== p && o.type === p.type && (!o.workspace || !p.workspace || o.workspace === p.workspace),
    );
    if (p.op === "delete") {
      c.judged = compareSides(settings(p.before), NOTHING).filter((j) => j.direction !== "neutral");
      if (isDefault(p.before)) c.subjects.push(lostDefault(p, peers, "deleted"));
    } else if (changed(p.op) && p.op !== "import") {
      c.judged = p.before
        ? compareSides(settings(p.before), settings(p.after))
        : compareSides(NOTHING, settings(p.after)).map((j) => ({ ...j, direction: "neutral" as const }));
      defaultFlag(p, peers, c);
      for (const list of LISTS) subjects(p, peers, list, c);
    }
    if (c.judged.length || c.subjects.length || (changed(p.op) && p.op !== "same")) out.push(c);
  }
  return out.sort((a, b) => a.label.localeCompare(b.label) || a.logical.localeCompare(b.logical));
}

/** The stack's default of the kind in the policy's workspace, on one side (`before` or `after`), other than `p`. */
const defaultOf = (peers: PolicyOfPreview[], side: "before" | "after") => {
  const fits = peers.filter((o) => isDefault(o[side]));
  return fits.length === 1 ? fits[0] : undefined;
};

/** A default that stops being one: those inheriting it fall to the stack's new default of the kind, else to nothing. */
function lostDefault(p: PolicyOfPreview, peers: PolicyOfPreview[], how: string): SubjectLine {
  const next = defaultOf(peers, "after");
  return next
    ? {
        text: `workspace default: ${how}; ${code(next.logical)} becomes the default`,
        verdict: verdictOf(
          compareSides(settings(p.before), settings(next.after)),
          `compared with ${code(next.logical)}`,
        ),
      }
    : {
        text: `workspace default: ${how}, so everyone of its workspace that inherits it loses it`,
        verdict: verdictOf(compareSides(settings(p.before), NOTHING)),
      };
}

/** The workspace default flag turned on or off (or a new default). */
function defaultFlag(p: PolicyOfPreview, peers: PolicyOfPreview[], c: PolicyChange): void {
  const [was, now] = [isDefault(p.before), isDefault(p.after)];
  if (was === now) return;
  if (was) {
    c.subjects.push(lostDefault(p, peers, "on → off"));
    return;
  }
  const previous = defaultOf(peers, "before");
  const verdict = previous
    ? verdictOf(compareSides(settings(previous.before), settings(p.after)), `compared with ${code(previous.logical)}`)
    : {
        direction: "unknown" as const,
        gains: [],
        note: "it takes over from the workspace's current default of its kind, which this preview does not show: counted as a loosening until a preview shows both",
      };
  c.subjects.push({ text: `workspace default: ${p.before ? "off → on" : "on"}`, verdict });
}

/** The ids a list gains and loses, each judged. */
function subjects(p: PolicyOfPreview, peers: PolicyOfPreview[], list: (typeof LISTS)[number], c: PolicyChange): void {
  const [b, a] = [ids(p.before, list.arg), ids(p.after, list.arg)];
  if (a === undefined && (p.op !== "create" || b === undefined)) return; // not managed: left alone
  if (b === "secret" || a === "secret") {
    c.subjects.push({
      text: `${list.arg} changed (the list is secret: its contents are not shown)`,
      verdict: { direction: "unknown", gains: [] },
    });
    return;
  }
  const was = new Set(b ?? []);
  const now = new Set(a ?? []);
  const added = [...now].filter((id) => !was.has(id)).sort();
  const removed = [...was].filter((id) => !now.has(id)).sort();
  const group = (what: string, xs: string[], judge: (id: string) => Verdict) => {
    const byVerdict = new Map<string, { ids: string[]; verdict: Verdict }>();
    for (const id of xs) {
      const v = judge(id);
      const k = verdictText(v);
      const g = byVerdict.get(k) ?? { ids: [], verdict: v };
      g.ids.push(id);
      byVerdict.set(k, g);
    }
    for (const g of byVerdict.values())
      c.subjects.push({
        text: `${list.noun}${g.ids.length > 1 ? "s" : ""} ${what}: ${some(
          g.ids.map((x) => code(x)),
          50,
        )}`,
        verdict: g.verdict,
      });
  };
  const directArg = list.noun === "member" ? "memberUserIds" : "keyHashes";
  const optArg = list.noun === "member" ? "optedOutMemberUserIds" : "optedOutKeyHashes";
  /** Another direct policy of the kind that holds `id` on `side`. */
  const otherDirect = (id: string, side: "before" | "after") =>
    peers.find((o) => {
      const l = ids(o[side], directArg);
      return Array.isArray(l) && l.includes(id);
    });
  /** What `id` inherits from the stack's default on `side`: its settings, nothing (opted out), or unknown. */
  const inherited = (id: string, side: "before" | "after"): Side | undefined => {
    const d = defaultOf(peers, side);
    if (!d) return undefined;
    const out = ids(d[side], optArg);
    return Array.isArray(out) && out.includes(id) ? NOTHING : settings(d[side]);
  };
  if (!list.optOut) {
    group("joins", added, (id) => {
      if (otherDirect(id, "after")) return verdictOf(compareSides(NOTHING, settings(p.after)).map(tighter));
      const from = inherited(id, "before");
      return from
        ? verdictOf(compareSides(from, settings(p.after)), "compared with the workspace default it stops inheriting")
        : {
            direction: "unknown",
            gains: [],
            note: "it stops inheriting its workspace's default of this kind, which this preview does not show: counted as a loosening until a preview shows both",
          };
    });
    group("leaves", removed, (id) => {
      const other = otherDirect(id, "after");
      const to = other ? settings(other.after) : (inherited(id, "after") ?? NOTHING);
      return verdictOf(compareSides(settings(p.before), to));
    });
    return;
  }
  // Opt-outs matter only while the policy is the default; an id with a direct policy of the kind inherits no default anyway.
  const defaultNow = isDefault(p.after);
  const defaultThen = isDefault(p.before);
  group("opted out", added, (id) =>
    !defaultNow || otherDirect(id, "after")
      ? { direction: "neutral", gains: [], note: "it does not inherit this policy either way" }
      : verdictOf(compareSides(settings(p.before ?? p.after), NOTHING), "it no longer inherits the default"),
  );
  group("no longer opted out", removed, (id) =>
    !defaultNow || otherDirect(id, "after")
      ? { direction: "neutral", gains: [], note: "it does not inherit this policy either way" }
      : verdictOf(
          compareSides(NOTHING, settings(p.after)).map(tighter),
          defaultThen ? "it inherits the default again" : undefined,
        ),
  );
}

/**
 * A workspace-wide policy: it cannot be overridden, so whatever it starts to cover gains its
 * rules on top of what stays (tightens) and whatever it stops covering loses them (loosens when
 * it restricted anything). Coverage: `workspaceIds`, `allWorkspaces`, `optedOutWorkspaceIds`.
 */
function wide(p: PolicyOfPreview, c: PolicyChange): void {
  const lost = () => verdictOf(compareSides(settings(p.before), NOTHING));
  const gained = () => verdictOf(compareSides(NOTHING, settings(p.after)).map(tighter));
  if (p.op === "delete") {
    c.judged = compareSides(settings(p.before), NOTHING).filter((j) => j.direction !== "neutral");
    return;
  }
  if (!changed(p.op) || p.op === "import") return;
  c.judged = p.before
    ? compareSides(settings(p.before), settings(p.after))
    : compareSides(NOTHING, settings(p.after)).map((j) => ({ ...j, direction: "neutral" as const }));
  const all = (b: Bag | undefined) => b?.allWorkspaces === true;
  if (all(p.before) !== all(p.after))
    c.subjects.push(
      all(p.after)
        ? { text: `allWorkspaces: ${p.before ? "off → on" : "on"} (every workspace)`, verdict: gained() }
        : { text: "allWorkspaces: on → off, so every workspace it does not list loses it", verdict: lost() },
    );
  const list = (arg: "workspaceIds" | "optedOutWorkspaceIds", onAdd: string, onRemove: string, addLoosens: boolean) => {
    const [b, a] = [p.before?.[arg], p.after?.[arg]];
    if (isSecret(b) || isSecret(a)) {
      if (JSON.stringify(b) !== JSON.stringify(a))
        c.subjects.push({ text: `${arg} changed (secret)`, verdict: { direction: "unknown", gains: [] } });
      return;
    }
    const [was, now] = [new Set(Array.isArray(b) ? b : []), new Set(Array.isArray(a) ? a : [])];
    const added = [...now]
      .filter((w) => !was.has(w))
      .map(String)
      .sort();
    const removed = [...was]
      .filter((w) => !now.has(w))
      .map(String)
      .sort();
    // Opt-outs count only while it covers every workspace; listed workspaces only while it does not.
    const matters = arg === "optedOutWorkspaceIds" ? all(p.after) : !all(p.after);
    const ids = (xs: string[]) =>
      some(
        xs.map((x) => code(x)),
        50,
      );
    const none = {
      direction: "neutral" as const,
      gains: [],
      note: "not in force while allWorkspaces is " + String(all(p.after)),
    };
    if (added.length)
      c.subjects.push({ text: `${onAdd}: ${ids(added)}`, verdict: !matters ? none : addLoosens ? lost() : gained() });
    if (removed.length)
      c.subjects.push({
        text: `${onRemove}: ${ids(removed)}`,
        verdict: !matters ? none : addLoosens ? gained() : lost(),
      });
  };
  list("workspaceIds", "workspaces covered", "workspaces no longer covered", false);
  list("optedOutWorkspaceIds", "workspaces opted out", "workspaces no longer opted out", true);
}

/** A restriction added on top of what stays in force: never a loosening (the stricter rule wins). */
const tighter = (j: Judged): Judged =>
  j.direction === "loosening" || j.direction === "unknown" ? { ...j, direction: "tightening" } : j;

/** Whether any policy change loosens or may loosen. */
export const policiesLoosen = (cs: PolicyChange[]) => cs.some((c) => ["loosening", "unknown"].includes(directionOf(c)));

const directionOf = (c: PolicyChange) =>
  worst([...(c.op === "create" ? [] : c.judged), ...c.subjects.map((s) => s.verdict)].map((x) => x.direction));

const WHAT: Record<string, string> = {
  create: "new",
  update: "update",
  replace: "replace",
  delete: "**deleted**, with its assignments",
  same: "assignments only",
  import: "imported (adopted as it is on the service; nothing changes there)",
};

/** The opening line for policies: what loosens, by policy (empty when nothing may). */
export function policyOpening(cs: PolicyChange[]): string {
  const lines: string[] = [];
  for (const d of ["loosening", "unknown"] as const) {
    const items = cs
      .filter((c) => directionOf(c) === d)
      .map((c) => {
        const gains = [...(c.op === "create" ? [] : c.judged), ...c.subjects.flatMap((s) => s.verdict.gains)].filter(
          (j) => j.direction === d,
        );
        const who = c.subjects.filter((s) => s.verdict.direction === d).map((s) => s.text.split(":")[0]!);
        return `${c.label} (${some([...new Set([...gains.map(gainText), ...who])], 6)})`;
      });
    if (items.length)
      lines.push(
        d === "loosening"
          ? `**🔓 Guardrail Policies loosen**: ${some(items, 8, "; ")}`
          : `**❔ Guardrail Policies may loosen** (cannot tell from the preview): ${some(items, 8, "; ")}`,
      );
  }
  return lines.join("\n\n");
}

/** The policies' sections. */
export function policySections(cs: PolicyChange[]): string {
  const count = (op: string) => cs.filter((c) => c.op === op).length;
  const ops = ["create", "update", "replace", "delete", "import"].filter((op) => count(op) > 0);
  const total = `**Guardrail Policies: ${ops.length ? ops.map((op) => `${count(op)} ${op === "create" ? "created" : op === "import" ? "imported" : `${op}d`}`).join(", ") : "assignments only"}**`;
  const sections = cs.map((c) => {
    const d = directionOf(c);
    const head = `### ${c.label} (${code(c.logical)}): ${WHAT[c.op] ?? c.op}${c.op === "create" && !c.subjects.length ? "" : ` · ${MARK[d]}`}`;
    const byWorst = [...c.judged].sort((x, y) => DIRECTIONS.indexOf(x.direction) - DIRECTIONS.indexOf(y.direction));
    const rows = byWorst.map((j) =>
      c.op === "create" ? `- ${settingText(j)}` : `- ${MARK[j.direction]} · ${changeText(j)}`,
    );
    const who = c.subjects.map((s) => `- ${s.text}${verdictText(s.verdict)}`);
    return [head, rows.join("\n"), who.length ? `${c.heading}:\n${who.join("\n")}` : ""].filter(Boolean).join("\n\n");
  });
  return [total, ...sections].join("\n\n");
}
