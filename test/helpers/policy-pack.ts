/**
 * Runs a policy pack over resources through the policy SDK's own code, the way its server
 * hands them over: the engine's wire form (secrets as `{sig, value}`, `__provider` present for
 * remediations and stripped for analysis, as a real run showed), the SDK's deserializer and
 * unknown-checking proxy, remediations before validations, then the stack policies. Levels
 * resolve as the SDK's server does (pack config, then the policy's own); `all` in a pack config
 * is the CLI's, which expands it into one entry per policy (`allAt`).
 */
import { expect } from "vitest";
import type { Policies, PolicyResource, StackValidationPolicy } from "@pulumi/policy";
import * as proxy from "@pulumi/policy/proxy";
import * as deserialize from "@pulumi/policy/deserialize";
import * as pulumi from "@pulumi/pulumi";
import { GUARDRAIL_TYPE, MEMBER_ASSIGNMENT_TYPE } from "../../src/policy";
import { shimFor } from "../../src/dynamic/internal";

export const { UnknownValueError, unknownCheckingProxy } = proxy as any;
/** The policy SDK's own sentinels for a value unknown at preview: a string, an object. */
export const sdkUnknown = { string: (proxy as any).unknownStringValue, object: (proxy as any).unknownObjectValue };
const { deserializeProperties } = deserialize as any;

/** The engine's secret signature (sdk rpc.ts `specialSecretSig`). */
export const SIG = "4dabf18193072939515e22adb298388d";
export const secret = (value: unknown) => ({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", value });

/** The text Pulumi stores as a dynamic resource's `__provider`, for one of the package's shims. */
export async function serialized(kind: "guardrail" | "memberAssignment" | "keyAssignment"): Promise<string> {
  const provider = shimFor(kind);
  return (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}

export interface Res {
  type: string;
  name: string;
  /** Inputs in the engine's wire form (secrets wrapped), without `__provider`. */
  props: Record<string, unknown>;
  provider?: string;
  /** Stack view: the property dependencies of `guardrailId`, and all dependencies. */
  guardrailIdDeps?: string[];
  deps?: string[];
}
export type Outcome = { policy: string; level: string; name: string; message: string };

const urn = (r: Res) => `urn:pulumi:dev::p::${r.type}::${r.name}`;
const wire = (props: Record<string, unknown>) => ({ toJavaScript: () => JSON.parse(JSON.stringify(props)) });

/** One run of a pack over `resources`, the way the policy SDK's server drives it. */
export async function runPack(
  policies: Policies,
  resources: Res[],
  config: Record<string, Record<string, unknown>> = {},
): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const levelOf = (p: Policies[number]) =>
    (config[p.name]?.enforcementLevel as string | undefined) ?? p.enforcementLevel ?? "advisory";
  const getConfig = (p: Policies[number]) => () => config[p.name] ?? {};
  const guard = async (p: Policies[number], name: string, _level: string, fn: () => unknown) => {
    try {
      await fn();
    } catch (e) {
      if (!(e instanceof UnknownValueError)) throw e;
      out.push({ policy: p.name, level: "advisory", name, message: (e as Error).message });
    }
  };
  for (const r of resources) {
    const withProvider = r.provider === undefined ? r.props : { ...r.props, __provider: r.provider };
    for (const p of policies) {
      if (levelOf(p) !== "remediate" || !("remediateResource" in p) || !p.remediateResource) continue;
      const props = unknownCheckingProxy(deserializeProperties(wire(withProvider), true));
      const result = await (p.remediateResource as any)({
        type: r.type,
        name: r.name,
        urn: urn(r),
        props,
        getConfig: getConfig(p),
      });
      expect(result, `${p.name} changes nothing`).toBeUndefined();
    }
    for (const p of policies) {
      const level = levelOf(p) === "remediate" ? "mandatory" : levelOf(p);
      if (level === "disabled" || !("validateResource" in p) || !p.validateResource) continue;
      const pinned = (p.validateResource as any).__pulumiType;
      if (pinned && pinned !== r.type) continue;
      const props = unknownCheckingProxy(deserializeProperties(wire(r.props), false));
      const report = (message: string) => out.push({ policy: p.name, level, name: r.name, message });
      await guard(p, r.name, level, () =>
        (p.validateResource as any)(
          { type: r.type, name: r.name, urn: urn(r), props, getConfig: getConfig(p) },
          report,
        ),
      );
    }
  }
  const stack = resources.map(
    (r) =>
      ({
        type: r.type,
        name: r.name,
        urn: urn(r),
        props: unknownCheckingProxy(deserializeProperties(wire(r.props), false)),
        dependencies: [],
        propertyDependencies: {},
      }) as unknown as PolicyResource,
  );
  resources.forEach((r, i) => {
    const find = (n: string) => stack.find((s) => s.name === n)!;
    stack[i]!.dependencies = (r.deps ?? r.guardrailIdDeps ?? []).map(find);
    if (r.guardrailIdDeps) stack[i]!.propertyDependencies = { guardrailId: r.guardrailIdDeps.map(find) };
  });
  for (const p of policies) {
    if (!("validateStack" in p) || levelOf(p) === "disabled") continue;
    const report = (message: string, urnOf?: string) =>
      out.push({ policy: p.name, level: levelOf(p), name: stack.find((s) => s.urn === urnOf)?.name ?? "?", message });
    await guard(p, "stack", levelOf(p), () =>
      (p as StackValidationPolicy).validateStack({ resources: stack, getConfig: getConfig(p) } as any, report),
    );
  }
  return out;
}

export const guardrail = (name: string, props: Record<string, unknown>, extra: Partial<Res> = {}): Res => ({
  type: GUARDRAIL_TYPE,
  name,
  props: { name: `G ${name}`, ...props },
  ...extra,
});
export const memberSet = (name: string, guardrailId: unknown, extra: Partial<Res> = {}): Res => ({
  type: MEMBER_ASSIGNMENT_TYPE,
  name,
  props: { guardrailId, exclusive: false, members: { user_alice: true } },
  ...extra,
});
export const only = (outcomes: Outcome[], policy: string) => outcomes.filter((o) => o.policy === policy);

/**
 * A pack config as the CLI makes it from `{"all": level}`: one entry per policy, here only for
 * the policies the pack enables (a disabled rule that `all` switched on would need its value).
 */
export const allAt = (policies: Policies, level: string, extra: Record<string, Record<string, unknown>> = {}) =>
  Object.fromEntries(
    policies
      .filter((p) => p.enforcementLevel !== "disabled")
      .map((p) => [p.name, { enforcementLevel: level, ...extra[p.name] }]),
  );
