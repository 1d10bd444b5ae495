/**
 * A WorkspaceWidePolicy create has the create journal (resource/create-journal.ts) as the
 * Guardrail and the workspace policies have it: an entry before the POST, the id recorded after,
 * the entry of a killed run recovered by the next create of the same resource (adopted, never
 * twice, never a second policy), and the entry dropped once the engine shows it recorded the id.
 * Over the emulator (real HTTP), on both faces' path through the core: the dynamic face's
 * `internal` member and the native face's lifecycle (each hands the core `__resource`: the
 * dynamic class `project/stack/name`, the native face the URN).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBody, workspaceWideCreateKey } from "../../src/core/policies/workspace-wide-create";
import { parseInputs } from "../../src/core/policies/workspace-wide-inputs";
import { workspaceWideLifecycle } from "../../src/core/policies/workspace-wide-lifecycle";
import { kindOf } from "../../src/core/policies/workspace-wide-model";
import { ProviderConfig } from "../../src/core/settings/config";
import type { Lifecycle } from "../../src/core/results";
import { workspaceWidePolicy } from "../../src/dynamic/internal";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator } from "../helpers/emulator";
import { killedEntry } from "../helpers/journal";
import { recordingServer } from "../helpers/recording-server";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator({ "guardrails:maxAttempts": "2" }, { resetFaults: true });
const api = () => http(`${emu.url}/api/v1`, TEST_KEY);
const posts = async () => (await emu.log()).entries.filter((e) => e.method === "POST" && e.path.includes("/account"));
const named = async (name: string) =>
  ((await api()("GET", "/guardrails/policies/account")).body.data as Array<{ id: string; name: string }>).filter(
    (p) => p.name === name,
  );

let dir = "";
let was: string | undefined;
beforeEach(() => {
  was = process.env.GUARDRAILS_JOURNAL_DIR;
  dir = join(mkdtempSync(join(tmpdir(), "wsw-journal-")), "journal");
  process.env.GUARDRAILS_JOURNAL_DIR = dir;
});
afterEach(() => {
  if (was === undefined) delete process.env.GUARDRAILS_JOURNAL_DIR;
  else process.env.GUARDRAILS_JOURNAL_DIR = was;
});

const lcOver = (url: string): Lifecycle => {
  const conn = new ProviderConfig();
  conn.configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": url })[k]);
  return workspaceWideLifecycle(conn);
};
/** The dynamic face's `internal` member in the core's method shapes (it answers `outs`, not `properties`). */
const dynamicFace = (): Lifecycle => {
  const d = workspaceWidePolicy as unknown as {
    create(news: Props): Promise<{ id: string; outs: Props }>;
    diff(id: string, olds: Props, news: Props): Promise<unknown>;
  };
  return {
    ...(workspaceWidePolicy as unknown as Lifecycle),
    create: async (news) => {
      const r = await d.create(news);
      return { id: r.id, properties: r.outs };
    },
    diff: async (id, olds, news) => (await d.diff(id, olds, news)) as never,
  };
};
type Props = Record<string, unknown>;
const FACES: [string, () => Lifecycle, (name: string) => string][] = [
  ["dynamic", dynamicFace, (n) => `proj/dev/${n}`],
  ["native", () => lcOver(emu.url), (n) => `urn:pulumi:dev::proj::guardrails:index:WorkspaceWidePolicy::${n}`],
];

const args = (name: string) => ({
  name,
  policyType: "budget",
  limitUsd: 300,
  resetInterval: "monthly",
  workspaceIds: [DEFAULT_WS],
});
/** What a run made before it was killed: the policy, by the API (the body the provider would send). */
const made = async (name: string) =>
  (
    await api()("POST", "/guardrails/policies/account", {
      ...createBody(parseInputs(args(name))),
      policy_type: "budget",
    })
  ).body.data.id as string;
/** The entry a run killed during its create of `name` by `resource` left behind. */
const plant = (resource: string, name: string, extra: Record<string, unknown>, file = "1-1.json") => {
  const body = createBody(parseInputs(args(name)));
  const key = workspaceWideCreateKey(resource, emu.url, kindOf("budget"), body);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, `${key.slice(0, 16)}-${file}`), JSON.stringify(killedEntry(resource, key, extra)));
};

describe.each(FACES)("a WorkspaceWidePolicy create journal on the %s face", (face, make, resourceOf) => {
  it("a killed run's entry with the id: adopted, no POST; without the id: found in the list, no POST", async () => {
    const lc = make();
    const withId = await made(`Killed A ${face}`);
    plant(resourceOf("a"), `Killed A ${face}`, { id: withId });
    const noId = await made(`Killed B ${face}`);
    plant(resourceOf("b"), `Killed B ${face}`, {});
    await emu.clearLog();
    const a = await lc.create({ ...args(`Killed A ${face}`), __resource: resourceOf("a") });
    const b = await lc.create({ ...args(`Killed B ${face}`), __resource: resourceOf("b") });
    expect([a.id, b.id]).toEqual([withId, noId]);
    expect(await posts()).toEqual([]);
    expect(await named(`Killed A ${face}`)).toHaveLength(1);
    expect(await named(`Killed B ${face}`)).toHaveLength(1);
    // The dynamic face records the coverage as a map `{id: true}` (core/policies/id-maps.ts).
    const covered = face === "dynamic" ? { [DEFAULT_WS]: true } : [DEFAULT_WS];
    expect(a.properties).toMatchObject({ policyId: withId, limitUsd: 300, workspaceIds: covered });
    // Each entry is used once: the journal is empty, and a second create of the resource (a
    // replace, another run) makes a new policy rather than adopting the same one twice.
    expect(readdirSync(dir)).toEqual([]);
    const again = await lc.create({ ...args(`Killed A ${face}`), __resource: resourceOf("a") });
    expect(again.id).not.toBe(withId);
    expect(await posts()).toHaveLength(1);
  });

  it("an entry whose id holds something else (edited since, another kind) is not adopted: one POST", async () => {
    const lc = make();
    const other = await made(`Edited ${face}`);
    await api()("PUT", `/guardrails/policies/account/${other}`, {
      name: `Edited ${face}`,
      config: { limit_usd: 1, reset_interval: "monthly" },
      workspace_ids: [DEFAULT_WS],
      opted_out_workspace_ids: [],
      is_default: false,
      policy_type: "budget",
    });
    plant(resourceOf("c"), `Edited ${face}`, { id: other });
    await emu.clearLog();
    const c = await lc.create({ ...args(`Edited ${face}`), __resource: resourceOf("c") });
    expect(c.id).not.toBe(other);
    expect(await posts()).toHaveLength(1);
  });

  it("a create leaves its entry with the id until the engine records it (diff drops it)", async () => {
    const lc = make();
    const r = await lc.create({ ...args(`Recorded ${face}`), __resource: resourceOf("d") });
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, files[0]!), "utf8"))).toMatchObject({
      resource: resourceOf("d"),
      id: r.id,
    });
    await lc.diff(r.id, r.properties, args(`Recorded ${face}`));
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("the entry is written before the POST", () => {
  it("the journal holds the create's entry, without an id, while its POST is in flight", async () => {
    const id = "7d9c3a52-0000-4000-8000-00000000bbbb";
    const seen: string[][] = [];
    const server = await recordingServer((req) => {
      const files = existsSync(dir) ? readdirSync(dir) : [];
      seen.push(files.map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")).id ?? "no id"));
      const config = { limit_usd: 300, reset_interval: "monthly", include_byok_in_budgets: false };
      return req.method === "POST"
        ? { status: 201, body: { data: { id, name: "Inflight", policy_type: "budget", config } } }
        : { status: 404, body: { error: { message: "no" } } };
    });
    try {
      await lcOver(server.url).create({ ...args("Inflight"), __resource: "proj/dev/inflight" });
      expect(seen).toEqual([["no id"]]);
    } finally {
      await server.close();
    }
  });
});
