/**
 * Who a policy of the preview holds, judged (policies.ts's header says how): members and keys
 * joining or leaving, opt-outs, the default flag, and a workspace-wide policy's coverage.
 */
import { code } from "../core/text/markdown";
import { compareSides, type Side } from "./judge";
import { some } from "./marks";
import { verdictOf, type Verdict } from "./model";
import { verdictText } from "./render";
import { changed } from "./steps";
import { isOpaque } from "./values";

import {
  type Bag,
  type LISTS,
  type PolicyOfPreview,
  type SubjectLine,
  type PolicyChange,
  ids,
  isDefault,
  defaultOpaque,
  settings,
  NOTHING,
  tighter,
} from "./policy-model";

/** The stack's default of the kind in the policy's workspace, on one side (`before` or `after`), other than `p`. */
const defaultOf = (peers: PolicyOfPreview[], side: "before" | "after") => {
  const fits = peers.filter((o) => isDefault(o[side]));
  return fits.length === 1 ? fits[0] : undefined;
};

/** A default that stops being one: those inheriting it fall to the stack's new default of the kind, else to nothing. */
export function lostDefault(p: PolicyOfPreview, peers: PolicyOfPreview[], how: string): SubjectLine {
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
export function defaultFlag(p: PolicyOfPreview, peers: PolicyOfPreview[], c: PolicyChange): void {
  if (defaultOpaque(p.after) && !isDefault(p.before)) {
    c.subjects.push({
      text: "workspaceDefault not known until apply",
      verdict: {
        direction: "unknown",
        gains: [],
        note: "it may take over from the workspace's current default of its kind: counted as a loosening until a preview shows both",
      },
    });
    return;
  }
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

/** One line per verdict for the ids of `xs` a list gains or loses (`what`), each id judged. */
function pushGrouped(c: PolicyChange, noun: string, what: string, xs: string[], judge: (id: string) => Verdict) {
  const byVerdict = new Map<string, { ids: string[]; verdict: Verdict }>();
  for (const id of xs) {
    const v = judge(id);
    const g = byVerdict.get(verdictText(v)) ?? { ids: [], verdict: v };
    g.ids.push(id);
    byVerdict.set(verdictText(v), g);
  }
  for (const g of byVerdict.values())
    c.subjects.push({
      text: `${noun}${g.ids.length > 1 ? "s" : ""} ${what}: ${some(
        g.ids.map((x) => code(x)),
        50,
      )}`,
      verdict: g.verdict,
    });
}

/** The ids a list gains and loses, each judged. */
export function subjects(
  p: PolicyOfPreview,
  peers: PolicyOfPreview[],
  list: (typeof LISTS)[number],
  c: PolicyChange,
): void {
  const [b, a] = [ids(p.before, list.arg), ids(p.after, list.arg)];
  if (a === undefined && (p.op !== "create" || b === undefined)) return; // not managed: left alone
  if (b === "secret" || a === "secret") {
    c.subjects.push({
      text: `${list.arg} changed (the list is secret: its contents are not shown)`,
      verdict: { direction: "unknown", gains: [] },
    });
    return;
  }
  if (b === "unknown" || a === "unknown") {
    c.subjects.push({
      text: `${list.arg} not known until apply`,
      verdict: { direction: "unknown", gains: [], note: "anyone it held may leave it" },
    });
    return;
  }
  const was = new Set(b ?? []);
  const now = new Set(a ?? []);
  const added = [...now].filter((id) => !was.has(id)).sort();
  const removed = [...was].filter((id) => !now.has(id)).sort();
  const group = (what: string, xs: string[], judge: (id: string) => Verdict) =>
    pushGrouped(c, list.noun, what, xs, judge);
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
export function wide(p: PolicyOfPreview, c: PolicyChange): void {
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
    // A list, or the dynamic face's map `{id: true}` (core/policies/id-maps.ts), read as its ids.
    const [b, a] = [ids(p.before, arg), ids(p.after, arg)];
    if (b === "secret" || a === "secret") {
      if (JSON.stringify(p.before?.[arg]) !== JSON.stringify(p.after?.[arg]))
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
    // Opt-outs count only while it covers every workspace; listed workspaces only while it does
    // not; both may, while allWorkspaces is secret or not known until apply.
    const opaque = isOpaque(p.after?.allWorkspaces);
    const matters = opaque || (arg === "optedOutWorkspaceIds" ? all(p.after) : !all(p.after));
    const named = (xs: string[]) =>
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
      c.subjects.push({ text: `${onAdd}: ${named(added)}`, verdict: !matters ? none : addLoosens ? lost() : gained() });
    if (removed.length)
      c.subjects.push({
        text: `${onRemove}: ${named(removed)}`,
        verdict: !matters ? none : addLoosens ? gained() : lost(),
      });
  };
  list("workspaceIds", "workspaces covered", "workspaces no longer covered", false);
  list("optedOutWorkspaceIds", "workspaces opted out", "workspaces no longer opted out", true);
}

/** A restriction added on top of what stays in force: never a loosening (the stricter rule wins). */
