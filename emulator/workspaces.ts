/**
 * Workspaces and their default guardrails (docs/api-contract.md rules 17 to 21): the get by id
 * or slug, the list, and which guardrail id is whose default. A default guardrail is not stored
 * until a PATCH materializes it; until then only its id exists, derived from the workspace id.
 */
import { createHash } from "node:crypto";
import { badRequest, notFound } from "./http-error";
import type { GuardrailRecord } from "./records";
import type { Store, WorkspaceInfo } from "./store";

/** Rule 18: the default guardrail's id, derived from the workspace id (a UUID-shaped hash). */
export function defaultGuardrailId(workspaceId: string): string {
  const h = createHash("sha256").update(`default-guardrail:${workspaceId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A slug the admin endpoint takes: lowercase words joined by `-`, never UUID-shaped. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export class Workspaces {
  constructor(private readonly store: Store) {}

  private get data() {
    return this.store.data;
  }

  /** Name, slug, description and dates: as the admin endpoint set them, else derived from the place in the list. */
  info(id: string): WorkspaceInfo {
    const kept = this.data.workspaceInfo?.[id];
    if (kept) return kept;
    const index = this.data.workspaces.indexOf(id);
    const isDefault = id === this.data.defaultWorkspaceId;
    return {
      name: isDefault ? "Default Workspace" : `Workspace ${index}`,
      slug: isDefault ? "default" : `workspace-${index}`,
      description: null,
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: null,
    };
  }

  /** The record of rule 17, with every key the service's SDK requires. */
  record(id: string): Record<string, unknown> {
    const info = this.info(id);
    return {
      id,
      ...info,
      created_by: null,
      default_guardrail_id: defaultGuardrailId(id),
      default_text_model: null,
      default_image_model: null,
      default_provider_sort: null,
      io_logging_api_key_ids: null,
      io_logging_sampling_rate: 1,
      is_data_discount_logging_enabled: false,
      is_observability_broadcast_enabled: false,
      is_observability_io_logging_enabled: false,
    };
  }

  /** Every workspace, the default one first (rule 17). */
  list(offset: number, limit: number): { data: Record<string, unknown>[]; total_count: number } {
    const all = this.data.workspaces.map((w) => this.record(w));
    return { data: all.slice(offset, offset + limit), total_count: all.length };
  }

  /** The workspace an id or a slug names, or undefined. */
  find(idOrSlug: string): string | undefined {
    if (this.data.workspaces.includes(idOrSlug)) return idOrSlug;
    return this.data.workspaces.find((w) => this.info(w).slug === idOrSlug);
  }

  /** `GET /workspaces/{id-or-slug}`: the record, or 404 (rule 17). */
  get(idOrSlug: string): Record<string, unknown> {
    const id = this.find(idOrSlug);
    if (id === undefined) throw notFound(`workspace ${idOrSlug.slice(0, 80)} not found`);
    return this.record(id);
  }

  /** The live workspace whose default guardrail `guardrailId` is, if any (rule 21). */
  ownerOfDefault(guardrailId: string): string | undefined {
    return this.data.workspaces.find((w) => defaultGuardrailId(w) === guardrailId);
  }

  /** Rule 19: the record a first PATCH starts from: named `Workspace <id> Default`, no restriction. */
  unwrittenDefault(guardrailId: string, now: string): GuardrailRecord | undefined {
    const ws = this.ownerOfDefault(guardrailId);
    if (ws === undefined || this.store.guardrail(guardrailId)) return undefined;
    return {
      id: guardrailId,
      name: `Workspace ${ws} Default`,
      workspace_id: ws,
      created_at: now,
      updated_at: null,
      description: null,
      allowed_models: null,
      allowed_providers: null,
      ignored_models: null,
      ignored_providers: null,
      limit_usd: null,
      reset_interval: null,
      enforce_zdr_vendor_a: null,
      enforce_zdr_vendor_b: null,
      enforce_zdr_vendor_c: null,
      enforce_zdr_other: null,
      enforce_zdr: null,
      content_filter_builtins: null,
      content_filters: null,
      include_byok_in_budgets: false,
      allowed_data_regions: null,
      enable_free_model_publication: null,
      enable_free_model_training: null,
      enable_paid_model_training: null,
    };
  }

  /** Admin: adds a workspace with the given name and slug (slugs are unique; names need not be). */
  add(body: { id: string; name: string; slug: string; description?: string | null | undefined }): string {
    if (this.data.workspaces.includes(body.id)) throw badRequest(`id: workspace ${body.id} exists`);
    if (!SLUG.test(body.slug) || UUID.test(body.slug))
      throw badRequest("slug: lowercase letters, digits and single dashes, and not a UUID");
    if (this.find(body.slug) !== undefined) throw badRequest(`slug: "${body.slug}" is taken`);
    this.freezeInfo();
    const info = { name: body.name, slug: body.slug, description: body.description ?? null };
    this.data.workspaceInfo![body.id] = { ...info, created_at: new Date().toISOString(), updated_at: null };
    this.data.workspaces.push(body.id);
    return body.id;
  }

  /** Admin: removes a workspace (never the default one); the caller removes its guardrails. */
  remove(id: string): void {
    if (!this.data.workspaces.includes(id)) throw notFound(`workspace ${id} not found`);
    if (id === this.data.defaultWorkspaceId) throw badRequest("the default workspace cannot be deleted");
    this.freezeInfo();
    this.data.workspaces = this.data.workspaces.filter((w) => w !== id);
    delete this.data.workspaceInfo![id];
  }

  /** Keeps every derived name and slug, so removing or adding one never renames the others. */
  private freezeInfo(): void {
    const kept: Record<string, WorkspaceInfo> = {};
    for (const w of this.data.workspaces) kept[w] = this.info(w);
    this.data.workspaceInfo = kept;
  }
}
