/**
 * The policy pack and workspace default guardrails (issue 27): every guardrail rule holds a
 * default guardrail of either face too, and `requireWorkspaceDefault` wants each listed
 * workspace's default managed in the stack. Props go through the policy SDK's own proxy.
 */
import { describe, expect, it } from "vitest";
import type { PolicyResource } from "@pulumi/policy";
import * as proxy from "@pulumi/policy/proxy";
import { guardrailsPolicies, parsePolicyOptions, POLICY_RULES } from "../../src/policy";
import { NATIVE_WORKSPACE_DEFAULT_TYPE, WORKSPACE_DEFAULT_TYPE } from "../../src/core/type-tokens";
import { providerKind } from "../../src/policy/provenance";

const { UnknownValueError, unknownCheckingProxy, unknownStringValue } = proxy as any;

type Outcome = { level: string; message: string }[];
const WS = "3f2b8c1e-0000-4000-8000-00000000000a";
const byName = (name: string, opts: object) => guardrailsPolicies(opts).find((p) => p.name === name) as any;

async function collect(level: string, run: (report: (m: string) => void) => unknown): Promise<Outcome> {
  const out: Outcome = [];
  try {
    await run((message) => out.push({ level, message }));
  } catch (e) {
    if (!(e instanceof UnknownValueError)) throw e;
    out.push({ level: "advisory", message: (e as Error).message });
  }
  return out;
}

describe("guardrail rules hold workspace default guardrails too, on both faces", () => {
  it.each([WORKSPACE_DEFAULT_TYPE, NATIVE_WORKSPACE_DEFAULT_TYPE])(
    "%s over its ceiling fails, named as a default",
    async (type) => {
      const p = byName(POLICY_RULES.maxLimitUsd.name, { maxLimitUsd: 100 });
      const args = (limitUsd: number) =>
        ({
          type,
          name: "workspace-default.production",
          urn: `urn:pulumi:s::p::${type}::workspace-default.production`,
          props: unknownCheckingProxy({ workspaceId: "production", limitUsd, resetInterval: "daily" }),
          getConfig: () => ({}),
        }) as any;
      expect(await collect("mandatory", (r) => p.validateResource(args(500), r))).toEqual([
        {
          level: "mandatory",
          message:
            'workspace default guardrail "workspace-default.production": limitUsd [hidden] is over the organization\'s ceiling of 100 USD',
        },
      ]);
      expect(await collect("mandatory", (r) => p.validateResource(args(50), r))).toEqual([]);
    },
  );
});

describe("a default is told apart from a guardrail", () => {
  it("by its serialized provider's kind, under any type token", () => {
    const shim = (kind: string) =>
      `exports.handler = __f0; function __f0() { return require("pulumi-guardrails/internal")[kind]; } const kind = "${kind}";`;
    expect(providerKind(shim("workspaceDefaultGuardrail"))).toBe("workspaceDefault");
    expect(providerKind(shim("guardrail"))).toBe("guardrail");
  });

  it("requireMemberSet asks no member set of a default (it covers everyone without a guardrail)", async () => {
    const p = byName(POLICY_RULES.requireMemberSet.name, { requireMemberSet: true });
    const resource = (type: string, name: string) => ({
      type,
      name,
      urn: `urn:pulumi:s::p::${type}::${name}`,
      props: unknownCheckingProxy({ workspaceId: "production" }),
      dependencies: [],
      propertyDependencies: {},
    });
    const resources = [
      resource(WORKSPACE_DEFAULT_TYPE, "d"),
      resource(NATIVE_WORKSPACE_DEFAULT_TYPE, "n"),
      resource("guardrails:index:Guardrail", "g"),
    ];
    const out = await collect("mandatory", (r) => p.validateStack({ resources, getConfig: () => ({}) }, r));
    expect(out.map((o) => o.message)).toEqual([
      expect.stringMatching(/^guardrail "g": has no GuardrailMemberAssignment/),
    ]);
  });
});

describe("requireWorkspaceDefault (stack rule)", () => {
  const def = (name: string, props: Record<string, unknown>, type: string = WORKSPACE_DEFAULT_TYPE) =>
    ({
      type,
      name,
      urn: `urn:pulumi:s::p::${type}::${name}`,
      props: unknownCheckingProxy(props),
      dependencies: [],
      propertyDependencies: {},
    }) as unknown as PolicyResource;
  const run = (workspaces: string[], resources: PolicyResource[], config: Record<string, unknown> = {}) => {
    const p = byName(POLICY_RULES.requireWorkspaceDefault.name, { requireWorkspaceDefault: workspaces });
    return collect(p.enforcementLevel!, (r) => p.validateStack({ resources, getConfig: () => config } as any, r));
  };

  it("a listed workspace with no default in the stack fails, naming it; one managed by id, slug or outputs passes", async () => {
    const out = await run(
      ["production", WS.toUpperCase(), "staging", "lab"],
      [
        def("a", { workspaceId: "production" }),
        def("b", { workspaceId: WS, workspaceSlug: "research" }, NATIVE_WORKSPACE_DEFAULT_TYPE),
        // Created: outputs hold the id and the slug, whichever the program wrote.
        def("c", { workspaceId: "00000000-0000-4000-8000-000000000001", workspaceSlug: "staging" }),
      ],
    );
    expect(out).toEqual([
      {
        level: "mandatory",
        message:
          'workspace "lab": its default guardrail is not managed in this stack; declare it (workspaceDefaults: in the guardrail files, or a WorkspaceDefaultGuardrail whose workspaceId is its id or slug), or drop it from requireWorkspaceDefault',
      },
    ]);
  });

  it("a default not created yet, written by id, might be a listed slug: checked at up, not failed; an unknown workspaceId too", async () => {
    const pending = def("pending", { workspaceId: WS });
    expect(await run(["production"], [pending])).toEqual([
      {
        level: "advisory",
        message: expect.stringMatching(
          /^workspace default guardrail "pending": which workspace it manages is not known until it exists; guardrails-require-workspace-default is checked at up$/,
        ),
      },
    ]);
    // A listed workspace id no resource could be (every default's id is known) still fails beside it.
    const unknown = def("later", { workspaceId: unknownStringValue });
    const out = await run(["production"], [unknown]);
    expect(out).toHaveLength(1);
    expect(out[0]!.level).toBe("advisory");
  });

  it("a guardrail is not a workspace default; a wrong option is refused strictly, in the pack config too", async () => {
    const guardrail = def("eng", { workspaceId: WS }, "guardrails:index:Guardrail");
    expect((await run([WS], [guardrail])).map((o) => o.message)).toEqual([expect.stringMatching(/^workspace "3f2b/)]);
    expect(() => parsePolicyOptions({ requireWorkspaceDefault: [] })).toThrow(
      "requireWorkspaceDefault must not be empty: omit the option to disable the rule",
    );
    expect(() => parsePolicyOptions({ requireWorkspaceDefault: ["Prod\u202e", 7] })).toThrow(
      /requireWorkspaceDefault\[0\] each item must be a workspace id \(UUID\) or slug .*\(got "Prod\\u202e"\); requireWorkspaceDefault\[1\] each item must be a workspace id or slug string/,
    );
    await expect(run([WS], [], { requireWorkspaceDefault: "production" })).rejects.toThrow(
      /policy pack config of guardrails-require-workspace-default: requireWorkspaceDefault must be a list of workspace ids or slugs/,
    );
  });
});

describe("requireWorkspaceDefault with no workspace listed", () => {
  // A pack config's `all: advisory` enables every rule; this one then had no list and threw,
  // failing the whole preview (test/e2e/policy.test.ts caught it). Nothing listed: nothing required.
  it("requires nothing, and reports nothing, when neither the options nor the pack config list a workspace", async () => {
    const p = byName(POLICY_RULES.requireWorkspaceDefault.name, {});
    const args = { resources: [], getConfig: () => ({ all: "advisory" }) } as any;
    expect(await collect("advisory", (r) => p.validateStack(args, r))).toEqual([]);
  });
});
