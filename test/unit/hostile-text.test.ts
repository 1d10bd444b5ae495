/**
 * Issue 38, class 3: nothing a server sends reaches a terminal raw. A hostile server (node:http
 * on port 0) puts an ANSI escape, a bidi override, a zero-width space and a forged line into
 * every string and every id it answers; every operation the client makes, every data source,
 * adoption and the resource lifecycles on both faces (the native face's gRPC error path and the
 * dynamic face's provider methods) must then fail or warn with that text escaped, never raw.
 * Ids the service assigns are UUIDs (spec; docs/api-contract.md): one of another shape fails
 * loudly, the id shown escaped.
 */
import type * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GuardrailsClient } from "../../src/core/client";
import { collect } from "../../src/core/client/pagination";
import * as lookups from "../../src/core/data-sources/lookups";
import * as workspaces from "../../src/core/data-sources/workspaces";
import { adopt } from "../../src/core/guardrail/adoption";
import { adoptionWarning } from "../../src/core/guardrail/adoption-preview";
import { resetConfiguration } from "../../src/core/settings/config";
import * as dynamicData from "../../src/dynamic/data-sources";
import * as internal from "../../src/dynamic/internal";
import { FUNCTION_TOKENS } from "../../src/native/invoke";
import { providerService } from "../../src/native/server";
import { hostileServer, json, type HostileServer } from "../helpers/hostile-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
const GID = "3f2b8c1e-0000-4000-8000-000000000000";
const WID = "3f2b8c1e-0000-4000-8000-0000000000aa";
/** What a hostile server appends to every string: a colour escape, a bidi override, a zero-width space, a forged line. */
const EVIL = "\u001b[31m\u202egnp.exe\u200b\nFORGED: all good";
/** An id shaped to escape its path segment and colour the terminal. */
const EVIL_ID = `../../workspaces/\u001b[31m${GID}`;

/** Raw characters a terminal acts on or a reader cannot see: C0 but the newline, DEL, C1, format characters, separators. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u;

/** What is wrong with a text a person will see: something raw from the server, or a line it forged. */
function problem(text: string, where: string): string | undefined {
  const at = RAW.exec(text);
  if (at) return `${where}: raw U+${at[0].codePointAt(0)!.toString(16)} in ${JSON.stringify(text)}`;
  if (text.split("\n").some((l) => l.startsWith("FORGED"))) return `${where}: a forged line in ${JSON.stringify(text)}`;
  return undefined;
}

/** Asserts a text a person will see carries nothing raw from the server, and no line it forged. */
function expectNeutral(text: string, where: string): void {
  expect(problem(text, where)).toBeUndefined();
}

/** Runs every call, and answers what each failure's messages let through (all of them, not only the first). */
async function sweep(calls: Record<string, () => Promise<unknown>>, face = ""): Promise<string[]> {
  const found: string[] = [];
  for (const [name, call] of Object.entries(calls)) {
    const err = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    const p = err === undefined ? undefined : problem(messages(err), `${face}${name}`);
    if (p) found.push(p);
  }
  return found;
}

/** Every message along an error's cause chain. */
function messages(err: unknown): string {
  const out: string[] = [];
  for (let e: unknown = err, d = 0; e && d < 8; e = (e as { cause?: unknown }).cause, d++)
    out.push(e instanceof Error ? e.message : String(e));
  return out.join("\n--cause--\n");
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (url: string) =>
  new GuardrailsClient({ baseUrl: url, apiKey: KEY, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 } });

/** A guardrail as a hostile server answers it: the id given, every string field hostile. */
const guardrail = (id: string, workspaceId: string = `${WID}${EVIL}`) => ({
  id,
  name: `Shared${EVIL}`,
  workspace_id: workspaceId,
  created_at: `2026-01-01T00:00:00Z${EVIL}`,
  updated_at: `2026-01-02T00:00:00Z${EVIL}`,
  description: `desc${EVIL}`,
  allowed_models: [`openai/gpt-4o${EVIL}`],
  allowed_providers: [`openai${EVIL}`],
  ignored_models: null,
  ignored_providers: null,
  limit_usd: 5,
  reset_interval: `daily${EVIL}`,
});
const workspace = (id: string) => ({
  id,
  default_guardrail_id: `${GID}${EVIL}`,
  name: `Twin${EVIL}`,
  slug: `twin${EVIL}`,
  description: EVIL,
  created_at: EVIL,
  updated_at: null,
});
const row = (i: number) => ({
  id: `row${EVIL}${i}`,
  user_id: `user_${i}${EVIL}`,
  organization_id: `org${EVIL}`,
  guardrail_id: `${GID}${EVIL}`,
  assigned_by: EVIL,
  created_at: EVIL,
  key_hash: `hash${i}${EVIL}`,
  key_name: EVIL,
  key_label: EVIL,
});

/**
 * Answers every operation of the contract with hostile text: two guardrails and two
 * workspaces of one name (so the by-name lookups list their ids), ids not shaped like UUIDs,
 * or, in `error` mode, the contract's error body with a hostile message for each status.
 */
function hostileHandler(mode: "data" | "error", status = 400) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname.replace(/^\/api\/v1/, "");
    if (mode === "error") return json(res, status, { error: { code: status, message: `bad${EVIL}` } });
    const page = (data: unknown[]) =>
      json(res, 200, { data: Number(url.searchParams.get("offset") ?? 0) === 0 ? data : [], total_count: data.length });
    if (req.method === "GET" && path === "/guardrails") return page([guardrail(EVIL_ID), guardrail(`${EVIL_ID}2`)]);
    if (req.method === "GET" && path === "/workspaces") return page([workspace(EVIL_ID), workspace(`${EVIL_ID}2`)]);
    if (req.method === "GET" && path.startsWith("/workspaces/")) return json(res, 200, { data: workspace(EVIL_ID) });
    if (/\/assignments\/(members|keys)$/.test(path) && req.method === "GET") return page([row(1), row(2)]);
    if (path.endsWith("/remove")) return json(res, 200, { unassigned_count: 0 });
    if (/\/assignments\/(members|keys)$/.test(path)) return json(res, 200, { assigned_count: 0 });
    if (req.method === "DELETE") return json(res, 200, { deleted: true });
    return json(res, 200, { data: guardrail(EVIL_ID) });
  };
}

/** Each operation of the client, and each core function over it, as a thunk. */
function coreCalls(c: GuardrailsClient): Record<string, () => Promise<unknown>> {
  const inputs = { name: "Eng", adoptId: GID, workspaceId: WID } as never;
  return {
    getGuardrail: () => c.getGuardrail(GID),
    listGuardrails: () => collect(c.listGuardrails()),
    createGuardrail: () => c.createGuardrail({ name: "Eng" }),
    updateGuardrail: () => c.updateGuardrail(GID, { limit_usd: 1 }),
    deleteGuardrail: () => c.deleteGuardrail(GID),
    listMemberAssignments: () => collect(c.listMemberAssignments(GID)),
    listKeyAssignments: () => collect(c.listKeyAssignments(GID)),
    listAllMemberAssignments: () => collect(c.listAllMemberAssignments()),
    listAllKeyAssignments: () => collect(c.listAllKeyAssignments()),
    assign: () => c.assign("members", GID, ["user_1"]),
    unassign: () => c.unassign("keys", GID, ["h"]),
    listWorkspaces: () => collect(c.listWorkspaces()),
    getWorkspace: () => c.getWorkspace(WID),
    readWorkspaceDefault: () => c.readWorkspaceDefault(WID),
    "lookups.getGuardrail(id)": () => lookups.getGuardrail(c, { id: GID }),
    "lookups.getGuardrail(name)": () => lookups.getGuardrail(c, { name: `Shared${EVIL}` }),
    "lookups.getGuardrails": () => lookups.getGuardrails(c, {}),
    "lookups.getGuardrailMembers": () => lookups.getGuardrailMembers(c, { guardrailId: GID }),
    "lookups.getGuardrailKeys": () => lookups.getGuardrailKeys(c, { guardrailId: GID }),
    "workspaces.getWorkspace(id)": () => workspaces.getWorkspace(c, { id: WID }),
    "workspaces.getWorkspace(slug)": () => workspaces.getWorkspace(c, { slug: "twin" }),
    "workspaces.getWorkspace(name)": () => workspaces.getWorkspace(c, { name: `Twin${EVIL}` }),
    "workspaces.getWorkspaces": () => workspaces.getWorkspaces(c, {}),
    adopt: () => adopt(c, inputs, GID, (e) => e as Error),
    adoptionWarning: async () => {
      const w = await adoptionWarning(c, inputs);
      if (w !== undefined) throw new Error(w); // a warning is a message a person reads, too
    },
  };
}

describe("hostile text: the client and the core over every operation", () => {
  for (const mode of ["data", "error"] as const)
    for (const status of mode === "error" ? [400, 404, 409, 500] : [200]) {
      it(`${mode === "data" ? "hostile records and ids" : `a ${status} with a hostile message`}: no thrown message carries them raw`, async () => {
        server = await hostileServer(hostileHandler(mode, status));
        const c = client(server.url);
        expect(await sweep(coreCalls(c))).toEqual([]);
        await c.close();
      });
    }
});

/** Calls one unary handler of the native face as grpc-js would; rejects with its error's details as the engine gets them. */
function grpcFailure<Req>(handler: unknown, request: Req): Promise<void> {
  return new Promise((resolve, reject) =>
    (handler as grpc.handleUnaryCall<Req, unknown>)({ request } as grpc.ServerUnaryCall<Req, unknown>, (err) =>
      err ? reject(new Error(String((err as grpc.ServiceError).details))) : resolve(),
    ),
  );
}

describe("hostile text: both faces", () => {
  const saved = { ...process.env };
  beforeEach(() => resetConfiguration());
  afterEach(() => {
    process.env = { ...saved };
    resetConfiguration();
  });
  const useServer = async (mode: "data" | "error") => {
    server = await hostileServer(hostileHandler(mode, 400));
    process.env.GUARDRAILS_API_KEY = KEY;
    process.env.GUARDRAILS_BASE_URL = server.url;
    process.env.GUARDRAILS_MAX_ATTEMPTS = "1";
  };
  const URN = "urn:pulumi:dev::p::guardrails:index:Guardrail::eng";
  const guardrailOuts = { name: "Eng", workspaceId: WID, args: { name: "Eng", workspaceId: WID } };

  for (const mode of ["data", "error"] as const) {
    it(`the native face (${mode}): every invoke and the Guardrail's create, read, update and delete`, async () => {
      await useServer(mode);
      const service = providerService("0.0.0-test");
      const invokes: Record<string, object> = {
        getGuardrail: { name: `Shared${EVIL}` },
        getGuardrails: {},
        getGuardrailMembers: { guardrailId: GID },
        getGuardrailKeys: { guardrailId: GID },
        getWorkspace: { name: `Twin${EVIL}` },
        getWorkspaces: {},
      };
      const calls: Record<string, () => Promise<unknown>> = {};
      for (const [name, args] of Object.entries(invokes)) {
        const req = new provproto.InvokeRequest()
          .setTok(FUNCTION_TOKENS[name as keyof typeof FUNCTION_TOKENS])
          .setArgs(Struct.fromJavaScript(args as never));
        calls[`invoke ${name}`] = () => grpcFailure(service.invoke, req);
      }
      const props = Struct.fromJavaScript({ name: "Eng", workspaceId: WID } as never);
      const steps: Array<[string, unknown, unknown]> = [
        ["create", service.create, new provproto.CreateRequest().setUrn(URN).setProperties(props)],
        [
          "create (adopt)",
          service.create,
          new provproto.CreateRequest()
            .setUrn(URN)
            .setProperties(Struct.fromJavaScript({ name: "Eng", adoptId: GID, workspaceId: WID } as never)),
        ],
        ["read", service.read, new provproto.ReadRequest().setUrn(URN).setId(GID)],
        [
          "update",
          service.update,
          new provproto.UpdateRequest()
            .setUrn(URN)
            .setId(GID)
            .setOlds(Struct.fromJavaScript(guardrailOuts as never))
            .setNews(Struct.fromJavaScript({ name: "Eng", workspaceId: WID, limitUsd: 3 } as never)),
        ],
        [
          "delete",
          service.delete,
          new provproto.DeleteRequest()
            .setUrn(URN)
            .setId(GID)
            .setProperties(Struct.fromJavaScript(guardrailOuts as never)),
        ],
      ];
      for (const [name, handler, req] of steps) calls[name] = () => grpcFailure(handler, req);
      expect(await sweep(calls, "native ")).toEqual([]);
    });

    it(`the dynamic face (${mode}): every data source and the Guardrail provider's methods`, async () => {
      await useServer(mode);
      const calls: Record<string, () => Promise<unknown>> = {
        getGuardrail: () => dynamicData.getGuardrail({ name: `Shared${EVIL}` }),
        getGuardrails: () => dynamicData.getGuardrails({}),
        getGuardrailMembers: () => dynamicData.getGuardrailMembers({ guardrailId: GID }),
        getGuardrailKeys: () => dynamicData.getGuardrailKeys({ guardrailId: GID }),
        getWorkspace: () => dynamicData.getWorkspace({ name: `Twin${EVIL}` }),
        getWorkspaces: () => dynamicData.getWorkspaces(),
        create: () => internal.guardrail.create({ name: "Eng", workspaceId: WID }),
        "create (adopt)": () => internal.guardrail.create({ name: "Eng", adoptId: GID, workspaceId: WID }),
        read: () => internal.guardrail.read(GID, guardrailOuts as never),
        update: () =>
          internal.guardrail.update(GID, guardrailOuts as never, { name: "Eng", workspaceId: WID, limitUsd: 3 }),
        delete: () => internal.guardrail.delete(GID, guardrailOuts as never),
      };
      expect(await sweep(calls, "dynamic ")).toEqual([]);
    });
  }
});

describe("hostile text: each path of issue 38, through the real client", () => {
  it("getGuardrail by a name two guardrails share: their ids are listed escaped", async () => {
    server = await hostileServer(hostileHandler("data"));
    const err = await failure(lookups.getGuardrail(client(server.url), { name: `Shared${EVIL}` }));
    expectNeutral(err.message, "getGuardrail");
    expect(err.message).toContain("../../workspaces/<U+001B>[31m");
  });

  it("getWorkspace by a name two workspaces share: their ids are listed escaped", async () => {
    server = await hostileServer(hostileHandler("data"));
    const err = await failure(workspaces.getWorkspace(client(server.url), { name: `Twin${EVIL}` }));
    expectNeutral(err.message, "getWorkspace");
    expect(err.message).toContain("../../workspaces/<U+001B>[31m");
  });

  it("adoption: a guardrail whose workspace_id is hostile fails with it escaped", async () => {
    server = await hostileServer((_req, res) => json(res, 200, { data: guardrail(GID, `${WID}${EVIL}`) }));
    const err = await failure(
      adopt(client(server.url), { name: "Eng", adoptId: GID, workspaceId: GID } as never, GID, (e) => e as Error),
    );
    expectNeutral(err.message, "adopt");
    expect(err.message).toContain(
      `data.workspace_id: must be a UUID, as the service assigns its ids (got "${WID}<U+001B>[31m<U+202E>gnp.exe<U+200B> FORGED`,
    );
  });

  it("a server's error message: bidi and zero-width characters are shown as <U+…>, not only controls dropped", async () => {
    server = await hostileServer((_req, res) =>
      json(res, 400, { error: { code: 400, message: "name: \u202eevil\u2066 \u200bzero" } }),
    );
    const err = await failure(client(server.url).getGuardrail(GID));
    expectNeutral(err.message, "server message");
    expect(err.message).toContain("name: <U+202E>evil<U+2066> <U+200B>zero");
  });

  it("an id the service answers for a create that is no UUID fails loudly, escaped, and is never the resource's id", async () => {
    server = await hostileServer((_req, res) => json(res, 201, { data: guardrail(EVIL_ID, WID) }));
    const err = await failure(client(server.url).createGuardrail({ name: "Eng" }));
    expectNeutral(err.message, "create");
    expect(err.message).toContain(
      'data.id: must be a UUID, as the service assigns its ids (got "../../workspaces/<U+001B>[31m3f2b8c1e-0000-4000-8000-000000000000")',
    );
  });

  it("a UUID is accepted in either case", async () => {
    server = await hostileServer((_req, res) =>
      json(res, 200, { data: guardrail(GID.toUpperCase(), WID.toUpperCase()) }),
    );
    const g = await client(server.url).getGuardrail(GID);
    expect(g.id).toBe(GID.toUpperCase());
    expect(g.workspace_id).toBe(WID.toUpperCase());
  });
});

describe("hostile text: a create answered with an id that is no UUID is refused on both faces", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfiguration();
  });

  it("the native face's Create and the dynamic face's create fail, naming the id escaped; no id is handed to the engine", async () => {
    server = await hostileServer((_req, res) => json(res, 201, { data: guardrail(EVIL_ID, WID) }));
    resetConfiguration();
    Object.assign(process.env, {
      GUARDRAILS_API_KEY: KEY,
      GUARDRAILS_BASE_URL: server.url,
      GUARDRAILS_MAX_ATTEMPTS: "1",
    });
    const req = new provproto.CreateRequest()
      .setUrn("urn:pulumi:dev::p::guardrails:index:Guardrail::eng")
      .setProperties(Struct.fromJavaScript({ name: "Eng", workspaceId: WID } as never));
    const native = await failure(grpcFailure(providerService("0.0.0-test").create, req));
    const dynamic = await failure(internal.guardrail.create({ name: "Eng", workspaceId: WID }));
    for (const err of [native, dynamic]) {
      expectNeutral(err.message, "create");
      expect(err.message).toContain(
        'data.id: must be a UUID, as the service assigns its ids (got "../../workspaces/<U+001B>[31m',
      );
    }
  });
});
