/** The data sources of both faces (src/core/data-sources) against the emulator over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MODELS, DEMO_KEY_HASHES, DEMO_MEMBERS } from "../../emulator";
import type { GuardrailsClient } from "../../src/core/client";
import { NAME_REGEX_MAX, parseLookupArgs } from "../../src/core/data-sources/args";
import {
  getGuardrail,
  getGuardrailKeys,
  getGuardrailMembers,
  getGuardrails,
} from "../../src/core/data-sources/lookups";
import { getWorkspace } from "../../src/core/data-sources/workspaces";
import { DEFAULT_WS, TEST_KEY, type TestEmulator, W2, withEmulator } from "../helpers/emulator";

let emu: TestEmulator;
let client: GuardrailsClient;
const ids: Record<string, string> = {};
const MODEL = DEFAULT_MODELS[0]!.slug;
const MISSING = "00000000-0000-4000-8000-0000000000ff";

beforeAll(async () => {
  emu = await withEmulator();
  client = emu.client();
  for (const [key, name, workspaceId] of [
    ["eng", "eng-main", undefined],
    ["dupA", "twin", undefined],
    ["dupB", "twin", undefined],
    ["other", "eng-main", W2],
  ] as const) {
    ids[key] = (
      await client.createGuardrail({
        name,
        ...(workspaceId ? { workspace_id: workspaceId } : {}),
        allowed_models: [MODEL],
        limit_usd: 5,
        reset_interval: "daily",
      })
    ).id;
  }
  await client.assign("members", ids.eng!, [DEMO_MEMBERS[1]!, DEMO_MEMBERS[0]!]);
  await client.assign("keys", ids.eng!, [DEMO_KEY_HASHES[2]!]);
});
afterAll(() => emu.close());

describe("getGuardrail", () => {
  it("finds one by id and answers in the program's names, without bookkeeping", async () => {
    const g = await getGuardrail(client, { id: ids.eng! });
    expect(g).toMatchObject({ id: ids.eng, name: "eng-main", limitUsd: 5, resetInterval: "daily" });
    expect(g.allowedModels).toEqual([DEFAULT_MODELS[0]!.canonical_slug]);
    expect(Object.keys(g)).not.toContain("args");
    expect(Object.keys(g)).not.toContain("modelAnswers");
    expect(Object.keys(g)).not.toContain("limit_usd");
  });

  it("finds one by name in the default workspace or in the one named", async () => {
    expect((await getGuardrail(client, { name: "eng-main" })).id).toBe(ids.eng);
    expect((await getGuardrail(client, { name: "eng-main", workspaceId: W2 })).id).toBe(ids.other);
  });

  it("fails on an ambiguous name, naming both ids, and on a name or id nobody has", async () => {
    const both = [ids.dupA!, ids.dupB!].sort();
    await expect(getGuardrail(client, { name: "twin" })).rejects.toThrow(
      `getGuardrail: 2 guardrails are named "twin" in the default workspace (${both.join(", ")}); look one up by id`,
    );
    await expect(getGuardrail(client, { name: "nobody" })).rejects.toThrow(
      'getGuardrail: no guardrail named "nobody" in the default workspace',
    );
    await expect(getGuardrail(client, { id: MISSING })).rejects.toThrow(
      `getGuardrail: no guardrail has id ${MISSING} (the service answered 404)`,
    );
  });
});

describe("getGuardrail of a workspace default never written (issue 38)", () => {
  it("says the default is not materialised yet and what to do, not a bare 404", async () => {
    const ws = (await emu.client().getWorkspace(W2))!;
    await expect(getGuardrail(client, { id: ws.default_guardrail_id })).rejects.toThrow(
      `getGuardrail: ${ws.default_guardrail_id} is the default guardrail of workspace "${ws.slug}" (id "${ws.id}"), not materialised yet: the service answers 404 for it until its first write, and until then it is in force with no restriction. Manage it with WorkspaceDefaultGuardrail (workspaceId "${ws.slug}"), which writes it; getWorkspace answers its id now`,
    );
  });
});

describe("getGuardrails", () => {
  it("lists a workspace sorted by name, filtered by an unanchored regex", async () => {
    const all = await getGuardrails(client);
    expect(all.guardrails.map((g) => g.name)).toEqual(["eng-main", "twin", "twin"]);
    expect(all.ids).toEqual(all.guardrails.map((g) => g.id));
    expect((await getGuardrails(client, { nameRegex: "^eng" })).ids).toEqual([ids.eng]);
    expect((await getGuardrails(client, { nameRegex: "win" })).ids).toEqual([ids.dupA, ids.dupB].sort());
    expect((await getGuardrails(client, { workspaceId: W2 })).ids).toEqual([ids.other]);
  });
});

describe("members and keys", () => {
  it("answer the ids assigned, sorted, in the set resources' names", async () => {
    expect(await getGuardrailMembers(client, { guardrailId: ids.eng! })).toEqual({
      guardrailId: ids.eng,
      memberUserIds: [DEMO_MEMBERS[0], DEMO_MEMBERS[1]],
    });
    expect(await getGuardrailKeys(client, { guardrailId: ids.eng! })).toEqual({
      guardrailId: ids.eng,
      keyHashes: [DEMO_KEY_HASHES[2]],
    });
    await expect(getGuardrailKeys(client, { guardrailId: MISSING })).rejects.toThrow(
      `getGuardrailKeys: no guardrail has id ${MISSING}`,
    );
  });
});

describe("args are checked before any call, each failure with its path", () => {
  it("refuses bad args of every data source", async () => {
    const failures = (name: Parameters<typeof parseLookupArgs>[0], raw: unknown) => {
      const r = parseLookupArgs(name, raw);
      return r.ok ? [] : r.failures;
    };
    expect(failures("getGuardrail", {})).toEqual([
      { property: "id", reason: "give id, or name (with workspaceId when not the default one)" },
    ]);
    expect(failures("getGuardrail", { id: ids.eng, name: "x" })).toEqual([
      { property: "name", reason: "give id or name, not both" },
    ]);
    expect(failures("getGuardrail", { id: ids.eng, workspaceId: W2 })[0]?.property).toBe("workspaceId");
    expect(failures("getGuardrail", { id: "nope" })).toEqual([
      { property: "id", reason: "must be a guardrail id (UUID)" },
    ]);
    expect(failures("getGuardrails", { nameRegex: "(" })[0]?.reason).toMatch(/^is not an RE2 regular expression/);
    // JavaScript takes these; RE2 (linear time, issue 38) does not, and the message says why.
    expect(failures("getGuardrails", { nameRegex: "^eng(?!-old)" })).toEqual([
      {
        property: "nameRegex",
        reason:
          'is not an RE2 regular expression (got "^eng(?!-old)": invalid or unsupported Perl syntax: `(?!`); ' +
          "RE2 syntax has no lookarounds and no backreferences (https://github.com/google/re2/wiki/Syntax)",
      },
    ]);
    expect(failures("getGuardrails", { nameRegex: "(a)\\1" })[0]?.reason).toContain("invalid escape sequence: `\\1`");
    expect(failures("getGuardrails", { nameRegex: "a".repeat(NAME_REGEX_MAX + 1) })[0]?.reason).toMatch(
      /^must be at most 256 characters/,
    );
    expect(failures("getGuardrailMembers", { guardrailID: ids.eng })).toEqual([
      { property: "guardrailId", reason: "must be a guardrail id (UUID)" },
      { property: "guardrailID", reason: 'unknown property; did you mean "guardrailId"?' },
    ]);
    await emu.clearLog();
    await expect(getGuardrailKeys(client, { guardrailId: "x" })).rejects.toThrow(
      "getGuardrailKeys: guardrailId: must be a guardrail id (UUID)",
    );
    expect((await emu.log()).total).toBe(0);
  });
});

describe("the dynamic face's functions, from the package root", () => {
  it("read the key and URL as the resources do, and answer what the core answers", async () => {
    const root = await import("../../src/index");
    const saved = { ...process.env };
    Object.assign(process.env, { GUARDRAILS_API_KEY: TEST_KEY, GUARDRAILS_BASE_URL: emu.url });
    try {
      expect(await root.getGuardrails({ nameRegex: "^eng" })).toEqual(
        await getGuardrails(client, { nameRegex: "^eng" }),
      );
      expect((await root.getGuardrailMembers({ guardrailId: ids.eng! })).memberUserIds).toHaveLength(2);
      await expect(root.getGuardrail({ name: "twin" })).rejects.toThrow(/2 guardrails are named "twin"/);
      const w2 = await root.getWorkspace({ slug: "workspace-1" });
      expect(w2).toEqual(await getWorkspace(client, { id: W2 }));
      expect(w2.defaultGuardrailId).toBe((await client.getWorkspace(W2))!.default_guardrail_id);
      expect((await root.getWorkspaces()).ids).toEqual([DEFAULT_WS, W2]);
      await expect(root.getWorkspace({ name: "Nobody" })).rejects.toThrow('no workspace is named "Nobody"');
    } finally {
      for (const k of ["GUARDRAILS_API_KEY", "GUARDRAILS_BASE_URL"]) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });
});
