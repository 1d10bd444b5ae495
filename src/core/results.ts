/**
 * What the lifecycles of both kinds answer, as plain data: no face's types. A face turns
 * these into its own protocol (src/dynamic/lifecycle-adapter.ts for the dynamic provider).
 */
import type { PropertyFailure } from "./args/messages";

export type { PropertyFailure };

/** `check`: the inputs to go on with, and every failure with its property path in the program's names. */
export interface CheckResult {
  inputs: Record<string, unknown>;
  failures: PropertyFailure[];
}

/** How one property changes: in place, by replacing the resource, or an entry of a keyed property added or deleted. */
export type ChangeKind = "update" | "replace" | "add" | "delete";

/** One changed property: a top-level name (`workspaceId`) or a key path (`members["user_bob"]`). */
export interface PropertyChange {
  path: string;
  kind: ChangeKind;
}

/** `diff`: every changed property (none: no change). */
export interface DiffResult {
  changes: PropertyChange[];
  /**
   * Whether a replacement deletes first. Decided once the inputs are known; absent while a
   * value is still unknown (a preview), when the diff only says what may change.
   */
  deleteBeforeReplace?: boolean;
}

/** `create`: the new resource's id and the properties to record. */
export interface CreateResult {
  id: string;
  properties: Record<string, unknown>;
}

/** `read`: the resource as it is now, and the inputs that would produce it; undefined when it is gone. */
export interface ReadResult {
  id: string;
  properties: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

/** `update`: the properties to record. */
export interface UpdateResult {
  properties: Record<string, unknown>;
}

/** The lifecycle of one kind of resource: what a face adapts to its way of running it. */
export interface Lifecycle {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<CheckResult>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<DiffResult>;
  create(news: Record<string, unknown>): Promise<CreateResult>;
  read(id: string, props: Record<string, unknown>): Promise<ReadResult | undefined>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<UpdateResult>;
  delete(id: string, props: Record<string, unknown>): Promise<void>;
}

/** The path of one entry of a keyed property: `members["user_bob"]`, `contentFilterBuiltins["email"]`. */
export function keyPath(property: string, key: string): string {
  return `${property}[${JSON.stringify(key)}]`;
}

/** A change to each named top-level property. */
export function updates(properties: Iterable<string>): PropertyChange[] {
  return [...properties].map((path) => ({ path, kind: "update" }));
}
