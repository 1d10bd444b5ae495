/**
 * `PolicyClient`: every Guardrail Policies operation (docs/api-contract.md rules 22 to 33), over
 * a `GuardrailsClient`'s transport, retries, budget and paging: per kind list, create, get,
 * update (PUT) and delete; workspace-wide list, create, update and delete; and per member or API
 * key the read and the optimistic change of its assignment (`expected_assignment`, a 409 is an
 * `AssignmentConflictError`). Reads are checked with policy-wire.ts; lists are async iterators.
 */
import { POLICY_WIRE, type PolicyKind } from "../fields/policy-kinds";
import { idText, visible } from "../text/terminal";
import { UserError } from "../user-error";
import type { GuardrailsClient, ListOptions } from "./client";
import { AssignmentConflictError, ConflictError } from "./errors";
import {
  dataFlag,
  wireAssignmentState,
  wirePolicy,
  wirePolicyDetail,
  wirePolicySummary,
  wireWorkspaceWidePolicy,
  type WireAssignmentState,
  type WirePolicy,
  type WirePolicyCreate,
  type WirePolicyDetail,
  type WirePolicySummary,
  type WirePolicyUpdate,
  type WireWorkspaceWidePolicy,
  type WireWorkspaceWidePolicyWrite,
} from "./policy-wire";
import type { UnknownOutcome } from "./retry";
import { dataEnvelope } from "./wire";

/**
 * A member or an API key, as a per-subject assignment call names it. Its id goes in the URL;
 * errors show `REDACTED` there and call it "a member" / "an API key" unless
 * `showId` says the id may be shown (a program may hold it secret).
 */
export type PolicySubject = ({ memberId: string } | { keyHash: string }) & {
  /** Whether errors may name the id. @default false */
  showId?: boolean;
};

/** One change of a subject's assignment (rule 25). */
export interface AssignmentChange {
  kind: PolicyKind;
  policyId: string;
  workspaceId: string;
  /** true assigns the policy to the subject, false removes it. */
  assigned: boolean;
  /** The state last read (`getAssignment`): the service refuses with 409 when it no longer matches. */
  expected: WireAssignmentState;
}

const BASE = "/guardrails/policies";
const ACCOUNT = `${BASE}/account`;

/** One path segment, encoded; "", "." and ".." are refused (they would leave the segment). */
function segment(what: string, value: string): string {
  if (typeof value !== "string" || value === "" || value === "." || value === "..")
    throw new UserError(`${what} must be one path segment; got ${JSON.stringify(visible(String(value), 80))}`);
  return encodeURIComponent(value);
}

const kindPath = (kind: PolicyKind, id?: string) =>
  `${BASE}/${POLICY_WIRE[kind].segment}${id === undefined ? "" : `/${segment("a policy id", id)}`}`;

/** The subject's path, and the same path as errors show it. */
function subjectPaths(subject: PolicySubject): { path: string; shownPath: string; who: string; is: "member" | "key" } {
  const member = "memberId" in subject;
  const id = member ? subject.memberId : subject.keyHash;
  const seg = member ? "members" : "api-keys";
  const path = `${BASE}/assignments/${seg}/${segment(member ? "a member id" : "an API key hash", id)}`;
  const shown = subject.showId === true;
  return {
    path,
    shownPath: shown ? path : `${BASE}/assignments/${seg}/REDACTED`,
    who: shown ? `${member ? "member" : "API key"} ${idText(id)}` : member ? "a member" : "an API key",
    is: member ? "member" : "key",
  };
}

/** The Guardrail Policies operations over one `GuardrailsClient` (its pool, retries, budget and bounds). */
export class PolicyClient {
  constructor(private readonly client: GuardrailsClient) {}

  /** The policies of one kind in a workspace, every page (rule 23). */
  listPolicies<P extends PolicyKind>(
    kind: P,
    workspaceId: string,
    options: ListOptions = {},
  ): AsyncGenerator<WirePolicySummary<P>, void, undefined> {
    return this.client.list(kindPath(kind), wirePolicySummary(kind), "policies", options, {
      workspace_id: workspaceId,
    });
  }

  /** Creates a policy (rule 22); never blindly repeated, as `GuardrailsClient.createGuardrail`. */
  createPolicy<P extends PolicyKind>(
    kind: P,
    body: WirePolicyCreate<P>,
    outcome?: UnknownOutcome<WirePolicy<P>>,
  ): Promise<WirePolicy<P>> {
    const sent = { ...body, policy_type: POLICY_WIRE[kind].policyType };
    return this.client.create(
      { method: "POST", path: kindPath(kind), body: sent, schema: dataEnvelope(wirePolicy(kind)) },
      outcome,
    );
  }

  /** One policy with its assignments; `NotFoundError` when the id names none in the workspace. */
  async getPolicy<P extends PolicyKind>(kind: P, id: string, workspaceId: string): Promise<WirePolicyDetail<P>> {
    const schema = dataEnvelope(wirePolicyDetail(kind));
    const query = { workspace_id: workspaceId };
    return (await this.client.call({ method: "GET", path: kindPath(kind, id), query, schema })).data;
  }

  /**
   * PUT (rule 24): name and config replaced whole; `member_ids` and `api_key_hashes` are complete
   * lists sent together or both left out (kept); `is_workspace_default` left out keeps it.
   */
  async updatePolicy<P extends PolicyKind>(kind: P, id: string, body: WirePolicyUpdate<P>): Promise<WirePolicy<P>> {
    if ("member_ids" in body !== "api_key_hashes" in body)
      throw new UserError(
        "a policy update sends member_ids and api_key_hashes together or neither (docs/api-contract.md rule 24)",
      );
    const schema = dataEnvelope(wirePolicy(kind));
    return (await this.client.call({ method: "PUT", path: kindPath(kind, id), body, schema })).data;
  }

  /** Deletes a policy; answers the service's `data` (whether it was deleted). `NotFoundError` when gone. */
  async deletePolicy(kind: PolicyKind, id: string, workspaceId: string): Promise<boolean> {
    const query = { workspace_id: workspaceId };
    return (await this.client.call({ method: "DELETE", path: kindPath(kind, id), query, schema: dataFlag })).data;
  }

  /** Every workspace-wide ("account") policy, every page (rule 28). */
  listWorkspaceWidePolicies(options: ListOptions = {}): AsyncGenerator<WireWorkspaceWidePolicy, void, undefined> {
    return this.client.list(ACCOUNT, wireWorkspaceWidePolicy, "policies", options);
  }

  /** Creates a workspace-wide policy of one kind; never blindly repeated. */
  createWorkspaceWidePolicy<P extends PolicyKind>(
    kind: P,
    body: WireWorkspaceWidePolicyWrite<P>,
    outcome?: UnknownOutcome<WireWorkspaceWidePolicy>,
  ): Promise<WireWorkspaceWidePolicy> {
    const sent = { ...body, policy_type: POLICY_WIRE[kind].policyType };
    return this.client.create(
      { method: "POST", path: ACCOUNT, body: sent, schema: dataEnvelope(wireWorkspaceWidePolicy) },
      outcome,
    );
  }

  /** PUT: replaces a workspace-wide policy and its coverage whole (rule 28). */
  async updateWorkspaceWidePolicy<P extends PolicyKind>(
    kind: P,
    id: string,
    body: WireWorkspaceWidePolicyWrite<P>,
  ): Promise<WireWorkspaceWidePolicy> {
    const path = `${ACCOUNT}/${segment("a policy id", id)}`;
    const sent = { ...body, policy_type: POLICY_WIRE[kind].policyType };
    return (await this.client.call({ method: "PUT", path, body: sent, schema: dataEnvelope(wireWorkspaceWidePolicy) }))
      .data;
  }

  /** Deletes a workspace-wide policy by id; answers the service's `data`. */
  async deleteWorkspaceWidePolicy(id: string): Promise<boolean> {
    const path = `${ACCOUNT}/${segment("a policy id", id)}`;
    return (await this.client.call({ method: "DELETE", path, schema: dataFlag })).data;
  }

  /** A subject's assignment state for one kind in a workspace (rule 25). */
  async getAssignment(subject: PolicySubject, kind: PolicyKind, workspaceId: string): Promise<WireAssignmentState> {
    const { path, shownPath } = subjectPaths(subject);
    const query = { workspace_id: workspaceId, policy_type: POLICY_WIRE[kind].policyType };
    const schema = dataEnvelope(wireAssignmentState);
    return (await this.client.call({ method: "GET", path, shownPath, query, schema })).data;
  }

  /**
   * Assigns or removes one policy for a subject if its state is still `change.expected` (rule 25);
   * answers whether anything changed. A 409 is an `AssignmentConflictError`: nothing changed.
   * Repeated only when the service cannot have processed it (429, nothing sent), as a create: a
   * repeat of one that was applied would meet its own change as a 409 and report a false conflict.
   */
  async changeAssignment(subject: PolicySubject, change: AssignmentChange): Promise<boolean> {
    const { path, shownPath, who, is } = subjectPaths(subject);
    const policyType = POLICY_WIRE[change.kind].policyType;
    const body = {
      assigned: change.assigned,
      expected_assignment: change.expected,
      policy_id: change.policyId,
      policy_type: policyType,
      workspace_id: change.workspaceId,
    };
    try {
      return (await this.client.call({ method: "PUT", path, shownPath, body, schema: dataFlag }, "create")).data;
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      const shown = subject.showId === true;
      const verb = change.assigned ? "assigning" : "removing";
      throw new AssignmentConflictError(
        `409 Conflict: ${verb} ${policyType} policy ${idText(change.policyId)} ${change.assigned ? "to" : "from"} ${who}: its assignment changed since it was read, so nothing was changed; read it again (\`pulumi refresh\`), then apply again`,
        {
          method: err.method,
          url: err.url,
          ...(shown && err.serverMessage ? { serverMessage: err.serverMessage } : {}),
          ...(shown ? { cause: err } : {}),
        },
        is,
        policyType,
        change.policyId,
      );
    }
  }
}
