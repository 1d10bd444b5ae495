/**
 * A workspace deleted while a WorkspaceWidePolicy covers it (issue 40), over the emulator, on both
 * faces' path through the core: a refresh shows the coverage the service now holds (drift, never
 * a crash or a stuck resource); an update that would send the deleted workspace fails with a
 * clear error naming it and writes nothing; the policy and its other workspaces are never lost;
 * delete finishes.
 */
import { describe, expect, it } from "vitest";
import { workspaceWideLifecycle } from "../../src/core/policies/workspace-wide-lifecycle";
import type { Lifecycle } from "../../src/core/results";
import { ProviderConfig } from "../../src/core/settings/config";
import { workspaceWidePolicy } from "../../src/dynamic/internal";
import { fromStruct, toStruct } from "../../src/native/wire";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator({ "guardrails:maxAttempts": "2" });
const api = () => http(`${emu.url}/api/v1`, TEST_KEY);
const admin = () => http(emu.url);
const calls = async () =>
  (await emu.log()).entries.map((e) => `${e.method} ${e.path.replace(/[0-9a-f-]{36}/g, "{id}")} ${e.status}`);
type Props = Record<string, unknown>;
const live = async (id: string) =>
  ((await api()("GET", "/guardrails/policies/account")).body.data as Props[]).find((p) => p.id === id);

/** State as a face hands it back to the core (the native face through the wire). */
const wire = (b: Props): Props => fromStruct(toStruct(b)).props;

/** Each face's core path, in the core's method shapes. */
const FACES: [string, () => Lifecycle][] = [
  [
    "dynamic",
    () => {
      const d = workspaceWidePolicy as unknown as Record<string, (...a: unknown[]) => Promise<any>>;
      return {
        ...(workspaceWidePolicy as unknown as Lifecycle),
        create: async (news) => {
          const r = await d.create!(news);
          return { id: r.id, properties: r.outs };
        },
        read: async (id, props) => {
          const r = await d.read!(id, props);
          return r.id ? { id: r.id, properties: r.props, inputs: r.inputs } : undefined;
        },
        update: async (id, olds, news) => ({ properties: (await d.update!(id, olds, news)).outs }),
        // The host takes no detailed diff (lifecycle-adapter.ts): whether it changes, as one entry.
        diff: async (id, olds, news) => {
          const r = await d.diff!(id, olds, news);
          return { changes: r.changes ? [{ path: "(some)", kind: "update" }] : [] } as never;
        },
      };
    },
  ],
  [
    "native",
    () => {
      const conn = new ProviderConfig();
      conn.configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url })[k]);
      const lc = workspaceWideLifecycle(conn);
      return {
        ...lc,
        read: (id, props) => lc.read(id, wire(props)),
        update: (id, olds, news) => lc.update(id, wire(olds), news),
        delete: (id, props) => lc.delete(id, wire(props)),
      };
    },
  ],
];

describe.each(FACES)("a workspace deleted under a WorkspaceWidePolicy, %s face", (face, make) => {
  it("refresh shows the coverage the service holds; an update naming it fails clearly; nothing lost; delete finishes", async () => {
    const slug = `gone-${face}`;
    const temp = (await admin()("POST", "/__emulator/workspaces", { name: `Gone ${face}`, slug })).body.data
      .id as string;
    const lc = make();
    // The dynamic face records the coverage as a map `{id: true}` (core/policies/id-maps.ts).
    const cov = (ids: string[]) => (face === "dynamic" ? Object.fromEntries(ids.map((id) => [id, true])) : ids);
    const news = {
      name: `Covers gone ${face}`,
      policyType: "budget",
      limitUsd: 75,
      resetInterval: "monthly",
      workspaceIds: [DEFAULT_WS, temp],
    };
    const c = await lc.create(news);
    expect((await admin()("DELETE", `/__emulator/workspaces/${temp}`)).status).toBe(200);

    // An update before any refresh: the fresh read sees the coverage changed since the last one.
    await emu.clearLog();
    const early = await lc.update(c.id, c.properties!, { ...news, limitUsd: 80 }).catch((e: Error) => e);
    expect(early).toBeInstanceOf(Error);
    expect((early as Error).message).toMatch(/run `pulumi refresh`/i);
    expect((await calls()).filter((x) => !x.startsWith("GET"))).toEqual([]);

    // Refresh: drift, the policy kept, with the coverage the service now holds.
    const r = await lc.read(c.id, c.properties!);
    expect(r?.id).toBe(c.id);
    expect(r!.properties).toMatchObject({ workspaceIds: cov([DEFAULT_WS]), workspaceCount: 1 });
    expect(r!.inputs).toMatchObject({ workspaceIds: cov([DEFAULT_WS]) });
    // The preview: the program still names the deleted workspace, so it is a change.
    const d = await lc.diff(c.id, r!.properties, news);
    expect(d.changes.map((x) => `${x.kind} ${x.path}`)).toEqual(
      face === "native" ? [`add workspaceIds[${JSON.stringify(temp)}]`] : ["update (some)"],
    );

    // The update that would send it: a clear error naming the workspace; nothing written.
    await emu.clearLog();
    const err = await lc.update(c.id, r!.properties, news).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(temp);
    expect((err as Error).message).toMatch(/workspaceIds/);
    expect((err as Error).message).toMatch(/does not exist|deleted|no longer/);
    // The service refused the PUT (nothing written); the workspaces were listed to name the cause.
    expect((await calls()).filter((x) => !x.startsWith("GET /api/v1/guardrails/policies/account "))).toEqual([
      "PUT /api/v1/guardrails/policies/account/{id} 400",
      "GET /api/v1/workspaces 200",
    ]);
    expect(await live(c.id)).toMatchObject({ workspace_ids: [DEFAULT_WS], config: { limit_usd: 75 } });

    // The program drops it: an update in place; then delete finishes.
    const fixed = { ...news, workspaceIds: [DEFAULT_WS] };
    expect((await lc.diff(c.id, r!.properties, fixed)).changes).toEqual([]);
    const u = await lc.update(c.id, r!.properties, { ...fixed, limitUsd: 90 });
    expect(u.properties).toMatchObject({ limitUsd: 90, workspaceIds: cov([DEFAULT_WS]) });
    await lc.delete(c.id, u.properties);
    expect(await live(c.id)).toBeUndefined();
  });
});
