/**
 * Upgrade: a stack made by the previous release (its packed build, installed the way a user
 * would), then refresh, preview, up and destroy with the current package. The serialized
 * providers in that state load `pulumi-guardrails/internal` of whichever version is installed,
 * so this proves the internal entry and the meaning of stored state still hold.
 */
import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { assignedMembers } from "../helpers/assigned";
import { Program } from "../helpers/program";
import { installTemplate } from "../helpers/pulumi-template";
import { packPreviousRelease, PREVIOUS_RELEASE } from "../helpers/previous-release";

const W2 = "00000000-0000-4000-8000-000000000002";
const DEFAULT_WS = "00000000-0000-4000-8000-000000000001";

const program = (opts: { limit: number; members: string[] }) => `
import { Guardrail, GuardrailKeyAssignment, GuardrailMemberAssignment } from "pulumi-guardrails";

const eng = new Guardrail("eng", {
  name: "Engineering",
  description: "made by ${PREVIOUS_RELEASE.version}",
  workspaceId: "${DEFAULT_WS}",
  allowedModels: ["vendor-a/model-x", "vendor-b/model-m-20260201", "vendor-a/model-x-20260115"],
  allowedProviders: ["prov-2", "prov-1"],
  limitUsd: ${opts.limit},
  resetInterval: "monthly",
  enforceZdr: true,
  enforceZdrOther: false,
  contentFilterBuiltins: [{ slug: "email", action: "redact" }, { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" }],
  contentFilters: [{ pattern: "INC-\\\\d{6}", action: "redact", label: "[INCIDENT]" }],
});
const research = new Guardrail("research", { name: "Research", workspaceId: "${W2}", ignoredModels: ["other-lab/open-model-8b"] });
const adopted = new Guardrail("adopted", { name: "Adopted", adoptId: process.env.ADOPT_ID!, limitUsd: 10, resetInterval: "daily" });
new GuardrailMemberAssignment("eng-members", { guardrailId: eng.id, memberUserIds: ${JSON.stringify(opts.members)}, exclusive: true });
new GuardrailMemberAssignment("research-members", { guardrailId: research.id, memberUserIds: ["user_alice"] });
new GuardrailMemberAssignment("adopted-members", { guardrailId: adopted.id, memberUserIds: ["user_frank"] });
new GuardrailKeyAssignment("eng-keys", { guardrailId: eng.id, keyHashes: ["a1b2c3d4e5f60718"] });
export const engId = eng.id;
export const researchId = research.id;
export const adoptedId = adopted.id;
`;

const members = assignedMembers;
const resources = async (p: Program): Promise<string[]> =>
  ((await p.exportState()).json.deployment.resources as Array<{ urn: string; id?: string }>)
    .filter((r) => r.urn.includes("guardrails:"))
    .map((r) => `${r.urn.split("::").pop()}=${r.id}`)
    .sort();

describe(`upgrade from ${PREVIOUS_RELEASE.version} (${PREVIOUS_RELEASE.commit.slice(0, 7)})`, () => {
  let p: Program;
  let ids: { engId: string };
  let before: string[];
  beforeAll(async () => {
    const context = inject("e2e");
    const previous = installTemplate(join(context.work, "previous-template"), packPreviousRelease(context.work));
    p = await Program.create({ ...context, template: previous }, "upgrade-e2e");
    const adopt = (await p.api("POST", "/guardrails", { name: "Adopted", description: "made by hand" })).body.data.id;
    p.env.ADOPT_ID = adopt;
    p.write(program({ limit: 100, members: ["user_alice", "user_bob"] }));
    await p.up();
    ids = (await p.outputs()) as { engId: string };
    before = await resources(p);
    // The upgrade: the program now loads the current package (the same switch `npm install` makes).
    rmSync(join(p.dir, "node_modules"));
    symlinkSync(join(context.template, "node_modules"), join(p.dir, "node_modules"), "dir");
  }, 900_000);
  afterAll(() => p?.close());

  it("a preview of the unchanged program on the old state shows no change", async () => {
    await p.pulumi(["preview", "--expect-no-changes", "--diff"], { check: true });
  });

  it("refresh keeps every resource and id, and the refreshed stack still previews no change", async () => {
    await p.refresh();
    expect(await resources(p)).toEqual(before);
    await p.pulumi(["preview", "--expect-no-changes", "--diff"], { check: true });
  });

  it("an edit applies exactly that edit", async () => {
    p.write(program({ limit: 250, members: ["user_alice", "user_carol"] }));
    await p.clearLog();
    await p.up();
    const log = await p.log();
    expect(log.counts).toMatchObject({ updateGuardrail: 1, assignMembers: 1, unassignMembers: 1 });
    expect(log.writes).toBe(3);
    expect((await p.api("GET", `/guardrails/${ids.engId}`)).body.data.limit_usd).toBe(250);
    expect(await members(p, ids.engId)).toEqual(["user_alice", "user_carol"]);
    expect(await resources(p)).toEqual(before);
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
  });

  it("destroy removes everything the stack manages", async () => {
    await p.destroy();
    expect((await p.api("GET", "/guardrails")).body.total_count).toBe(0);
    expect((await p.api("GET", `/guardrails?workspace_id=${W2}`)).body.total_count).toBe(0);
    expect((await p.api("GET", "/guardrails/assignments/members?limit=100")).body.total_count).toBe(0);
  });
});
