/**
 * The spec's thirteen operations as docs/api-contract.md rules them (workspaces: workspaces.ts). Input is
 * validated by `validation.ts`; the rules that need the data (catalogue, membership, moves) live here.
 */
import { randomUUID } from "node:crypto";
import { AssignmentIndex } from "./assignment-index";
import { KEYS, MEMBERS, type AssignmentKind, type Row } from "./assignment-kinds";
import { catalogueIndex } from "./catalogue";
import { badRequest, notFound } from "./http-error";
import type { GuardrailRecord, StoredGuardrail } from "./records";
import { storedBuiltins, storedCustomFilters } from "./rules";
import type { Store } from "./store";
import type { CreateBody, UpdateBody } from "./validation";
import { Workspaces } from "./workspaces";

export interface Page<T> {
  data: T[];
  total_count: number;
}

export class Operations {
  /**
   * @param tombstones keep removed assignment rows in the list windows (filtered out of
   *   `data`), so pages come back short before the end, as docs/api-contract.md allows.
   */
  constructor(
    readonly store: Store,
    public tombstones = false,
    /** Workspaces and their default guardrails (rules 17 to 21). */
    readonly workspaces = new Workspaces(store),
  ) {}

  /** Rows by guardrail and by assignee (assignment-index.ts). */
  private readonly index = new AssignmentIndex(() => this.store.data);

  private get data() {
    return this.store.data;
  }

  private now(): string {
    return new Date().toISOString();
  }

  /**
   * The default workspace's guardrails when no `workspace_id` is given, and with them the legacy
   * ones that have no workspace at all (rule 10), so a list shows every guardrail a get can.
   */
  listGuardrails(workspaceId: string | undefined, offset: number, limit: number): Page<StoredGuardrail> {
    const ws = workspaceId ?? this.data.defaultWorkspaceId;
    if (!this.data.workspaces.includes(ws)) throw badRequest(`workspace_id: unknown workspace "${ws}"`);
    const unscoped = (g: StoredGuardrail) =>
      workspaceId === undefined && (g.workspace_id === null || g.workspace_id === undefined);
    const all = this.data.guardrails.filter((g) => g.workspace_id === ws || unscoped(g));
    return { data: all.slice(offset, offset + limit), total_count: all.length };
  }

  getGuardrail(id: string): StoredGuardrail {
    const g = this.store.guardrail(id);
    if (!g) throw notFound(`guardrail ${id} not found`);
    return g;
  }

  createGuardrail(body: CreateBody): GuardrailRecord {
    const ws = body.workspace_id ?? this.data.defaultWorkspaceId;
    if (!this.data.workspaces.includes(ws)) throw badRequest(`workspace_id: unknown workspace "${ws}"`);
    const zdr = (
      field: "enforce_zdr_vendor_a" | "enforce_zdr_vendor_b" | "enforce_zdr_vendor_c" | "enforce_zdr_other",
    ) => (body[field] !== undefined ? body[field] : body.enforce_zdr !== undefined ? body.enforce_zdr : null);
    const g: GuardrailRecord = {
      id: randomUUID(),
      name: body.name,
      workspace_id: ws,
      created_at: this.now(),
      updated_at: null,
      description: body.description ?? null,
      allowed_models: this.models("allowed_models", body.allowed_models),
      allowed_providers: body.allowed_providers ?? null,
      ignored_models: this.models("ignored_models", body.ignored_models),
      ignored_providers: body.ignored_providers ?? null,
      limit_usd: body.limit_usd ?? null,
      reset_interval: body.reset_interval ?? null,
      enforce_zdr_vendor_a: zdr("enforce_zdr_vendor_a") ?? null,
      enforce_zdr_vendor_b: zdr("enforce_zdr_vendor_b") ?? null,
      enforce_zdr_vendor_c: zdr("enforce_zdr_vendor_c") ?? null,
      enforce_zdr_other: zdr("enforce_zdr_other") ?? null,
      enforce_zdr: body.enforce_zdr ?? null,
      content_filter_builtins: storedBuiltins(body.content_filter_builtins),
      content_filters: storedCustomFilters(body.content_filters),
      include_byok_in_budgets: body.include_byok_in_budgets ?? false,
      allowed_data_regions: body.allowed_data_regions ?? null,
      enable_free_model_publication: body.enable_free_model_publication ?? null,
      enable_free_model_training: body.enable_free_model_training ?? null,
      enable_paid_model_training: body.enable_paid_model_training ?? null,
    };
    this.store.addGuardrail(g);
    this.store.save();
    return g;
  }

  /** The guardrail a PATCH applies to: a stored one, or an unwritten workspace default (rule 19); else 404. */
  writable(id: string): StoredGuardrail {
    return this.store.guardrail(id) ?? this.workspaces.unwrittenDefault(id, this.now()) ?? this.getGuardrail(id);
  }

  /** PATCH; on an unwritten default it materializes it (rule 19), stored only once the body is valid. */
  updateGuardrail(id: string, body: UpdateBody): StoredGuardrail {
    const g = this.writable(id);
    if (body.workspace_id !== undefined && body.workspace_id !== g.workspace_id) {
      throw badRequest(`workspace_id: cannot change (guardrail is in workspace ${g.workspace_id})`);
    }
    if (body.name === null) throw badRequest("name: must be 1 to 200 characters");
    // Validate everything before changing anything: a 400 leaves the guardrail untouched.
    const allowed = body.allowed_models !== undefined ? this.models("allowed_models", body.allowed_models) : undefined;
    const ignored = body.ignored_models !== undefined ? this.models("ignored_models", body.ignored_models) : undefined;
    if (body.name !== undefined) g.name = body.name;
    if (body.description !== undefined) g.description = body.description;
    if (allowed !== undefined) g.allowed_models = allowed;
    if (ignored !== undefined) g.ignored_models = ignored;
    if (body.allowed_providers !== undefined) g.allowed_providers = body.allowed_providers;
    if (body.ignored_providers !== undefined) g.ignored_providers = body.ignored_providers;
    if (body.limit_usd !== undefined) g.limit_usd = body.limit_usd;
    if (body.reset_interval !== undefined) g.reset_interval = body.reset_interval;
    if (body.content_filter_builtins !== undefined)
      g.content_filter_builtins = storedBuiltins(body.content_filter_builtins);
    if (body.content_filters !== undefined) g.content_filters = storedCustomFilters(body.content_filters);
    if (body.include_byok_in_budgets !== undefined) g.include_byok_in_budgets = body.include_byok_in_budgets;
    for (const field of [
      "allowed_data_regions",
      "enable_free_model_publication",
      "enable_free_model_training",
      "enable_paid_model_training",
    ] as const) {
      if (body[field] !== undefined) g[field] = body[field] as never;
    }
    for (const field of [
      "enforce_zdr_vendor_a",
      "enforce_zdr_vendor_b",
      "enforce_zdr_vendor_c",
      "enforce_zdr_other",
    ] as const) {
      const value = body[field] !== undefined ? body[field] : body.enforce_zdr;
      if (value !== undefined) g[field] = value;
    }
    if (body.enforce_zdr !== undefined) g.enforce_zdr = body.enforce_zdr;
    g.updated_at = this.now();
    if (!this.store.guardrail(id)) this.store.addGuardrail(g);
    this.store.save();
    return g;
  }

  deleteGuardrail(id: string): void {
    this.getGuardrail(id);
    this.store.removeGuardrail(id);
    for (const kind of [MEMBERS, KEYS]) this.removeRows(kind, (r) => r.guardrail_id === id);
    this.store.save();
  }

  /** Rules 5 and 6: moves count, repeats and non-members are skipped. */
  assign(kind: AssignmentKind, guardrailId: string, ids: string[]): number {
    const g = this.getGuardrail(guardrailId);
    const scope = kind.scope(g);
    const live = this.index.liveRows(kind);
    // An assignee holds at most one live row per scope (rules 5 and 6).
    const inScope = (id: string) =>
      live.get(id)?.find((row) => {
        const holder = this.store.guardrail(row.guardrail_id);
        return holder !== undefined && kind.scope(holder) === scope;
      });
    const seen = new Set<string>();
    const moved = new Set<Row>();
    const added: Row[] = [];
    const now = this.now();
    for (const id of ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      if (!kind.exists(this.store, id)) continue;
      const current = inScope(id);
      if (current?.guardrail_id === g.id) continue;
      if (current) moved.add(current);
      added.push(kind.makeRow(id, g, this.data, now));
    }
    if (moved.size > 0) this.removeRows(kind, (r) => moved.has(r));
    if (added.length > 0) {
      kind.rows(this.data).push(...added);
      this.index.appended(kind, g.id, added);
      this.store.save();
    }
    return added.length;
  }

  /** Rule 7: only assignments to this guardrail are removed; the rest are skipped. */
  unassign(kind: AssignmentKind, guardrailId: string, ids: string[]): number {
    this.getGuardrail(guardrailId);
    const wanted = new Set(ids);
    let count = 0;
    this.removeRows(kind, (r) => {
      const hit = r.guardrail_id === guardrailId && wanted.delete(kind.assignee(r));
      if (hit) count++;
      return hit;
    });
    if (count > 0) this.store.save();
    return count;
  }

  listAssignments(kind: AssignmentKind, guardrailId: string | undefined, offset: number, limit: number): Page<Row> {
    if (guardrailId !== undefined) this.getGuardrail(guardrailId);
    const rows = this.index.listed(kind, guardrailId, this.tombstones);
    const data = rows
      .slice(offset, offset + limit)
      .filter((r) => !r.deleted)
      .map(({ deleted: _deleted, ...row }) => row);
    return { data, total_count: rows.length };
  }

  private removeRows(kind: AssignmentKind, match: (r: Row) => boolean): void {
    this.index.changed(kind);
    if (this.tombstones) {
      for (const r of kind.rows(this.data)) if (!r.deleted && match(r)) r.deleted = true;
    } else {
      kind.setRows(
        this.data,
        kind.rows(this.data).filter((r) => r.deleted || !match(r)),
      );
    }
  }

  /** Rule 4: slug or canonical in, canonical out, request order, duplicates removed. */
  private models(field: string, ids: string[] | null | undefined): string[] | null {
    if (ids === undefined || ids === null) return null;
    const index = catalogueIndex(this.data.models);
    const out = new Set<string>();
    const unknown: string[] = [];
    ids.forEach((id, i) => {
      const canonical = index.get(id);
      if (canonical === undefined) unknown.push(`${field}[${i}]: unknown model "${id}"`);
      else out.add(canonical);
    });
    if (unknown.length > 0) throw badRequest(unknown.join("; "));
    return [...out];
  }
}
