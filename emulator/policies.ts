/**
 * Workspace policies (docs/api-contract.md rules 22 to 27): list, create, get, replace and delete
 * of the three kinds, one workspace default per workspace and kind, opt-outs, and the overridden
 * lists. Bodies are validated by policy-validation.ts; what needs the data is checked here.
 */
import { randomUUID } from "node:crypto";
import { notFound } from "./http-error";
import { storedConfig } from "./policy-config";
import { policyDetail, policySummary, type PolicyType, type StoredPolicy } from "./policy-records";
import { checkSubjects } from "./policy-scope";
import type { CreatePolicyBody } from "./policy-validation";
import type { Store } from "./store";

const unique = (ids: string[] | undefined) => [...new Set(ids ?? [])];

export class Policies {
  constructor(readonly store: Store) {}

  private now(): string {
    return new Date().toISOString();
  }

  /** The workspace's policies of one kind, in creation order. */
  of(kind: PolicyType, ws: string): StoredPolicy[] {
    return this.store.policies().filter((p) => p.policy_type === kind && p.workspace_id === ws);
  }

  list(kind: PolicyType, ws: string, offset: number, limit: number) {
    const all = this.of(kind, ws);
    return { data: all.slice(offset, offset + limit).map(policySummary), total_count: all.length };
  }

  /** The policy, or 404: an unknown id, one of another kind, or one of another workspace (rule 33). */
  find(kind: PolicyType, ws: string, id: string): StoredPolicy {
    const p = this.store.policies().find((x) => x.id === id);
    if (!p || p.policy_type !== kind || p.workspace_id !== ws)
      throw notFound(`${kind} policy ${id} not found in workspace ${ws}`);
    return p;
  }

  detail(p: StoredPolicy) {
    return policyDetail(p, this.overridden(p));
  }

  /**
   * Rule 27: while `p` is the workspace default, the subjects that have a different policy of
   * its kind assigned directly. Choice: empty while it is not the default.
   */
  overridden(p: StoredPolicy): { members: string[]; keys: string[] } {
    if (!p.is_workspace_default) return { members: [], keys: [] };
    const others = this.of(p.policy_type, p.workspace_id).filter((x) => x.id !== p.id);
    const members = new Set(others.flatMap((x) => x.member_ids));
    const keys = new Set(others.flatMap((x) => x.api_key_hashes));
    return { members: [...members], keys: [...keys] };
  }

  create(kind: PolicyType, ws: string, body: CreatePolicyBody): StoredPolicy {
    this.checkLists(ws, body);
    const p: StoredPolicy = {
      id: randomUUID(),
      name: body.name,
      policy_type: kind,
      workspace_id: ws,
      config: storedConfig(kind, body.config, this.store.data.models),
      member_ids: unique(body.member_ids),
      api_key_hashes: unique(body.api_key_hashes),
      opted_out_member_ids: unique(body.opted_out_member_ids),
      opted_out_api_key_hashes: unique(body.opted_out_api_key_hashes),
      is_workspace_default: false,
      is_legacy_mapped: false,
      legacy_guardrail_ids: [],
      replaced_legacy_guardrail_ids: [],
      created_at: this.now(),
      updated_at: null,
    };
    this.store.policies().push(p);
    if (body.is_workspace_default === true) this.makeDefault(p);
    this.store.save();
    return p;
  }

  /**
   * Rule 24: name and config replaced whole; both assignment lists replaced when sent (never one
   * alone: validation), kept when omitted; an opt-out list or the default flag kept when omitted.
   * An edit through the policy API unmaps a legacy-mapped policy (rule 31).
   */
  update(kind: PolicyType, ws: string, id: string, body: CreatePolicyBody): StoredPolicy {
    const p = this.find(kind, ws, id);
    this.checkLists(ws, body);
    const config = storedConfig(kind, body.config, this.store.data.models);
    p.name = body.name;
    p.config = config;
    if (body.member_ids !== undefined) p.member_ids = unique(body.member_ids);
    if (body.api_key_hashes !== undefined) p.api_key_hashes = unique(body.api_key_hashes);
    if (body.opted_out_member_ids !== undefined) p.opted_out_member_ids = unique(body.opted_out_member_ids);
    if (body.opted_out_api_key_hashes !== undefined) p.opted_out_api_key_hashes = unique(body.opted_out_api_key_hashes);
    if (body.is_workspace_default === true) this.makeDefault(p);
    if (body.is_workspace_default === false) p.is_workspace_default = false;
    this.edited(p);
    this.store.save();
    return p;
  }

  delete(kind: PolicyType, ws: string, id: string): void {
    const p = this.find(kind, ws, id);
    this.edited(p);
    this.remove(p.id);
    this.store.save();
  }

  remove(id: string): void {
    this.store.data.policies = this.store.policies().filter((p) => p.id !== id);
  }

  /** Rule 27's choice: one default per workspace and kind; making one unsets the previous. */
  makeDefault(p: StoredPolicy): void {
    for (const other of this.of(p.policy_type, p.workspace_id)) other.is_workspace_default = other.id === p.id;
  }

  /**
   * A write through the policy API: `updated_at` moves, and a legacy-mapped policy stops following
   * its guardrails (rule 31's choice): `is_legacy_mapped` false, `legacy_guardrail_ids` kept, and
   * each guardrail remembers that this kind is no longer its to write.
   */
  edited(p: StoredPolicy): void {
    p.updated_at = this.now();
    if (!p.is_legacy_mapped) return;
    p.is_legacy_mapped = false;
    this.store.data.detachedKinds ??= {};
    const detached = this.store.data.detachedKinds;
    for (const gid of p.legacy_guardrail_ids) detached[gid] = [...new Set([...(detached[gid] ?? []), p.policy_type])];
  }

  private checkLists(ws: string, body: CreatePolicyBody): void {
    checkSubjects(this.store, ws, [
      { field: "member_ids", ids: body.member_ids, kind: "member" },
      { field: "api_key_hashes", ids: body.api_key_hashes, kind: "key" },
      { field: "opted_out_member_ids", ids: body.opted_out_member_ids, kind: "member" },
      { field: "opted_out_api_key_hashes", ids: body.opted_out_api_key_hashes, kind: "key" },
    ]);
  }
}
