/**
 * Policy violations for the PR summary, from the engine's event log. `pulumi preview --json`
 * carries none (the CLI's JSON display drops policy events), so the workflow runs
 * `PULUMI_DEBUG_COMMANDS=1 pulumi preview --json --event-log FILE` and hands FILE to
 * `guardrails-preview-summary --event-log FILE`.
 *
 * The log is one JSON engine event per line. A line that is not JSON is counted and said, never
 * a silent pass; every string from it is neutralised (markdown.ts) because a policy message or
 * a resource name can carry anything a pull request wrote.
 */
import { code, text } from "../core/text/markdown";
import { lastNameOfUrn } from "../core/urn";

/** One reported violation. */
export interface PolicyViolation {
  urn: string;
  policyName: string;
  policyPack: string;
  level: "mandatory" | "advisory" | string;
  message: string;
}

/** What an event log says about policies: whether any pack ran, and the violations it reported. */
export interface PolicyEvents {
  /** Whether any policy pack ran (a load or analyze event was seen). */
  packsRan: boolean;
  violations: PolicyViolation[];
  /** Lines that were not JSON events. */
  unreadable: number;
}

/** Largest event log read, in bytes. */
export const MAX_EVENT_LOG_BYTES = 256 * 1024 * 1024;
/** Violations listed per level; the rest are counted. */
const LISTED_MAX = 50;

const CANT_RUN = /^can't run policy '[^']*' from policy pack '[^']*' during preview: /;
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** A line's JSON object, or undefined when the line is not JSON or not an object. */
function jsonObject(line: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  return parsed && typeof parsed === "object" && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}

/** Reads the policy events of an event log's text (JSON lines). */
export function readPolicyEvents(log: string): PolicyEvents {
  const out: PolicyEvents = { packsRan: false, violations: [], unreadable: 0 };
  const seen = new Set<string>();
  for (const line of log.split("\n")) {
    if (line.trim() === "") continue;
    const event = jsonObject(line);
    if (!event) {
      out.unreadable++;
      continue;
    }
    if (
      Object.keys(event).some((k) => /^policy(Load|AnalyzeSummary|AnalyzeStackSummary|RemediateSummary)Event$/.test(k))
    )
      out.packsRan = true;
    const p = event.policyEvent;
    if (!p || typeof p !== "object") continue;
    out.packsRan = true;
    const e = p as Record<string, unknown>;
    const v: PolicyViolation = {
      urn: str(e.resourceUrn),
      policyName: str(e.policyName) || "(unnamed policy)",
      policyPack: [str(e.policyPackName), str(e.policyPackVersion)].filter(Boolean).join("@"),
      level: str(e.enforcementLevel) || "advisory",
      message: str(e.message).trim(),
    };
    const key = JSON.stringify([v.urn, v.policyName, v.policyPack, v.level, v.message]);
    if (!seen.has(key)) seen.add(key), out.violations.push(v);
  }
  return out;
}

/** The order of levels in the summary: what blocks the merge first. */
const rank = (level: string) => (level === "mandatory" ? 0 : level === "advisory" ? 1 : 2);
const nameOf = (urn: string) => lastNameOfUrn(urn) || "(the stack)";

/** The Markdown section for the top of the PR summary. */
export function policySection(events: PolicyEvents): string {
  const { violations } = events;
  const mandatory = violations.filter((v) => v.level === "mandatory").length;
  const advisory = violations.length - mandatory;
  const unreadable = events.unreadable
    ? ` (${events.unreadable} line(s) of the event log were not JSON events and were skipped)`
    : "";
  if (!events.packsRan)
    return `**Policies: no policy pack ran** in this preview; organization rules were not checked.${unreadable}\n`;
  if (violations.length === 0) return `**Policies: no violations.**${unreadable}\n`;
  const head = `**Policies: ${mandatory} mandatory violation(s) (block the merge) · ${advisory} advisory**${unreadable}`;
  const sorted = [...violations].sort(
    (a, b) =>
      rank(a.level) - rank(b.level) ||
      a.policyName.localeCompare(b.policyName) ||
      nameOf(a.urn).localeCompare(nameOf(b.urn)),
  );
  const lines: string[] = [];
  for (const level of [...new Set(sorted.map((v) => v.level))]) {
    const of = sorted.filter((v) => v.level === level);
    for (const v of of.slice(0, LISTED_MAX)) {
      // The policy's description is the message's first line; the detail is what a reviewer needs.
      // CrossGuard's prefix on a "checked at up" advisory repeats the policy's name.
      const detail = (v.message.split("\n").slice(1).join(" ").trim() || v.message).replace(CANT_RUN, "");
      lines.push(`- **${text(level)}** ${code(v.policyName)} on ${code(nameOf(v.urn))}: ${text(detail, 300)}`);
    }
    if (of.length > LISTED_MAX) lines.push(`- … and ${of.length - LISTED_MAX} more ${text(level)}`);
  }
  return `${head}\n\n### Policy violations\n\n${lines.join("\n")}\n`;
}
