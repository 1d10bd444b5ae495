/**
 * The effective-access part of the PR summary (issue 41): one line per member and key whose
 * effective access the preview changes, and each workspace default guardrail's reach; and the
 * guardrail sections' verdicts re-judged by effect. A move, a join or a guardrail's loosened
 * setting is flagged only where someone's effective access widens; where a layer cannot be
 * known at preview the guardrail-against-guardrail verdict stays, and the line says why. Every
 * id, name and model goes through the one neutraliser (core/text/markdown.ts).
 */
import type { Subject } from "../core/access";
import type { Direction } from "../core/fields/loosening";
import { nameCode } from "../core/text/names";
import type { PreviewStep } from "./input";
import { guardrailLabel, MARK, some } from "./marks";
import type { GuardrailChange, Verdict } from "./model";
import { sideOf } from "./set-sides";
import { guardrailsOf, typeOf } from "./steps";
import type { DefaultChange, EffectiveChange, LayerName } from "./effective";
import { idList, setIds, setRow } from "./effective-sides";
import type { ResourceTypeName } from "../core/kinds";

const LISTED_MAX = 30;
const who = (s: Subject) =>
  "member" in s ? `member ${nameCode(clip(s.member), 60)}` : `key ${nameCode(clip(s.key), 60)}`;
const keyOf = (s: Subject) => ("member" in s ? `member:${s.member}` : `key:${s.key}`);
const list = (xs: LayerName[]) =>
  some(
    xs.slice(0, 5).map((x) => guardrailLabel(clip(x.name), x.isDefault)),
    4,
  );

/** The direction of one subject's change: widens, cannot tell, narrows, or none. */
export function directionOf(c: EffectiveChange): Direction {
  // A layer that cannot be known may change what it gains: may loosen, never "loosens" nor harmless.
  if (c.unknown.length) return "unknown";
  if (c.gains.length) return "loosening";
  return c.losses.length ? "tightening" : "neutral";
}

/** Where the change comes from: the layers left and joined, else the layers whose settings change. */
function via(c: EffectiveChange): string {
  if (c.left.length || c.joined.length)
    return ` (${c.left.length ? list(c.left) : "no layer"} → ${c.joined.length ? list(c.joined) : "no layer"})`;
  return c.changed.length ? ` (${list(c.changed)} ${c.changed.length === 1 ? "changes" : "change"})` : "";
}

/** A string from outside, cut before it is neutralised (names.ts reads every character of it). */
const clip = (s: string) => (s.length > 240 ? s.slice(0, 240) : s);
const gains = (xs: string[]) =>
  some(
    xs.slice(0, 9).map((g) => nameCode(clip(g), 120)),
    8,
  ) + (xs.length > 9 ? ` (${xs.length} in all)` : "");

/** One subject's line, its subject written `{who}` so that subjects changing alike share a line. */
function line(c: EffectiveChange): string {
  const d = directionOf(c);
  const unknown = c.unknown.length
    ? `; cannot be known at preview: ${some(
        c.unknown.slice(0, 4).map((u) => nameCode(clip(u), 140)),
        3,
      )}`
    : "";
  const unseen = c.stable.length
    ? `; unless a layer not in this stack restricts it: ${some(
        c.stable.slice(0, 3).map((u) => nameCode(clip(u), 140)),
        2,
      )}`
    : "";
  if (d === "loosening") return `- ${MARK.loosening} · {who} gains ${gains(c.gains)}${via(c)}${unseen}`;
  if (d === "unknown")
    return `- ${MARK.unknown} · {who}${c.gains.length ? ` may gain ${gains(c.gains)}` : ""}${via(c)}: judged guardrail against guardrail in its section${unknown}`;
  if (d === "tightening")
    return `- ${MARK.tightening} · {who}${via(c)}: narrows (undoing it would grant ${gains(c.losses)})`;
  return `- ➖ no effective change · {who}${via(c)}: its other layers still decide what it can use`;
}

/** Subjects whose lines read alike, on one line: `member \`a\``, or `members \`a\`, \`b\`, … and 3 more`. */
function grouped(changes: EffectiveChange[]): string[] {
  const by = new Map<string, Subject[]>();
  for (const c of changes) {
    const text = line(c);
    const group = by.get(text);
    if (group) group.push(c.subject);
    else by.set(text, [c.subject]);
  }
  return [...by].map(([text, subjects]) => {
    const members = subjects.filter((s) => "member" in s);
    const keys = subjects.filter((s) => !("member" in s));
    const name = (xs: Subject[], noun: string) =>
      xs.length === 0
        ? []
        : [
            `${noun}${xs.length > 1 ? "s" : ""} ${some(
              xs.map((s) => who(s).replace(/^\w+ /, "")),
              5,
            )}`,
          ];
    return text.replace("{who}", [...name(members, "member"), ...name(keys, "key")].join(" and "));
  });
}

/** A workspace default guardrail's reach. */
function defaultLine(d: DefaultChange): string {
  const mark = d.gains.length ? MARK.loosening : d.losses.length ? MARK.tightening : MARK.neutral;
  const what = d.gains.length
    ? `grants ${gains(d.gains)}`
    : d.losses.length
      ? `takes away ${gains(d.losses)}`
      : "changes";
  const reaches = d.reaches.length ? `; of those this stack names: ${some(d.reaches.map(who), 8)}` : "";
  const spares = d.spares.length
    ? `; not ${some(
        d.spares.map(([s, on]) => `${who(s)} (on ${guardrailLabel(clip(on), false)})`),
        8,
      )}, who hold a guardrail of their own`
    : "";
  return `- ${mark} · ${guardrailLabel(clip(d.name), true)} ${what}: it reaches everyone of workspace ${nameCode(d.workspaceId, 60)} without a guardrail of their own${reaches}${spares}`;
}

/** The opening line's part for effective access: who gains, or may gain (empty when no one does). */
export function effectiveOpening(changes: EffectiveChange[], defaults: DefaultChange[]): string {
  const of = (d: Direction) => changes.filter((c) => directionOf(c) === d).map((c) => c.subject);
  const count = (xs: Subject[]) => {
    const m = xs.filter((s) => "member" in s).length;
    return `${m} member${m === 1 ? "" : "s"} and ${xs.length - m} key${xs.length - m === 1 ? "" : "s"}`;
  };
  const named = (xs: Subject[]) => `${some(xs.slice(0, 4).map(who), 3)}${xs.length > 4 ? ` (${count(xs)})` : ""}`;
  const wider = defaults.filter((d) => d.gains.length > 0).map((d) => guardrailLabel(clip(d.name), true));
  const [gain, maybe] = [of("loosening"), of("unknown")];
  const parts: string[] = [];
  if (gain.length || wider.length)
    parts.push(
      `**🔓 Effective access widens:** ${[...wider.map((w) => `everyone on ${w}`), ...(gain.length ? [named(gain)] : [])].join("; ")}`,
    );
  if (maybe.length)
    parts.push(`**❔ Effective access may widen** (a layer cannot be known at preview): ${named(maybe)}`);
  return parts.join(" · ");
}

/** The section, or "" when no one's effective access changes. */
export function effectiveSection(changes: EffectiveChange[], defaults: DefaultChange[]): string {
  if (changes.length + defaults.length === 0) return "";
  const order: Direction[] = ["loosening", "unknown", "tightening", "neutral"];
  const sorted = [...changes].sort(
    (a, b) =>
      order.indexOf(directionOf(a)) - order.indexOf(directionOf(b)) || keyOf(a.subject).localeCompare(keyOf(b.subject)),
  );
  const rows = grouped(sorted);
  const lines = [...defaults.map(defaultLine), ...rows.slice(0, LISTED_MAX)];
  if (rows.length > LISTED_MAX) lines.push(`- … and ${rows.length - LISTED_MAX} more line(s)`);
  return `### Effective access\n\nWhat each member and key can use after every layer applies (docs/effective-access.md):\n\n${lines.join("\n")}`;
}

/** The effective verdict of one subject, worst over its workspaces; undefined when it has none. */
function verdictFor(by: Map<string, EffectiveChange[]>, judged: Set<string>, key: string, old: Verdict): Verdict {
  const cs = by.get(key);
  // Not judged by effect (a set whose guardrail cannot be told names no one): the guardrail verdict stands.
  if (!cs && !judged.has(key)) return old;
  if (!cs) return { direction: "neutral", gains: [], note: "no effective change" };
  const worst =
    cs.find((c) => directionOf(c) === "loosening") ?? cs.find((c) => directionOf(c) === "unknown") ?? cs[0]!;
  const d = directionOf(worst);
  if (d === "unknown")
    return {
      ...old,
      note: [old.note, "a layer cannot be known at preview (see Effective access): judged guardrail against guardrail"]
        .filter(Boolean)
        .join("; "),
    };
  if (d === "loosening") return { direction: d, gains: [], note: `effective: gains ${gains(worst.gains)}` };
  if (d === "tightening") return { direction: d, gains: [], note: "effective: narrows" };
  return { direction: d, gains: [], note: "no effective change: its other layers still decide" };
}

/**
 * Re-judges the guardrail sections by effect: each id's verdict; and a guardrail's loosened
 * settings, when the stack lists everyone on it (exclusive member and key sets, readable) and
 * no one of them widens.
 */
export function applyEffective(
  all: GuardrailChange[],
  { changes, judged }: { changes: EffectiveChange[]; judged: Set<string> },
  steps: PreviewStep[],
): void {
  const by = new Map<string, EffectiveChange[]>();
  for (const c of changes) by.set(keyOf(c.subject), [...(by.get(keyOf(c.subject)) ?? []), c]);
  for (const g of all)
    for (const kind of ["members", "keys"] as const) {
      const noun = kind === "members" ? "member" : "key";
      for (const [id, v] of g.sets[kind].verdicts)
        g.sets[kind].verdicts.set(id, verdictFor(by, judged, `${noun}:${id}`, v));
    }
  const exclusive = exclusiveHolders(steps);
  for (const g of all) {
    const holders = exclusive.get(g.logical);
    if (g.isDefault || !holders || g.op === "create") continue;
    if (holders.some((k) => !judged.has(k))) continue;
    const widen = holders.some((k) =>
      (by.get(k) ?? []).some((c) => directionOf(c) !== "neutral" && directionOf(c) !== "tightening"),
    );
    if (widen) continue;
    for (const j of g.judged)
      if (j.direction === "loosening") {
        j.direction = "neutral";
        j.what = `${j.what}; no effective change for anyone on it (see Effective access)`;
      }
  }
}

/** Each guardrail whose member and key sets are both exclusive and readable after the preview: everyone on it, as subject keys. */
function exclusiveHolders(steps: PreviewStep[]): Map<string, string[]> {
  const { all: guardrails, byId } = guardrailsOf(steps);
  const found = new Map<string, Partial<Record<string, string[]>>>();
  for (const s of steps) {
    const t = typeOf(s.urn);
    const row = t === "" ? undefined : setRow(t);
    if (!row || s.op === "delete" || s.newState?.inputs?.exclusive !== true) continue;
    const on = sideOf(s.newState, byId, "after");
    const g = on !== undefined && guardrails.has(on) ? on : undefined;
    const ids = idList(setIds(s, "after", t as ResourceTypeName));
    if (!g || ids === undefined) continue;
    found.set(g, { ...found.get(g), [row.noun]: ids });
  }
  const out = new Map<string, string[]>();
  for (const [g, e] of found)
    if (e.member && e.key) out.set(g, [...e.member.map((m) => `member:${m}`), ...e.key.map((k) => `key:${k}`)]);
  return out;
}
