/**
 * The PR summary judged by effective access (issue 41), on layered PR shapes as
 * `pulumi preview --json` writes them: each member and key the PR touches gets its effective
 * change, and a loosening is flagged only where effective access widens; a layer that cannot be
 * known at preview stays flagged, and the line says so.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/preview/summary";
import { urn } from "../helpers/preview-steps";

const WS = "3f2b8c1e-0000-4000-8000-000000000001";
type Bag = Record<string, unknown>;
const step = (op: string, type: string, name: string, before: Bag | undefined, after: Bag | undefined, id = name) => ({
  op,
  urn: urn(type, name),
  ...(before ? { oldState: { id, inputs: { workspaceId: WS, ...before }, outputs: { workspaceId: WS } } } : {}),
  ...(after ? { newState: { inputs: { workspaceId: WS, ...after } } } : {}),
});
const same = (type: string, name: string, props: Bag) => step("same", type, name, props, props);
/** A set on guardrail `gid`: exclusive, so the stack lists everyone on it. */
const set = (
  op: string,
  kind: "members" | "keys",
  name: string,
  gid: string,
  before: string[] | undefined,
  after: string[],
) => {
  const [type, arg] =
    kind === "members" ? ["GuardrailMemberAssignment", "memberUserIds"] : ["GuardrailKeyAssignment", "keyHashes"];
  const map = (ids: string[]) => Object.fromEntries(ids.map((i) => [i, true]));
  return {
    op,
    urn: urn(type, name),
    ...(before
      ? {
          oldState: {
            id: `${gid}/${kind}`,
            inputs: { guardrailId: gid, exclusive: true },
            outputs: { [kind]: map(before) },
          },
        }
      : {}),
    newState: { inputs: { guardrailId: gid, exclusive: true, [kind]: map(after), [arg]: undefined } },
  };
};
/** The workspace's default policy of each kind, managed in the stack and restricting nothing. */
const DEFAULT_POLICIES = [
  same("BudgetPolicy", "default-budget", { name: "Default budget", workspaceDefault: true }),
  same("ModelAccessPolicy", "default-models", { name: "Default models", workspaceDefault: true }),
  same("ModerationPolicy", "default-moderation", { name: "Default moderation", workspaceDefault: true }),
];
const DEFAULT_GUARDRAIL = same("WorkspaceDefaultGuardrail", "default", {
  allowedModels: ["vendor-x/model-a", "vendor-x/model-y"],
});
const line = (md: string, who: string) =>
  md
    .split("\n")
    .find((l) => (l.includes(who) && l.startsWith("- ") && l.includes(" · member")) || l.includes(` · key \`${who}`)) ??
  "";

describe("the PR summary states each touched member's and key's effective change", () => {
  // A key's own guardrail loosened, under its owner's stricter guardrail.
  const keyUnderMember = [
    DEFAULT_GUARDRAIL,
    ...DEFAULT_POLICIES,
    same("Guardrail", "strict", { name: "Strict", allowedModels: ["vendor-x/model-a"] }),
    set("same", "members", "strict-members", "strict", ["user_alice"], ["user_alice"]),
    set("same", "keys", "strict-keys", "strict", [], []),
    step(
      "update",
      "Guardrail",
      "ci-key",
      { name: "CI key", allowedModels: ["vendor-x/model-a"] },
      { name: "CI key", allowedModels: ["vendor-x/model-a", "vendor-x/model-y"] },
    ),
    set("same", "members", "ci-key-members", "ci-key", [], []),
    set("same", "keys", "ci-key-keys", "ci-key", ["k1"], ["k1"]),
  ];

  it("a key loosened under a stricter member guardrail: no effective change, nothing loosens", () => {
    const s = summarize({ steps: keyUnderMember }, { keyOwners: { k1: "user_alice" } });
    expect(s.markdown).toContain(
      "- ➖ no effective change · key `k1` (`CI key` changes): its other layers still decide what it can use",
    );
    expect(s.markdown).toContain(
      "- ➖ neutral · allowedModels `vendor-x/model-y`: added; no effective change for anyone on it (see Effective access)",
    );
    expect(s.markdown.split("\n")[0]).toMatch(/^\*\*🔒 Nothing loosens/);
    expect(s.loosens).toBe(false);
  });

  it("the same key with its owner not named: its owner's layers are unknown, so it stays a loosening", () => {
    const s = summarize({ steps: keyUnderMember });
    expect(s.markdown).toContain(
      "- 🔓 **loosens** · key `k1` gains `allowed models: vendor-x/model-y now allowed` (`CI key` changes); unless a layer not in this stack restricts it: `its owner's layers",
    );
    expect(s.loosens).toBe(true);
  });

  it("a workspace default tightened: names who it reaches and who it does not", () => {
    const s = summarize({
      steps: [
        step(
          "update",
          "WorkspaceDefaultGuardrail",
          "default",
          { allowedModels: ["vendor-x/model-a", "vendor-x/model-y"] },
          { allowedModels: ["vendor-x/model-a"] },
        ),
        ...DEFAULT_POLICIES,
        same("Guardrail", "strict", { name: "Strict", allowedModels: ["vendor-x/model-a"] }),
        set("update", "members", "strict-members", "strict", ["user_alice", "user_bob"], ["user_alice"]),
      ],
    });
    expect(s.markdown).toContain(
      "- 🔒 tightens · default of workspace `" +
        WS +
        "` takes away `allowed models: vendor-x/model-y now allowed`: it reaches everyone of workspace `" +
        WS +
        "` without a guardrail of their own; of those this stack names: member `user_bob`; not member `user_alice` (on `Strict`), who hold a guardrail of their own",
    );
    expect(s.loosens).toBe(false);
  });

  it("a member moved to a laxer guardrail: names exactly what they gain, and from which layers", () => {
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        ...DEFAULT_POLICIES,
        same("Guardrail", "eng", { name: "Engineering", allowedModels: ["vendor-x/model-a"] }),
        same("Guardrail", "lax", { name: "Lax", allowedModels: ["vendor-x/model-a", "vendor-x/model-y"] }),
        set("update", "members", "eng-members", "eng", ["user_bob", "user_carol"], ["user_carol"]),
        set("update", "members", "lax-members", "lax", [], ["user_bob"]),
      ],
    });
    expect(s.markdown).toContain(
      "- 🔓 **loosens** · member `user_bob` gains `allowed models: vendor-x/model-y now allowed` (`Engineering` → `Lax`)",
    );
    expect(s.markdown).toContain(
      "- moved here from `Engineering`: `user_bob` · 🔓 **loosens**: effective: gains `allowed models: vendor-x/model-y now allowed`",
    );
    expect(s.loosens).toBe(true);
  });

  it("a policy opt-out added: names what that member gains", () => {
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        DEFAULT_POLICIES[0]!,
        DEFAULT_POLICIES[2]!,
        step(
          "update",
          "ModelAccessPolicy",
          "default-models",
          {
            name: "Default models",
            workspaceDefault: true,
            allowedProviders: ["provider-a"],
            optedOutMemberUserIds: [],
          },
          {
            name: "Default models",
            workspaceDefault: true,
            allowedProviders: ["provider-a"],
            optedOutMemberUserIds: ["user_dan"],
          },
        ),
      ],
    });
    expect(s.markdown).toContain(
      "- 🔓 **loosens** · member `user_dan` gains `allowed providers: no longer restricted (was 1 allowed)` (`Default models` → no layer)",
    );
    expect(s.loosens).toBe(true);
  });

  it("a direct policy assigned takes its member off a stricter workspace default: a loosening", () => {
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        ...DEFAULT_POLICIES.slice(1),
        same("BudgetPolicy", "default-budget", {
          name: "Default budget",
          workspaceDefault: true,
          limitUsd: 50,
          resetInterval: "weekly",
        }),
        step("create", "BudgetPolicy", "research", undefined, {
          name: "Research",
          limitUsd: 500,
          resetInterval: "weekly",
          memberUserIds: ["user_eve"],
        }),
      ],
    });
    expect(s.markdown).toContain(
      "- 🔓 **loosens** · member `user_eve` gains `budget 50 weekly (workspace-default-policy default-budget): no longer capped so` (`Default budget` → `Research`)",
    );
    expect(s.loosens).toBe(true);
  });

  it("a guardrail starting to set a kind takes its members off that kind's workspace default: a loosening", () => {
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        ...DEFAULT_POLICIES.slice(1),
        same("BudgetPolicy", "default-budget", {
          name: "Default budget",
          workspaceDefault: true,
          limitUsd: 50,
          resetInterval: "weekly",
        }),
        step(
          "update",
          "Guardrail",
          "eng",
          { name: "Engineering" },
          { name: "Engineering", limitUsd: 1000, resetInterval: "weekly" },
        ),
        set("same", "members", "eng-members", "eng", ["user_bob"], ["user_bob"]),
        set("same", "keys", "eng-keys", "eng", [], []),
      ],
    });
    // The setting table reads a limit set as a tightening; by effect it lifts the default's 50, and the first line says so.
    expect(s.markdown.split("\n")[0]).toBe("**🔓 Effective access widens:** member `user_bob`");
    expect(s.markdown).toContain(
      "- 🔓 **loosens** · member `user_bob` gains `budget 50 weekly (workspace-default-policy default-budget): no longer capped so` (`Default budget` → no layer)",
    );
    expect(s.loosens).toBe(true);
  });

  it("a value known only after apply stays flagged, and says what cannot be known", () => {
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        ...DEFAULT_POLICIES,
        step(
          "update",
          "Guardrail",
          "eng",
          { name: "Engineering", allowedModels: ["vendor-x/model-a"] },
          { name: "Engineering", allowedModels: UNKNOWN },
        ),
        set("same", "members", "eng-members", "eng", ["user_bob"], ["user_bob"]),
        set("same", "keys", "eng-keys", "eng", [], []),
      ],
    });
    expect(s.markdown).toContain("- ❔ **may loosen** · member `user_bob`");
    expect(s.markdown).toContain(
      'cannot be known at preview: `guardrail "Engineering": allowedModels not known at preview`',
    );
    expect(s.loosens).toBe(true);
  });

  it("a secret member list is never enumerated, and everyone of its workspace may be on it", () => {
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        ...DEFAULT_POLICIES,
        same("Guardrail", "eng", { name: "Engineering", allowedModels: ["vendor-x/model-a"] }),
        {
          ...set("update", "members", "eng-members", "eng", ["user_secret_1"], []),
          newState: { inputs: { guardrailId: "eng", exclusive: true, members: "[secret]" } },
        },
        step(
          "update",
          "ModelAccessPolicy",
          "extra",
          { name: "Extra", memberUserIds: ["user_zed"] },
          { name: "Extra", memberUserIds: ["user_zed"], allowedProviders: ["provider-b"] },
        ),
      ],
    });
    expect(s.markdown).not.toContain("user_secret_1");
    expect(s.markdown).toContain(
      'member set "eng-members": its list is secret or not known at preview (anyone may be on it)',
    );
    expect(s.loosens).toBe(true);
  });

  it("neutralises names and ids: a guardrail named like a verdict stays inside its code span", () => {
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        ...DEFAULT_POLICIES,
        same("Guardrail", "eng", { name: "Engineering", allowedModels: ["vendor-x/model-a"] }),
        same("Guardrail", "lax", {
          name: "`🔒 Nothing loosens` <b>",
          allowedModels: ["vendor-x/model-a", "vendor-x/model-y"],
        }),
        set("update", "members", "eng-members", "eng", ["user_bob"], []),
        set("update", "members", "lax-members", "lax", [], ["user_bob"]),
      ],
    });
    expect(line(s.markdown, "user_bob")).toContain("(`Engineering` → `ˋ🔒 Nothing loosensˋ <b>`)");
  });

  it("with --show-replacement-steps, a replaced guardrail is read as the replace step plans it", () => {
    const replaced = (op: string, after: Bag | undefined) =>
      step(op, "Guardrail", "eng", { name: "Engineering", allowedModels: ["vendor-x/model-a"] }, after);
    const after = { name: "Engineering", allowedModels: ["vendor-x/model-a", "vendor-x/model-y"] };
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        ...DEFAULT_POLICIES,
        replaced("create-replacement", after),
        replaced("replace", after),
        replaced("delete-replaced", undefined),
        set("same", "members", "eng-members", "eng", ["user_bob"], ["user_bob"]),
      ],
    });
    expect(s.markdown).toContain(
      "- 🔓 **loosens** · member `user_bob` gains `allowed models: vendor-x/model-y now allowed` (`Engineering` changes)",
    );
    expect(s.loosens).toBe(true);
  });

  it("a key hash named like an Object property is not taken for a named owner", () => {
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        DEFAULT_POLICIES[0]!,
        DEFAULT_POLICIES[2]!,
        step(
          "update",
          "ModelAccessPolicy",
          "default-models",
          { name: "Default models", workspaceDefault: true, allowedProviders: ["provider-a"], optedOutKeyHashes: [] },
          {
            name: "Default models",
            workspaceDefault: true,
            allowedProviders: ["provider-a"],
            optedOutKeyHashes: ["constructor"],
          },
        ),
      ],
    });
    expect(line(s.markdown, "constructor")).toContain("gains `allowed providers: no longer restricted");
    expect(line(s.markdown, "constructor")).toContain("its owner's layers");
  });

  it("a policy's member list secret on one side is never enumerated from the other", () => {
    const budget = { name: "Tight", limitUsd: 1, resetInterval: "weekly" };
    const s = summarize({
      steps: [
        DEFAULT_GUARDRAIL,
        ...DEFAULT_POLICIES,
        step(
          "update",
          "BudgetPolicy",
          "tight",
          { ...budget, memberUserIds: ["user_hidden"] },
          {
            ...budget,
            memberUserIds: "[secret]",
          },
        ),
      ],
    });
    expect(s.markdown).not.toContain("user_hidden");
    expect(s.loosens).toBe(true);
  });

  describe("guardrails-preview-summary --key-owners", () => {
    const BIN = join(__dirname, "../../dist/tools/preview-summary/cli.js");
    const dir = mkdtempSync(join(tmpdir(), "key-owners-"));
    const preview = join(dir, "preview.json");
    writeFileSync(preview, JSON.stringify({ steps: keyUnderMember }));
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });

    it("with the key's owner named, a key loosened under its owner's stricter guardrail does not fail the check", () => {
      const owners = join(dir, "owners.json");
      writeFileSync(owners, JSON.stringify({ k1: "user_alice" }));
      expect(run("--fail-on-loosening", "--key-owners", owners, preview).status).toBe(0);
      expect(run("--fail-on-loosening", preview).status).toBe(3);
    });

    it("refuses a FIFO rather than waiting on it", () => {
      const fifo = join(dir, "owners.fifo");
      spawnSync("mkfifo", [fifo]);
      const res = spawnSync(process.execPath, [BIN, "--key-owners", fifo, preview], {
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(res.status).toBe(2);
      expect(res.stderr).toBe(`guardrails-preview-summary: --key-owners ${fifo} is not a regular file\n`);
    });

    it("refuses a file that is not an object of member ids, naming the key", () => {
      const bad = join(dir, "bad.json");
      writeFileSync(bad, JSON.stringify({ k1: 7 }));
      const res = run("--key-owners", bad, preview);
      expect(res.status).toBe(2);
      expect(res.stderr).toBe(
        `guardrails-preview-summary: --key-owners ${bad}: the owner of key "k1" must be a member user id string\n`,
      );
    });
  });
});
