/**
 * `GuardrailsClient`: the operations of docs/api-contract.md (the spec's thirteen, rules 17 to
 * 21's workspaces and default guardrail; the policies of rules 22 to 33 are policies.ts's, over
 * this client), typed both ways. Lists are async iterators; no caller ever sees an offset.
 */
import { MAX_PAGE_SIZE } from "../fields/constants";
import {
  type AssigneeKind,
  assignedResponse,
  BULK_FIELD,
  dataEnvelope,
  deletedResponse,
  pageEnvelope,
  unassignedResponse,
  wireGuardrail,
  wireKeyAssignment,
  wireMemberAssignment,
  wireWorkspace,
  type WireGuardrail,
  type WireGuardrailCreate,
  type WireGuardrailUpdate,
  type WireKeyAssignment,
  type WireMemberAssignment,
  type WireWorkspace,
} from "./wire";
import { checkBaseUrl } from "./base-url";
import { NotFoundError, PaginationError } from "./errors";
import { noted, notedDelete } from "./org-assignments";
import { redactUrl } from "./redaction";
import { MAX_LIST_BYTES, type PageResult, paginate } from "./pagination";
import { type Budget, processBudget } from "./budget";
import {
  budgetPauseMs,
  createOnce,
  DEFAULT_RETRY,
  withRetry,
  type RetryClass,
  type RetryHooks,
  type RetryOptions,
  type UnknownOutcome,
} from "./retry";
import { type Exchange, Transport } from "./transport";
import { UserError } from "../user-error";
import { readWorkspaceDefault, type WorkspaceDefaultRead, workspacePath } from "./workspace-default";
import { type GuardrailsClientOptions, LIST_ROWS, type ListOptions } from "./options";

export type { GuardrailsClientOptions, ListOptions };
export { type AssigneeKind, BULK_FIELD };

type Rows<T> = AsyncGenerator<T, void, undefined>; // a list's rows, every page, as they are read
const assignmentsPath = (guardrailId: string) => `/guardrails/${encodeURIComponent(guardrailId)}/assignments`;

/** The management API's operations over undici, with retries, deadlines, byte caps and hidden pagination. One instance shares a keep-alive pool; `close()` releases it. */
export class GuardrailsClient {
  private readonly transport: Transport;
  readonly baseUrl: string;
  private readonly retry: RetryOptions;
  private readonly hooks: RetryHooks;
  private readonly pageSize: number;
  private readonly maxListRows: number | undefined;
  private readonly maxListBytes: number;
  private readonly budget: Budget;

  constructor(options: GuardrailsClientOptions) {
    if (!options.apiKey) throw new UserError("apiKey is required");
    this.baseUrl = checkBaseUrl(options.baseUrl, [options.apiKey]);
    this.transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
    });
    this.maxListRows = options.maxListRows;
    this.maxListBytes = options.maxListBytes ?? MAX_LIST_BYTES;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.hooks = options.retryHooks ?? {};
    this.budget = options.budget ?? processBudget;
    this.pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, options.pageSize ?? MAX_PAGE_SIZE));
  }

  /** Requests this client may have in flight at once (its budget's limit): pages of a list, chunks of a bulk apply. */
  get concurrency(): number {
    return this.budget.limit;
  }

  /** One exchange in a slot of the shared budget; a 429's `Retry-After` pauses the whole budget. */
  private send<T>(ex: Exchange<T>): Promise<T> {
    return this.budget.run(
      () => this.transport.send(ex),
      (err) => budgetPauseMs(err, this.retry),
    );
  }

  /** One exchange with its retries; for the operation modules over this client (policies.ts), not programs. */
  call<T>(ex: Exchange<T>, retryClass: RetryClass = "idempotent"): Promise<T> {
    return withRetry(() => this.send(ex), retryClass, this.retry, this.hooks);
  }

  /** A paged list, every row (pagination.ts); for the operation modules over this client, not programs. */
  list<T>(
    path: string,
    item: Exchange<T>["schema"],
    bound: keyof typeof LIST_ROWS,
    options: ListOptions,
    query: Record<string, string | undefined> = {},
  ): AsyncGenerator<T, void, undefined> {
    const schema = pageEnvelope(item);
    const listBound = this.maxListRows ?? LIST_ROWS[bound];
    const maxRows = Math.min(listBound, options.maxRows ?? listBound);
    const shown = redactUrl(`${this.baseUrl}/api/v1${path}`);
    return paginate(
      async (offset, limit) => {
        // The body's size, told before it is parsed: the read counts it against maxListBytes.
        const sizes: number[] = [];
        const onBytes = (n: number) => sizes.push(n);
        const page = await this.call({ method: "GET", path, query: { ...query, offset, limit }, schema, onBytes });
        return { ...(page as PageResult<T>), bytes: sizes.at(-1) ?? 0 };
      },
      this.pageSize,
      {
        maxRows,
        maxBytes: this.maxListBytes,
        concurrency: this.concurrency,
        fail: (reason) => new PaginationError(200, `paging stopped: ${reason}`, { method: "GET", url: shown }),
      },
    );
  }

  /** Guardrails of a workspace (the default one when omitted). */
  listGuardrails(options: { workspaceId?: string } & ListOptions = {}): AsyncGenerator<WireGuardrail, void, undefined> {
    return this.list("/guardrails", wireGuardrail, "guardrails", options, { workspace_id: options.workspaceId });
  }

  /** The cheapest authenticated read (one row of `GET /guardrails`): fails as any call when the key or URL cannot work. */
  async probe(): Promise<void> {
    const page = { offset: 0, limit: 1 };
    await this.call({ method: "GET", path: "/guardrails", query: page, schema: pageEnvelope(wireGuardrail) });
  }

  /** Every workspace of the organization (docs/api-contract.md rule 17; not in the spec). */
  listWorkspaces(options: ListOptions = {}): AsyncGenerator<WireWorkspace, void, undefined> {
    return this.list("/workspaces", wireWorkspace, "workspaces", options);
  }

  /**
   * One workspace by id or slug (rule 17); `undefined` exactly when the service answers 404.
   * Every other failure is thrown, as for any call.
   */
  async getWorkspace(idOrSlug: string): Promise<WireWorkspace | undefined> {
    const schema = dataEnvelope(wireWorkspace);
    try {
      return (await this.call({ method: "GET", path: workspacePath(idOrSlug), schema })).data;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  /**
   * A workspace's default guardrail (rules 18 to 21): `gone` only when the workspace answers 404;
   * the guardrail's own 404 is `unconfigured` (not written yet). Written with `updateGuardrail`.
   */
  readWorkspaceDefault(workspaceIdOrSlug: string): Promise<WorkspaceDefaultRead> {
    return readWorkspaceDefault(this, workspaceIdOrSlug);
  }

  /**
   * Creates a guardrail. Never repeated once the request may have reached the server: without
   * `outcome`, an ambiguous failure surfaces as `ConnectionError`/`TimeoutError`/`ServerError`;
   * with it, `outcome.resolve` settles what the POST made before anything is repeated.
   */
  createGuardrail(body: WireGuardrailCreate, outcome?: UnknownOutcome<WireGuardrail>): Promise<WireGuardrail> {
    return this.create({ method: "POST", path: "/guardrails", body, schema: dataEnvelope(wireGuardrail) }, outcome);
  }

  /** A POST that creates, answered `{data}`: never blindly repeated (`createGuardrail` says how); for the operation modules. */
  async create<T>(ex: Exchange<{ data: T }>, outcome?: UnknownOutcome<T>): Promise<T> {
    const post = async () => (await this.send(ex)).data;
    return outcome
      ? createOnce(post, outcome, this.retry, this.hooks)
      : withRetry(post, "create", this.retry, this.hooks);
  }

  /** One guardrail by id; `NotFoundError` when the id names none. */
  async getGuardrail(id: string): Promise<WireGuardrail> {
    const path = `/guardrails/${encodeURIComponent(id)}`;
    return (await this.call({ method: "GET", path, schema: dataEnvelope(wireGuardrail) })).data;
  }

  /** PATCH: only the fields present change; `null` clears. */
  async updateGuardrail(id: string, body: WireGuardrailUpdate): Promise<WireGuardrail> {
    const path = `/guardrails/${encodeURIComponent(id)}`;
    return (await this.call({ method: "PATCH", path, body, schema: dataEnvelope(wireGuardrail) })).data;
  }

  /** Deletes a guardrail and its member and key assignments (contract rule 9). */
  async deleteGuardrail(id: string): Promise<void> {
    const path = `/guardrails/${encodeURIComponent(id)}`;
    await notedDelete(this, id, this.call({ method: "DELETE", path, schema: deletedResponse }));
  }

  /** Member assignments of one guardrail, every page. */
  listMemberAssignments(guardrailId: string, options: ListOptions = {}): Rows<WireMemberAssignment> {
    return this.list(`${assignmentsPath(guardrailId)}/members`, wireMemberAssignment, "assignments", options);
  }

  /** Key assignments of one guardrail, every page. */
  listKeyAssignments(guardrailId: string, options: ListOptions = {}): Rows<WireKeyAssignment> {
    return this.list(`${assignmentsPath(guardrailId)}/keys`, wireKeyAssignment, "assignments", options);
  }

  /** Member assignments of the whole organization, every page. */
  listAllMemberAssignments(options: ListOptions = {}): AsyncGenerator<WireMemberAssignment, void, undefined> {
    return this.list("/guardrails/assignments/members", wireMemberAssignment, "assignments", options);
  }

  /** Key assignments of the whole organization, every page. */
  listAllKeyAssignments(options: ListOptions = {}): AsyncGenerator<WireKeyAssignment, void, undefined> {
    return this.list("/guardrails/assignments/keys", wireKeyAssignment, "assignments", options);
  }

  /** Bulk assign; answers `assigned_count` (moves included, skips not counted). */
  async assign(kind: AssigneeKind, guardrailId: string, ids: string[]): Promise<number> {
    const path = `/guardrails/${encodeURIComponent(guardrailId)}/assignments/${kind}`;
    const n = this.call({ method: "POST", path, body: { [BULK_FIELD[kind]]: ids }, schema: assignedResponse });
    return noted(this, { verb: "assign", kind, guardrailId, ids }, n);
  }

  /** Bulk unassign; answers `unassigned_count` (ids not on this guardrail are skipped). */
  async unassign(kind: AssigneeKind, guardrailId: string, ids: string[]): Promise<number> {
    const path = `/guardrails/${encodeURIComponent(guardrailId)}/assignments/${kind}/remove`;
    const n = this.call({ method: "POST", path, body: { [BULK_FIELD[kind]]: ids }, schema: unassignedResponse });
    return noted(this, { verb: "unassign", kind, guardrailId, ids }, n);
  }

  /** Bulk assign members (user ids) to a guardrail; answers `assigned_count`. */
  assignMembers = (guardrailId: string, memberUserIds: string[]) => this.assign("members", guardrailId, memberUserIds);
  /** Bulk unassign members from a guardrail; answers `unassigned_count`. */
  unassignMembers = (guardrailId: string, userIds: string[]) => this.unassign("members", guardrailId, userIds);
  /** Bulk assign API keys (by hash) to a guardrail; answers `assigned_count`. */
  assignKeys = (guardrailId: string, keyHashes: string[]) => this.assign("keys", guardrailId, keyHashes);
  /** Bulk unassign API keys from a guardrail; answers `unassigned_count`. */
  unassignKeys = (guardrailId: string, keyHashes: string[]) => this.unassign("keys", guardrailId, keyHashes);

  /** Releases the connection pool (when the client owns it). */
  close(): Promise<void> {
    return this.transport.close();
  }
}
