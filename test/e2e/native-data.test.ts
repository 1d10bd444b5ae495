/**
 * Issue 26 on the native face, under the real CLI: every data source through
 * `pulumi.runtime.invoke` (the plugin found on PATH from src/native/bin), bad args refused with
 * their property path, a preview that fails with no key and one with a key pasted as the URL,
 * the warning on a key set in plain text, and the key, configured as a secret, absent from the
 * plain stack export.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_DEFAULT_WORKSPACE, DEMO_EXTRA_WORKSPACE, DEMO_KEY_HASHES, DEMO_MEMBERS } from "../../emulator";
import { GuardrailsClient } from "../../src/core/client";
import { useProgram } from "./harness";

const PLUGIN_DIR = join(__dirname, "../../src/native/bin");

/** A JavaScript program on the native face: each invoke's answer (or refusal) as a stack output. */
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const ids = JSON.parse(process.env.E2E_IDS);
const call = (tok, args) => pulumi.runtime.invoke("guardrails:index:" + tok, args).then(
  (r) => ({ ok: r }),
  (e) => ({ error: String(e && e.message || e) }),
);
exports.byId = call("getGuardrail", { id: ids.team });
exports.byName = call("getGuardrail", { name: "team-a" });
exports.ambiguous = call("getGuardrail", { name: "twin" });
exports.badArgs = call("getGuardrail", { id: "not-a-uuid", nmae: "x" });
exports.list = call("getGuardrails", { nameRegex: "^t" });
exports.members = call("getGuardrailMembers", { guardrailId: ids.team });
exports.keys = call("getGuardrailKeys", { guardrailId: ids.team });
exports.workspace = call("getWorkspace", { slug: "workspace-1" });
exports.workspaces = call("getWorkspaces", {});
exports.badWorkspace = call("getWorkspace", { id: ids.team, slug: "x" });
`;

describe("the native face's data sources and config (issue 26)", () => {
  const p = useProgram("native-data");
  const ids: Record<string, string> = {};

  it("a preview fails with no key, and with a key pasted as the URL, never quoting it", async () => {
    Object.assign(p.env, {
      PATH: `${PLUGIN_DIR}:${p.env.PATH}`,
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    });
    writeFileSync(join(p.dir, "Pulumi.yaml"), "name: native-data\nruntime: nodejs\n");
    writeFileSync(
      join(p.dir, "package.json"),
      JSON.stringify({ name: "native-data", main: "index.js", private: true }),
    );
    writeFileSync(join(p.dir, "index.js"), PROGRAM);
    const client = new GuardrailsClient({ baseUrl: p.emulator.url, apiKey: p.apiKey });
    ids.defaultOfW2 = (await client.getWorkspace(DEMO_EXTRA_WORKSPACE))!.default_guardrail_id;
    for (const [k, name] of [
      ["team", "team-a"],
      ["twinA", "twin"],
      ["twinB", "twin"],
      ["other", "other"],
    ] as const) {
      ids[k] = (await client.createGuardrail({ name, limit_usd: 5, reset_interval: "daily" })).id;
    }
    await client.assign("members", ids.team!, [DEMO_MEMBERS[2]!, DEMO_MEMBERS[0]!]);
    await client.assign("keys", ids.team!, [DEMO_KEY_HASHES[1]!]);
    await client.close();
    p.env.E2E_IDS = JSON.stringify(ids);

    const key = p.env.GUARDRAILS_API_KEY!;
    p.env.GUARDRAILS_API_KEY = "";
    const noKey = await p.preview();
    expect(noKey.code).not.toBe(0);
    expect(noKey.output).toContain(
      "`pulumi config set --secret guardrails:apiKey <key>` or the env var GUARDRAILS_API_KEY",
    );

    await p.pulumi(["config", "set", "--secret", "guardrails:apiKey", key], { check: true });
    await p.pulumi(["config", "set", "guardrails:baseUrl", key], { check: true });
    const badUrl = await p.preview();
    expect(badUrl.code).not.toBe(0);
    expect(badUrl.output).toMatch(
      /has a problem: guardrails:baseUrl: baseUrl must be an absolute URL such as https:\/\/api\.example\.com \(got a value shaped like an API key, not shown/,
    );

    // A key set without --secret: the engine hears the warning once, on the provider.
    await p.pulumi(["config", "set", "guardrails:baseUrl", p.emulator.url], { check: true });
    await p.pulumi(["config", "set", "guardrails:apiKey", key], { check: true });
    const plain = await p.preview();
    expect(plain.code).toBe(0);
    expect(plain.output.match(/warning: pulumi-guardrails: guardrails:apiKey is plain text/g)).toHaveLength(1);
    await p.pulumi(["config", "set", "--secret", "guardrails:apiKey", key], { check: true });
    // Program.close() fails the test when any CLI output held the key.
  });

  it("every data source answers in the program's names; bad args name their property", async () => {
    // The key is a secret now: Configure sees it marked, so no plain-text warning.
    expect((await p.up()).output).not.toContain("is plain text");
    const out = await p.outputs();
    expect(out.byId.ok).toMatchObject({ id: ids.team, name: "team-a", limitUsd: 5, resetInterval: "daily" });
    expect(out.byName.ok.id).toBe(ids.team);
    expect(out.ambiguous.error).toContain(
      `2 guardrails are named "twin" in the default workspace (${[ids.twinA, ids.twinB].sort().join(", ")})`,
    );
    expect(out.badArgs.error).toContain("must be a guardrail id (UUID) (id)");
    expect(out.badArgs.error).toContain('unknown property; did you mean "name"? (nmae)');
    expect(out.list.ok.guardrails.map((g: { name: string }) => g.name)).toEqual(["team-a", "twin", "twin"]);
    expect(out.list.ok.ids).toEqual(out.list.ok.guardrails.map((g: { id: string }) => g.id));
    expect(out.members.ok).toEqual({ guardrailId: ids.team, memberUserIds: [DEMO_MEMBERS[0], DEMO_MEMBERS[2]] });
    expect(out.keys.ok).toEqual({ guardrailId: ids.team, keyHashes: [DEMO_KEY_HASHES[1]] });
    expect(out.workspace.ok).toMatchObject({
      id: DEMO_EXTRA_WORKSPACE,
      name: "Workspace 1",
      slug: "workspace-1",
      defaultGuardrailId: ids.defaultOfW2,
    });
    expect(out.workspaces.ok.ids).toEqual([DEMO_DEFAULT_WORKSPACE, DEMO_EXTRA_WORKSPACE]);
    expect(out.workspaces.ok.workspaces[1]).toEqual(out.workspace.ok);
    expect(out.badWorkspace.error).toContain("give one of id, slug or name, not id and slug (slug)");

    const state = await p.exportState();
    expect(state.text).not.toContain(p.apiKey);
    const provider = state.json.deployment.resources.find(
      (r: { type: string }) => r.type === "pulumi:providers:guardrails",
    );
    expect(provider.inputs.apiKey).toMatchObject({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    });
    expect((await p.exportState(true)).text).toContain(p.apiKey);
  });
});
