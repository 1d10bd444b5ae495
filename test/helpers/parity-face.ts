/**
 * One face of the parity suite: a Program (its own emulator, file backend, stack) whose
 * `pulumi` runs are counted by the emulator's request log, call by call, as method, path shape
 * (ids folded to `{id}`) and status. The native face finds `pulumi-resource-guardrails` on PATH
 * (src/native/bin, over the built dist/).
 */
import { join } from "node:path";
import type { Program, RunResult } from "./program";
import { http, REPO_ROOT } from "./spawn-emulator";
import { type Face, type Kind, type ResourceSpec, programText } from "./parity-program";

/** Where the engine finds the native plugin: the launcher runs dist/src/native/main.js. */
export const NATIVE_BIN = join(REPO_ROOT, "src/native/bin");

/** API calls by `METHOD /path/shape STATUS`, e.g. `PATCH /api/v1/guardrails/{id} 409`. */
export type CallCounts = Record<string, number>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The shape of one logged call: ids folded, the query's values dropped (its names kept). */
export function callShape(e: { method: string; path: string; query?: string; status: number }): string {
  const path = e.path
    .split("/")
    .map((s) => (UUID.test(s) ? "{id}" : s))
    .join("/");
  const names = new URLSearchParams(e.query ?? "");
  const query = [...new Set(names.keys())].sort().join("&");
  return `${e.method} ${path}${query ? `?${query}` : ""} ${e.status}`;
}

/** The policy kinds by their path segment (`/guardrails/policies/<segment>`). */
const POLICY_SEGMENTS: Record<string, Kind> = {
  budget: "BudgetPolicy",
  "model-availability": "ModelAccessPolicy",
  moderation: "ModerationPolicy",
  account: "WorkspaceWidePolicy",
};

/** Which kind a call serves: a policy path its policy kind, the assignment paths the set kinds, the rest Guardrail. */
export function callKind(shape: string): Kind {
  const policy = /\/guardrails\/policies\/([a-z-]+)/.exec(shape)?.[1];
  if (policy && POLICY_SEGMENTS[policy]) return POLICY_SEGMENTS[policy];
  if (shape.includes("/assignments/members")) return "GuardrailMemberAssignment";
  if (shape.includes("/assignments/keys")) return "GuardrailKeyAssignment";
  return "Guardrail";
}

/** Only the calls of `kinds`. */
export function ofKinds(calls: CallCounts, kinds: readonly Kind[]): CallCounts {
  return Object.fromEntries(Object.entries(calls).filter(([shape]) => kinds.includes(callKind(shape))));
}

/** A counted CLI run: what it printed and the API calls it made. */
export interface CountedRun extends RunResult {
  calls: CallCounts;
}

/** One face's stack and the kinds its program holds. */
export class ParityFace {
  constructor(
    readonly face: Face,
    readonly program: Program,
    /** The kinds this face serves today; the program leaves the others out. */
    readonly kinds: readonly Kind[],
  ) {
    if (face === "native") {
      program.env.PATH = `${NATIVE_BIN}:${program.env.PATH}`;
      program.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
    }
  }

  /** Writes the program of this face for `resources`, without the kinds it does not serve. */
  write(resources: readonly ResourceSpec[]): void {
    this.program.write(
      programText(
        this.face,
        resources.filter((r) => this.kinds.includes(r.kind)),
      ),
    );
  }

  /** Runs `pulumi <args>` with a cleared request log; answers its output and its calls. */
  async run(args: string[]): Promise<CountedRun> {
    const admin = http(this.program.emulator.url);
    await admin("DELETE", "/__emulator/log");
    const result = await this.program.pulumi(args);
    const log = (await admin("GET", "/__emulator/log")).body as {
      dropped: number;
      entries: Array<{ method: string; path: string; query: string; status: number }>;
    };
    if (log.dropped > 0) throw new Error(`the request log dropped ${log.dropped} entries: counts would be short`);
    const calls: CallCounts = {};
    for (const e of log.entries) calls[callShape(e)] = (calls[callShape(e)] ?? 0) + 1;
    return { ...result, calls };
  }

  /** `run`, failing with the output unless the run exits 0. */
  async ok(args: string[]): Promise<CountedRun> {
    const r = await this.run(args);
    if (r.code !== 0) throw new Error(`[${this.face}] pulumi ${args.join(" ")} exited ${r.code}:\n${r.output}`);
    return r;
  }

  /** `run`, failing with the output unless the run fails. */
  async fails(args: string[]): Promise<CountedRun> {
    const r = await this.run(args);
    if (r.code === 0)
      throw new Error(`[${this.face}] pulumi ${args.join(" ")} succeeded, a failure was expected:\n${r.output}`);
    return r;
  }

  /** The stack's `ids` output: each resource's id by Pulumi name. */
  async ids(): Promise<Record<string, string>> {
    return (await this.program.outputs()).ids as Record<string, string>;
  }
}

/** A table of two faces' calls, one line per shape, for a failure message or the log. */
export function callTable(a: CallCounts, b: CallCounts, labels: [string, string] = ["dynamic", "native"]): string {
  const shapes = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const rows = shapes.map((s) => `${String(a[s] ?? 0).padStart(4)} ${String(b[s] ?? 0).padStart(4)}  ${s}`);
  return [`${labels[0].slice(0, 4).padStart(4)} ${labels[1].slice(0, 4).padStart(4)}  call`, ...rows].join("\n");
}
