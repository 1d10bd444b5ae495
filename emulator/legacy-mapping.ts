/**
 * The legacy mapping (docs/api-contract.md rules 29 to 31): each guardrail also appears as up to
 * three policies, one per kind it sets, in its workspace, assigned to its members and keys. A
 * guardrail write flows into each kind still mapped; a kind edited or deleted through the policy
 * API (policies.ts `edited`) no longer receives it; deleting the guardrail deletes its still-mapped
 * policies. A workspace's default guardrail is not mapped (choice: it is in force on its own, rule 18).
 */
import { randomUUID } from "node:crypto";
import { KEYS, MEMBERS, type AssignmentKind } from "./assignment-kinds";
import type { Policies } from "./policies";
import { configOfGuardrail } from "./policy-config";
import { POLICY_TYPES, type PolicyType, type StoredPolicy } from "./policy-records";
import type { OperationName } from "./routes";
import type { Store } from "./store";
import type { Workspaces } from "./workspaces";

const ASSIGNS = new Set<OperationName>(["assignKeys", "unassignKeys", "assignMembers", "unassignMembers"]);

export class LegacyMapping {
  constructor(
    private readonly store: Store,
    private readonly policies: Policies,
    private readonly workspaces: Workspaces,
  ) {}

  /** Follows a guardrail operation that succeeded: creates, updates, assignment changes and deletes. */
  afterGuardrailWrite(operation: OperationName, rawId: string | undefined, body: unknown, result: unknown): void {
    if (operation === "createGuardrail") this.sync((result as { data: { id: string } }).data.id);
    else if (operation === "updateGuardrail" && rawId) this.sync(rawId);
    else if (operation === "deleteGuardrail" && rawId) this.forget(rawId);
    if (!ASSIGNS.has(operation) || !rawId) return;
    this.sync(rawId);
    // An assignment moves a member or key off another guardrail (rules 5 and 6): follow those too.
    const ids = new Set(Object.values(body as Record<string, string[]>).flat());
    const others = new Set<string>();
    for (const p of this.mapped())
      if ([...p.member_ids, ...p.api_key_hashes].some((x) => ids.has(x)))
        for (const gid of p.legacy_guardrail_ids) if (gid !== rawId) others.add(gid);
    for (const gid of others) this.sync(gid);
  }

  /** The policies still mapped from some guardrail. */
  private mapped(): StoredPolicy[] {
    return this.store.policies().filter((p) => p.is_legacy_mapped);
  }

  private mappedOf(gid: string, kind: PolicyType): StoredPolicy | undefined {
    return this.mapped().find((p) => p.policy_type === kind && p.legacy_guardrail_ids.includes(gid));
  }

  /** Writes the guardrail's current settings, members and keys into each kind still mapped. */
  sync(gid: string): void {
    const g = this.store.guardrail(gid);
    if (!g || this.workspaces.ownerOfDefault(gid) !== undefined) return;
    const detached = this.store.data.detachedKinds?.[gid] ?? [];
    const members = this.assignees(MEMBERS, gid);
    const keys = this.assignees(KEYS, gid);
    const now = new Date().toISOString();
    for (const kind of POLICY_TYPES) {
      if (detached.includes(kind)) continue;
      const existing = this.mappedOf(gid, kind);
      const config = configOfGuardrail(kind, g);
      if (!config) {
        if (existing) this.policies.remove(existing.id);
        continue;
      }
      const p =
        existing ?? this.create(kind, gid, typeof g.workspace_id === "string" ? g.workspace_id : undefined, now);
      p.name = g.name;
      p.config = config;
      p.member_ids = members;
      p.api_key_hashes = keys;
      if (existing) p.updated_at = now;
    }
    this.store.save();
  }

  /** Deleting a guardrail deletes the policies still mapped from it; the ones edited since stay. */
  private forget(gid: string): void {
    for (const kind of POLICY_TYPES) {
      const p = this.mappedOf(gid, kind);
      if (p) this.policies.remove(p.id);
    }
    if (this.store.data.detachedKinds) delete this.store.data.detachedKinds[gid];
    this.store.save();
  }

  private create(kind: PolicyType, gid: string, ws: string | undefined, now: string): StoredPolicy {
    const p: StoredPolicy = {
      id: randomUUID(),
      name: "",
      policy_type: kind,
      // A guardrail older than workspaces (rule 10) maps into the default workspace.
      workspace_id: ws ?? this.store.data.defaultWorkspaceId,
      config: {},
      member_ids: [],
      api_key_hashes: [],
      opted_out_member_ids: [],
      opted_out_api_key_hashes: [],
      is_workspace_default: false,
      is_legacy_mapped: true,
      legacy_guardrail_ids: [gid],
      replaced_legacy_guardrail_ids: [],
      created_at: now,
      updated_at: null,
    };
    this.store.policies().push(p);
    return p;
  }

  private assignees(kind: AssignmentKind, gid: string): string[] {
    return kind
      .rows(this.store.data)
      .filter((r) => !r.deleted && r.guardrail_id === gid)
      .map((r) => kind.assignee(r));
  }
}
