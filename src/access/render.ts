/**
 * The human output of `guardrails-access`: columns that line up, and every string from outside
 * (a service's names and ids, a state's, the query as typed) neutralised and bounded by
 * core/text (`visible`, `idText`), so no name can move the cursor, colour the terminal, reorder
 * the text or forge a line.
 */
import type { EffectiveAccess, LayerRef, Reason } from "../core/access";
import { escapeInvisible } from "../core/text/controls";
import { displayWidth, idText, visible } from "../core/text/terminal";
import type { ExplainAnswer, SubjectVerdict, WhoAnswer, WhoRow } from "./answers";

const NAME_MAX = 60;

/** Rows padded into columns two spaces apart (widths in terminal columns; cells are neutralised already). */
export function columns(rows: readonly string[][], indent = "  "): string {
  const width = displayWidth;
  const widths: number[] = [];
  for (const r of rows) for (const [i, c] of r.entries()) widths[i] = Math.max(widths[i] ?? 0, width(c));
  return rows
    .map((r) =>
      `${indent}${r.map((c, i) => (i === r.length - 1 ? c : c + " ".repeat(widths[i]! - width(c)))).join("  ")}`.trimEnd(),
    )
    .map((l) => `${l}\n`)
    .join("");
}

/** A layer as a row: its kind, its name (neutralised) and its id. */
const layerCells = (l: LayerRef): string[] => [
  l.kind + (l.policyKind ? ` (${l.policyKind}${l.via ? `, via ${l.via}` : ""})` : ""),
  l.name === null ? "(no name)" : JSON.stringify(visible(l.name, NAME_MAX)),
  idText(l.id),
];
const layerWord = (l: LayerRef) => `${l.kind}${l.name === null ? "" : ` ${JSON.stringify(visible(l.name, NAME_MAX))}`}`;
const ids = (xs: readonly string[]) => (xs.length === 0 ? "none" : xs.map((x) => idText(x)).join(", "));

/** The effective access, one line per part, each with the layers it comes from. */
export function accessLines(a: EffectiveAccess): string[][] {
  const allow = (what: string, l: EffectiveAccess["allowedModels"]) => [
    what,
    l.allowed === null ? "any (no layer restricts)" : ids(l.allowed),
    l.restrictedBy.map((r) => layerWord(r.layer)).join("; "),
  ];
  const deny = (what: string, d: EffectiveAccess["ignoredModels"]) =>
    d.entries.length === 0
      ? [[what, "none", ""]]
      : d.entries.map((e) => [what, idText(e.id), e.from.map(layerWord).join("; ")]);
  const zdr = Object.entries(a.zdr).filter(([, e]) => e.enforced);
  const off = Object.entries(a.permissions).filter(([, p]) => p.value === false);
  return [
    allow("allowed models", a.allowedModels),
    ...deny("ignored models", a.ignoredModels),
    allow("allowed providers", a.allowedProviders),
    ...deny("ignored providers", a.ignoredProviders),
    allow("data regions", a.allowedDataRegions),
    ...(zdr.length === 0
      ? [["zero data retention", "not enforced", ""]]
      : zdr.map(([g, e]) => ["zero data retention", `enforced: ${g}`, e.by.map(layerWord).join("; ")])),
    ...off.map(([p, v]) => [p, "off", v.decidedBy.map(layerWord).join("; ")]),
    ...a.builtinFilters.map((f) => [
      "content filter",
      `${idText(f.slug)}: ${idText(f.action)}`,
      f.actionFrom.map(layerWord).join("; "),
    ]),
    ...(a.customFilters.length > 0 ? [["custom filters", `${a.customFilters.length} (all apply)`, ""]] : []),
    ...(a.budgets.length === 0
      ? [["budgets", "none", ""]]
      : a.budgets.map((b) => [
          "budget",
          `${b.limitUsd ?? "no limit"} USD ${idText(b.resetInterval ?? "no interval")}`,
          layerWord(b.from),
        ])),
  ];
}

const reasonCells = (r: Reason): string[] => [
  r.about,
  r.denies ? "denies" : "permits",
  visible(r.says, 80),
  r.layers.length === 0 ? "" : r.layers.map(layerWord).join("; "),
];

const verdictWord = (v: SubjectVerdict) =>
  !v.allowed ? "DENIED" : v.certain ? "ALLOWED" : "ALLOWED as far as is known";

const queryText = (q: { model?: string; provider?: string; region?: string }) =>
  (["model", "provider", "region"] as const)
    .filter((k) => q[k] !== undefined)
    .map((k) => `${k} ${JSON.stringify(visible(q[k]!, 80))}`)
    .join(", ");

/** `explain`'s human output. */
export function renderExplain(a: ExplainAnswer): string {
  const who =
    "memberId" in a.subject
      ? `member ${idText(a.subject.memberId)}`
      : `key ${idText(a.subject.keyHash)} (owner: ${a.subject.ownerMemberId === null ? "not known" : idText(a.subject.ownerMemberId)})`;
  let out = `${who} in workspace ${idText(a.workspaceId)}, from the ${a.source === "service" ? "service" : "stack's state"}\n`;
  if (a.verdict && a.query) {
    out += `\n${queryText(a.query)}: ${verdictWord(a.verdict)}\n`;
    out += columns(a.verdict.deciding.map(reasonCells));
  } else out += `\neffective access:\n${columns(accessLines(a.access))}`;
  if (a.verdict && a.conditions.length > 0)
    out += `\nconditions on every request let through:\n${columns(a.conditions.map((c) => [visible(c, 160)]))}`;
  out += `\nlayers (${a.layers.length}):\n${a.layers.length === 0 ? "  none\n" : columns(a.layers.map(layerCells))}`;
  return out + a.notes.map((n) => `\nnote: ${n}`).join("") + (a.notes.length > 0 ? "\n" : "");
}

const rowId = (r: WhoRow, noun: string) => (r.id === null ? `any other ${noun}` : idText(r.id));
const denyingLayers = (r: WhoRow) => [...new Set(r.deciding.flatMap((d) => d.layers).map(layerWord))].join("; ");

/** `who`'s human output; `all`: the subjects that cannot reach it too, each with what denies it. */
export function renderWho(a: WhoAnswer, all: boolean): string {
  const tagged = [...a.members.map((r) => ({ noun: "member", r })), ...a.keys.map((r) => ({ noun: "key", r }))];
  const section = (title: string, rows: typeof tagged, cells: (t: (typeof tagged)[number]) => string[]) =>
    rows.length === 0 ? `\n${title}: none\n` : `\n${title} (${rows.length}):\n${columns(rows.map(cells))}`;
  const plain = (t: (typeof tagged)[number]) => [t.noun, rowId(t.r, t.noun)];
  const reach = tagged.filter((t) => t.r.allowed && t.r.certain);
  const maybe = tagged.filter((t) => t.r.allowed && !t.r.certain);
  const denied = tagged.filter((t) => !t.r.allowed);
  const source = a.source === "service" ? "service" : "stack's state";
  let out = `who can reach ${queryText(a.query)} in workspace ${idText(a.workspaceId)}, from the ${source}\n`;
  out += section("can reach it", reach, plain);
  out += section("may reach it (allowed by every layer known; a layer that is not known may deny)", maybe, plain);
  if (all) out += section("cannot reach it", denied, (t) => [...plain(t), denyingLayers(t.r)]);
  else
    out += `\ncannot reach it: ${denied.filter((t) => t.noun === "member").length} member(s), ${denied.filter((t) => t.noun === "key").length} key(s) (--all lists them, each with what denies it)\n`;
  return `${out}${a.notes.map((n) => `\nnote: ${n}`).join("")}\n`;
}

/**
 * The `--json` answer: every string exactly as the service (or the state) holds it, for a
 * script, but no invisible character raw (a bidi control, DEL, C1, a line separator): JSON's
 * `\u` escape instead, which a parser reads back as the same text. JSON.stringify escapes only
 * C0 inside strings, so the only raw control left is its own line breaks, kept.
 */
export function renderJson(answer: ExplainAnswer | WhoAnswer): string {
  return `${JSON.stringify(answer, null, 2).split("\n").map(escapeInvisible).join("\n")}\n`;
}
