/**
 * The emulator's data: workspaces, organization members, key hashes, the model catalogue,
 * guardrails and assignment rows. Persisted to `--state-file` atomically (temp file + rename).
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { CatalogueModel } from "./catalogue";
import type { StoredAccountPolicy, StoredPolicy } from "./policy-records";
import { NEW_IN_RULE_13, type KeyAssignmentRecord, type MemberAssignmentRecord, type StoredGuardrail } from "./records";

/**
 * The state file's format. 2 added the fields of docs/api-contract.md rule 13; a file without a
 * version is filled in on load, once, so a hand-shaped guardrail of a newer file is never touched.
 */
export const DATA_VERSION = 2;

/** An assignment row; `deleted` rows are kept only while tombstones are on (short pages). */
type Row<T> = T & { deleted?: boolean };

/** A workspace's own fields (rule 17); a workspace without an entry has names derived from its place. */
export interface WorkspaceInfo {
  name: string;
  slug: string;
  description: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface EmulatorData {
  version?: number;
  organizationId: string;
  defaultWorkspaceId: string;
  workspaces: string[];
  /** Fields of workspaces added or kept by the admin endpoint, by id. */
  workspaceInfo?: Record<string, WorkspaceInfo>;
  members: string[];
  keyHashes: string[];
  models: CatalogueModel[];
  guardrails: StoredGuardrail[];
  memberRows: Row<MemberAssignmentRecord>[];
  keyRows: Row<KeyAssignmentRecord>[];
  /** Workspace policies (docs/api-contract.md rules 22 to 31); absent in a file older than them. */
  policies?: StoredPolicy[];
  /** Workspace-wide ("account") policies (rule 28). */
  accountPolicies?: StoredAccountPolicy[];
  /** Admin-set facts about a key hash: the one workspace it belongs to, and the member who owns it. */
  keyInfo?: Record<string, { workspace_id?: string; member_user_id?: string }>;
  /** Per guardrail id, the policy kinds edited or deleted through the policy API: its writes no longer flow there (rule 31). */
  detachedKinds?: Record<string, string[]>;
}

export interface SeedData {
  defaultWorkspaceId?: string;
  workspaces?: string[];
  members?: string[];
  keyHashes?: string[];
  models: CatalogueModel[];
}

export function freshData(seed: SeedData): EmulatorData {
  const defaultWorkspaceId = seed.defaultWorkspaceId ?? randomUUID();
  return {
    version: DATA_VERSION,
    organizationId: "org_emulator",
    defaultWorkspaceId,
    workspaces: [defaultWorkspaceId, ...(seed.workspaces ?? []).filter((w) => w !== defaultWorkspaceId)],
    members: [...new Set(seed.members ?? [])],
    keyHashes: [...new Set(seed.keyHashes ?? [])],
    models: seed.models,
    guardrails: [],
    memberRows: [],
    keyRows: [],
    policies: [],
    accountPolicies: [],
  };
}

/** The store: data plus the indexes that keep bulk calls linear at 10,000 members. */
export class Store {
  data: EmulatorData;
  private guardrailIndex = new Map<string, StoredGuardrail>();
  private memberSet = new Set<string>();
  private keySet = new Set<string>();

  constructor(
    data: EmulatorData,
    private readonly stateFile?: string,
  ) {
    this.data = data;
    this.reindex();
  }

  /** Loads `stateFile` if it exists, else starts from `seed`. */
  static open(seed: SeedData, stateFile?: string): Store {
    if (stateFile && existsSync(stateFile)) {
      return new Store(upgrade(JSON.parse(readFileSync(stateFile, "utf8")) as EmulatorData), stateFile);
    }
    const store = new Store(freshData(seed), stateFile);
    store.save();
    return store;
  }

  reindex(): void {
    this.guardrailIndex = new Map(this.data.guardrails.map((g) => [g.id, g]));
    this.memberSet = new Set(this.data.members);
    this.keySet = new Set(this.data.keyHashes);
  }

  replace(data: EmulatorData): void {
    this.data = data;
    this.reindex();
    this.save();
  }

  /** Writes the state file atomically, so a crash mid-write never leaves half a file. */
  save(): void {
    if (!this.stateFile) return;
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.stateFile);
  }

  guardrail(id: string): StoredGuardrail | undefined {
    return this.guardrailIndex.get(id);
  }
  addGuardrail(g: StoredGuardrail): void {
    this.data.guardrails.push(g);
    this.guardrailIndex.set(g.id, g);
  }
  removeGuardrail(id: string): void {
    this.data.guardrails = this.data.guardrails.filter((g) => g.id !== id);
    this.guardrailIndex.delete(id);
  }
  /** The workspace policies, made an empty list in a state file older than them. */
  policies(): StoredPolicy[] {
    this.data.policies ??= [];
    return this.data.policies;
  }
  accountPolicies(): StoredAccountPolicy[] {
    this.data.accountPolicies ??= [];
    return this.data.accountPolicies;
  }
  isMember(userId: string): boolean {
    return this.memberSet.has(userId);
  }
  isKey(hash: string): boolean {
    return this.keySet.has(hash);
  }
  addMembers(ids: string[]): void {
    for (const id of ids) if (!this.memberSet.has(id)) this.memberSet.add(id), this.data.members.push(id);
  }
  addKeyHashes(hashes: string[]): void {
    for (const h of hashes) if (!this.keySet.has(h)) this.keySet.add(h), this.data.keyHashes.push(h);
  }
}

/** Brings a state file written by an earlier emulator up to `DATA_VERSION`. */
export function upgrade(data: EmulatorData): EmulatorData {
  if ((data.version ?? 1) >= DATA_VERSION) return data;
  return { ...data, version: DATA_VERSION, guardrails: data.guardrails.map((g) => ({ ...NEW_IN_RULE_13, ...g })) };
}
