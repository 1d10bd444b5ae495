/**
 * Workspace-wide ("account") policies (docs/api-contract.md rule 28): list, create, replace and
 * delete, with their workspace coverage. They belong to the organization, not to a workspace.
 */
import { randomUUID } from "node:crypto";
import { badRequest, notFound } from "./http-error";
import { storedConfig } from "./policy-config";
import { accountRecord, type StoredAccountPolicy } from "./policy-records";
import type { AccountBody } from "./policy-validation";
import type { Store } from "./store";

export class AccountPolicies {
  constructor(private readonly store: Store) {}

  private get workspaces(): string[] {
    return this.store.data.workspaces;
  }

  record(p: StoredAccountPolicy) {
    return accountRecord(p, this.workspaces);
  }

  list(offset: number, limit: number) {
    const all = this.store.accountPolicies();
    return { data: all.slice(offset, offset + limit).map((p) => this.record(p)), total_count: all.length };
  }

  find(id: string): StoredAccountPolicy {
    const p = this.store.accountPolicies().find((x) => x.id === id);
    if (!p) throw notFound(`workspace-wide policy ${id} not found`);
    return p;
  }

  create(body: AccountBody): StoredAccountPolicy {
    this.checkWorkspaces(body);
    const p: StoredAccountPolicy = {
      id: randomUUID(),
      name: body.name,
      policy_type: body.policy_type,
      config: storedConfig(body.policy_type, body.config, this.store.data.models),
      workspace_ids: [...new Set(body.workspace_ids ?? [])],
      opted_out_workspace_ids: [...new Set(body.opted_out_workspace_ids ?? [])],
      is_default: body.is_default ?? false,
      created_at: new Date().toISOString(),
      updated_at: null,
    };
    this.store.accountPolicies().push(p);
    this.store.save();
    return p;
  }

  /**
   * Replaces name, config and coverage ("replace a workspace-wide policy and its workspace
   * coverage"). Choice: a coverage field the body omits is kept; `policy_type` cannot change (400).
   */
  update(id: string, body: AccountBody): StoredAccountPolicy {
    const p = this.find(id);
    if (body.policy_type !== p.policy_type)
      throw badRequest(
        `policy_type: cannot change (policy ${id} is a ${p.policy_type} policy, got "${body.policy_type}")`,
      );
    this.checkWorkspaces(body);
    p.config = storedConfig(p.policy_type, body.config, this.store.data.models);
    p.name = body.name;
    if (body.workspace_ids !== undefined) p.workspace_ids = [...new Set(body.workspace_ids)];
    if (body.opted_out_workspace_ids !== undefined)
      p.opted_out_workspace_ids = [...new Set(body.opted_out_workspace_ids)];
    if (body.is_default !== undefined) p.is_default = body.is_default;
    p.updated_at = new Date().toISOString();
    this.store.save();
    return p;
  }

  delete(id: string): void {
    this.find(id);
    this.store.data.accountPolicies = this.store.accountPolicies().filter((p) => p.id !== id);
    this.store.save();
  }

  /** Every workspace id a body names must exist: 400 naming each one that does not. */
  private checkWorkspaces(body: AccountBody): void {
    const problems: string[] = [];
    for (const field of ["workspace_ids", "opted_out_workspace_ids"] as const)
      (body[field] ?? []).forEach((w, i) => {
        if (!this.workspaces.includes(w)) problems.push(`${field}[${i}]: unknown workspace "${w}"`);
      });
    if (problems.length > 0) throw badRequest(problems.join("; "));
  }
}
