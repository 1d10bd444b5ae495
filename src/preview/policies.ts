import { code } from "../core/text/markdown";
import { nameCode } from "../core/text/names";
import type { PreviewStep } from "./input";
import { compareSides } from "./judge";
import { changeText, gainText, MARK, settingText, some } from "./marks";
import { DIRECTIONS, worst } from "./model";
import { verdictText } from "./render";
import { changed, nameOf } from "./steps";

import {
  LISTS,
  type PolicyOfPreview,
  type PolicyChange,
  WIDE,
  str,
  policyType,
  nounOf,
  isDefault,
  settings,
  NOTHING,
  type Bag,
} from "./policy-model";
import { isSecret } from "./values";
import { lostDefault, defaultFlag, subjects, wide } from "./policy-subjects";

/** The workspace policies of the preview, by logical name. */
function policiesOf(steps: PreviewStep[]): PolicyOfPreview[] {
  const all = new Map<string, PolicyOfPreview>();
  // By URN: two policies of one logical name under different parents are two policies.
  for (const s of steps) {
    const type = policyType(s.urn);
    if (!type) continue;
    const logical = nameOf(s.urn);
    if (!changed(s.op) && all.has(s.urn)) continue;
    const op = changed(s.op) ? s.op : "same";
    const before = s.op === "create" || !s.oldState ? undefined : (s.oldState.inputs ?? {});
    const after = s.op === "delete" ? undefined : (s.newState?.inputs ?? before);
    const name = after?.name ?? before?.name;
    const workspace =
      str(s.oldState?.outputs?.workspaceId) ?? str(s.newState?.inputs?.workspaceId) ?? str(before?.workspaceId);
    all.set(s.urn, {
      logical,
      type,
      name: typeof name === "string" ? name : name === undefined ? logical : "[secret]",
      op,
      workspace,
      before,
      after,
      moved: movedFrom(before, after),
    });
  }
  return [...all.values()];
}

/**
 * The workspace a policy leaves, when its `workspaceId` changes (a replace): the id as the
 * program last gave it. A slug for the same id reads as a move too (a loosening until proven
 * otherwise); a value not known until apply or secret is a move that cannot be told.
 */
function movedFrom(before: Bag | undefined, after: Bag | undefined): string | undefined {
  if (!before || !after) return undefined;
  const [b, a] = [before.workspaceId, after.workspaceId];
  if (a === undefined || JSON.stringify(a) === JSON.stringify(b)) return undefined;
  return typeof b === "string" && !isSecret(b) ? b : "(secret)";
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
    } else if (p.moved !== undefined && changed(p.op)) {
      // Everyone it held in the workspace it leaves loses it, whatever the new one gains.
      c.judged = compareSides(settings(p.before), NOTHING).filter((j) => j.direction !== "neutral");
      c.subjects.push({
        text: `moves out of workspace ${code(p.moved, 80)}, so everyone it holds or covers as the default there loses it`,
        verdict: { direction: c.judged.length ? "loosening" : "unknown", gains: [] },
      });
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
