/**
 * Indexes over the assignment rows, so a walk of 1,000 pages and 200 bulk calls in a row stay
 * linear at 100,000 rows (issue 29's bench): the rows a list shows, by guardrail, and the live
 * rows by assignee. Each is valid while its kind's rows are the same array at the same version;
 * a removal (`changed`) and a store reset (a new array) drop them, an assign extends them
 * (`appended`). Answers are the naive scan's: test/emulator/assignment-index.test.ts.
 */
import type { AssignmentKind, Row } from "./assignment-kinds";
import type { EmulatorData } from "./store";

interface Entry {
  version: number;
  /** The rows array the entry was built from. */
  of: Row[];
}

export class AssignmentIndex {
  private version: Record<AssignmentKind["name"], number> = { member: 0, key: 0 };
  private lists = new Map<string, Entry & { rows: Row[] }>();
  private live = new Map<string, Entry & { byAssignee: Map<string, Row[]> }>();

  constructor(private readonly data: () => EmulatorData) {}

  private valid(kind: AssignmentKind, entry: Entry | undefined): entry is Entry {
    return entry !== undefined && entry.version === this.version[kind.name] && entry.of === kind.rows(this.data());
  }

  /** The rows a list of `guardrailId` (every guardrail when undefined) counts, in stored order. */
  listed(kind: AssignmentKind, guardrailId: string | undefined, tombstones: boolean): Row[] {
    const key = `${kind.name}\0${tombstones}\0${guardrailId ?? ""}`;
    const hit = this.lists.get(key);
    if (this.valid(kind, hit)) return hit!.rows;
    if (this.lists.size >= 256) this.lists.clear();
    const of = kind.rows(this.data());
    const rows = of.filter(
      (r) => (tombstones || !r.deleted) && (guardrailId === undefined || r.guardrail_id === guardrailId),
    );
    this.lists.set(key, { version: this.version[kind.name], of, rows });
    return rows;
  }

  /** Live (not deleted) rows by assignee. */
  liveRows(kind: AssignmentKind): Map<string, Row[]> {
    const hit = this.live.get(kind.name);
    if (this.valid(kind, hit)) return hit!.byAssignee;
    const of = kind.rows(this.data());
    const byAssignee = new Map<string, Row[]>();
    for (const row of of) if (!row.deleted) addTo(byAssignee, kind.assignee(row), row);
    this.live.set(kind.name, { version: this.version[kind.name], of, byAssignee });
    return byAssignee;
  }

  /** After `added` (rows of guardrail `guardrailId`) were pushed: extend the indexes still valid, drop the rest. */
  appended(kind: AssignmentKind, guardrailId: string, added: Row[]): void {
    const before = this.version[kind.name];
    const after = ++this.version[kind.name];
    const current = (e: Entry) => e.version === before && e.of === kind.rows(this.data());
    for (const [key, e] of this.lists) {
      if (!key.startsWith(`${kind.name}\0`) || !current(e)) continue;
      const of = key.slice(key.lastIndexOf("\0") + 1);
      if (of === "" || of === guardrailId) e.rows.push(...added);
      e.version = after;
    }
    const e = this.live.get(kind.name);
    if (e && current(e)) {
      for (const row of added) addTo(e.byAssignee, kind.assignee(row), row);
      e.version = after;
    }
  }

  /** Before rows of `kind` are removed or marked deleted: every index of the kind is dropped. */
  changed(kind: AssignmentKind): void {
    this.version[kind.name]++;
    for (const key of this.lists.keys()) if (key.startsWith(`${kind.name}\0`)) this.lists.delete(key);
    this.live.delete(kind.name);
  }
}

function addTo(map: Map<string, Row[]>, key: string, row: Row): void {
  const rows = map.get(key);
  if (rows) rows.push(row);
  else map.set(key, [row]);
}
