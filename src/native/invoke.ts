/**
 * Data sources (invokes) on the native face: the eleven tokens, answered by the core's lookups
 * (src/core/data-sources) with the client of the provider instance's `Configure`. Bad args come
 * back as check failures with their property paths, before any call; a failure of the key or
 * the URL names where that setting came from, as a resource's does.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { otherLanguagesName, shown } from "../core/args/messages";
import * as access from "../core/data-sources/access-answer";
import { type LookupName, parseLookupArgs } from "../core/data-sources/args";
import * as lookups from "../core/data-sources/lookups";
import * as policies from "../core/data-sources/policies";
import * as workspaces from "../core/data-sources/workspaces";
import { hidingSecrets, secretStrings } from "../core/args/secret-text";
import { asSecret } from "../core/markers";
import { withoutIds } from "../core/text/without-ids";
import type { Connection } from "../core/connection";
import { explainAuthError, explainUrlError } from "../core/settings/key-source";
import { UserError } from "../core/user-error";
import { LOAD_GUARDRAIL_FILES, loadGuardrailFilesResponse } from "./load-files";
import { fromStruct, toStruct } from "./wire";

/** The invoke tokens, by the name of the data source each serves. */
export const FUNCTION_TOKENS: Record<LookupName, string> = {
  getGuardrail: "guardrails:index:getGuardrail",
  getGuardrails: "guardrails:index:getGuardrails",
  getGuardrailMembers: "guardrails:index:getGuardrailMembers",
  getGuardrailKeys: "guardrails:index:getGuardrailKeys",
  getWorkspace: "guardrails:index:getWorkspace",
  getWorkspaces: "guardrails:index:getWorkspaces",
  getPolicies: "guardrails:index:getPolicies",
  getPolicy: "guardrails:index:getPolicy",
  getSubjectPolicies: "guardrails:index:getSubjectPolicies",
  getEffectiveAccess: "guardrails:index:getEffectiveAccess",
  getSubjectGuardrail: "guardrails:index:getSubjectGuardrail",
};

/** Kept for the schema's first entry (schema-functions.ts). */
export const GET_GUARDRAIL = FUNCTION_TOKENS.getGuardrail;

const BY_TOKEN = new Map(Object.entries(FUNCTION_TOKENS).map(([name, tok]) => [tok, name as LookupName]));

type Run = (conn: Connection, args: never) => Promise<object>;
const RUN: Record<LookupName, Run> = {
  getGuardrail: (conn, args) => lookups.getGuardrail(conn.client(), args),
  getGuardrails: (conn, args) => lookups.getGuardrails(conn.client(), args),
  getGuardrailMembers: (conn, args) => lookups.getGuardrailMembers(conn.client(), args),
  getGuardrailKeys: (conn, args) => lookups.getGuardrailKeys(conn.client(), args),
  getWorkspace: (conn, args) => workspaces.getWorkspace(conn.client(), args),
  getWorkspaces: (conn) => workspaces.getWorkspaces(conn.client()),
  getPolicies: (conn, args) => policies.getPolicies(conn.client(), args),
  getPolicy: (conn, args) => policies.getPolicy(conn.client(), args),
  getSubjectPolicies: (conn, args) => policies.getSubjectPolicies(conn.client(), args),
  getEffectiveAccess: (conn, args) => access.effectiveAccessAnswer(conn, args),
  getSubjectGuardrail: (conn, args) => access.subjectGuardrailAnswer(conn, args),
};

/** Whether `v` holds, anywhere inside, a string equal to one of `hidden` (lower-case), any case. */
function holds(v: unknown, hidden: ReadonlySet<string>): boolean {
  if (typeof v === "string") return hidden.has(v.toLowerCase());
  return !!v && typeof v === "object" && Object.values(v).some((x) => holds(x, hidden));
}

/**
 * An answer's values that echo an arg the engine sent as a secret, marked secret again: the
 * member id or key hash `getSubjectPolicies` and the access lookups answer with (a key's owner too), and any other value that holds a
 * secret arg's value (a secret workspace id in a workspace-wide policy's `workspaceIds`).
 */
function remarkSecrets(answer: object, secretRoots: readonly string[], hidden: readonly string[]) {
  const roots = new Set(secretRoots);
  const values = new Set(hidden.map((h) => h.toLowerCase()));
  return Object.fromEntries(
    Object.entries(answer).map(([k, v]) => [k, roots.has(k) || holds(v, values) ? asSecret(v) : v]),
  );
}

/** `Invoke`: one data source over `conn`; check failures for bad args, the answer in the program's names. */
export async function invoke(conn: Connection, req: provproto.InvokeRequest): Promise<provproto.InvokeResponse> {
  const resp = new provproto.InvokeResponse();
  if (req.getTok() === LOAD_GUARDRAIL_FILES)
    return loadGuardrailFilesResponse(fromStruct(req.getArgs()).props, resp, () => new provproto.CheckFailure());
  const name = BY_TOKEN.get(req.getTok());
  if (!name)
    throw new UserError(
      `unknown function ${shown(req.getTok())}; this provider serves ${[...BY_TOKEN.keys(), LOAD_GUARDRAIL_FILES].join(", ")}`,
    );
  const { props, secretRoots } = fromStruct(req.getArgs());
  // A secret arg's value is named by no failure and no error (core/args/secret-text.ts).
  const bag = { ...props, __secretArgs: secretRoots };
  const hidden = secretStrings(bag);
  const parsed = parseLookupArgs(name, props);
  if (!parsed.ok) {
    resp.setFailuresList(
      parsed.failures.map((f) => {
        const failure = new provproto.CheckFailure();
        // Every SDK prints `reason (property)`; the program may be in any language (issue 42).
        const also = otherLanguagesName(f.property);
        failure.setProperty(also ? `${f.property}; ${also}` : f.property);
        failure.setReason(hidden.length > 0 ? withoutIds(f.reason, hidden) : f.reason);
        return failure;
      }),
    );
    return resp;
  }
  try {
    const answer = await RUN[name](conn, parsed.args as never);
    resp.setReturn(toStruct(remarkSecrets(answer, secretRoots, hidden)));
  } catch (err) {
    hidingSecrets(bag)(explainUrlError(explainAuthError(err, conn), conn));
  }
  return resp;
}
