/**
 * The core's lifecycle answers (src/core/results.ts) as the dynamic-provider host takes them.
 * The host has no detailed diff: it gets whether anything changes and which top-level
 * properties force a replacement; the key paths stay for a face that can show them.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { DiffResult, Lifecycle } from "../core/results";
import { forEngine } from "./check-failures";

/** The dynamic-provider methods of one kind, by the names users' state calls them. */
// A type, not an interface, so it meets the method-table wrappers' `Record<string, ...>` bound.
export type DynamicMethods = {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult>;
  create(news: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult>;
  update(
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Record<string, unknown>): Promise<void>;
};

/** A core diff as the host's: changed at all, and the properties that replace. */
export function dynamicDiff(d: DiffResult): pulumi.dynamic.DiffResult {
  const replaces = d.changes.filter((c) => c.kind === "replace").map((c) => c.path);
  return {
    changes: d.changes.length > 0,
    replaces,
    ...(d.deleteBeforeReplace === undefined ? {} : { deleteBeforeReplace: d.deleteBeforeReplace }),
  };
}

/** The dynamic-provider methods over one kind's core lifecycle. */
export function dynamicMethods(core: Lifecycle): DynamicMethods {
  return {
    check: async (olds, news) => {
      const r = await core.check(olds, news);
      return { inputs: r.inputs, failures: forEngine(r.failures, news) };
    },
    diff: async (id, olds, news) => dynamicDiff(await core.diff(id, olds, news)),
    create: async (news) => {
      const r = await core.create(news);
      return { id: r.id, outs: r.properties };
    },
    read: async (id, props) => {
      const r = await core.read(id, props);
      return r ? { id: r.id, props: r.properties, inputs: r.inputs } : {};
    },
    update: async (id, olds, news) => ({ outs: (await core.update(id, olds, news)).properties }),
    delete: (id, props) => core.delete(id, props),
  };
}
