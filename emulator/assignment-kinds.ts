/**
 * What differs between member and key assignments in the emulator's store (rules 5 and 6 of
 * docs/api-contract.md).
 */
import { randomUUID } from "node:crypto";
import type { KeyAssignmentRecord, MemberAssignmentRecord, StoredGuardrail } from "./records";
import type { EmulatorData, Store } from "./store";

export type Row = (MemberAssignmentRecord | KeyAssignmentRecord) & { deleted?: boolean };

/**
 * What differs between member and key assignments: where the rows live, what names an
 * assignee, and the scope in which an assignee holds at most one guardrail (rules 5 and 6).
 */
export interface AssignmentKind {
  readonly name: "member" | "key";
  rows(data: EmulatorData): Row[];
  setRows(data: EmulatorData, rows: Row[]): void;
  assignee(row: Row): string;
  exists(store: Store, id: string): boolean;
  /** A member holds one guardrail per workspace; a key holds one at all. */
  scope(g: StoredGuardrail): string;
  makeRow(id: string, g: StoredGuardrail, data: EmulatorData, now: string): Row;
}

/** A kind from where its rows live in the store and which field of a row names the assignee, plus what it does. */
function kind(
  name: AssignmentKind["name"],
  list: "memberRows" | "keyRows",
  field: "user_id" | "key_hash",
  does: Pick<AssignmentKind, "exists" | "scope" | "makeRow">,
): AssignmentKind {
  return {
    name,
    rows: (d) => d[list],
    setRows: (d, rows) => {
      (d as Record<typeof list, Row[]>)[list] = rows;
    },
    assignee: (r) => (r as unknown as Record<typeof field, string>)[field],
    ...does,
  };
}

export const MEMBERS = kind("member", "memberRows", "user_id", {
  exists: (s, id) => s.isMember(id),
  // A legacy guardrail without a workspace (rule 10) is a scope of its own.
  scope: (g) => (typeof g.workspace_id === "string" ? g.workspace_id : "(none)"),
  makeRow: (id, g, d, now) => ({
    id: randomUUID(),
    user_id: id,
    organization_id: d.organizationId,
    guardrail_id: g.id,
    assigned_by: null,
    created_at: now,
  }),
});

export const KEYS = kind("key", "keyRows", "key_hash", {
  exists: (s, id) => s.isKey(id),
  scope: () => "*",
  makeRow: (hash, g, _d, now) => ({
    id: randomUUID(),
    key_hash: hash,
    guardrail_id: g.id,
    key_name: `key-${hash.slice(0, 8)}`,
    key_label: `sk-...${hash.slice(-3)}`,
    assigned_by: null,
    created_at: now,
  }),
});
