/**
 * Moving a stack from the dynamic face to the native face without a call to the service: from
 * the stack's own state (`pulumi stack export`), the import files that recreate each dynamic
 * resource under its native token with the same name, parent and id, and the dynamic URNs to
 * drop from the state afterwards. Ids, names, parents and protect flags are read, and what
 * each import id carries (import-ids.ts: a set's mode and ids, a guardrail's model
 * identifiers). The args that were secret are named in the import ids, so the import records
 * them as secrets; what an id carries of a secret is read from an opened copy of the state
 * (`revealed`, `--show-secrets`) and sealed (import-ids.ts).
 */
import { KINDS } from "../core/kinds";
import { dynamicKindOf, dynamicSetOf, GUARDRAIL_TYPE } from "../core/type-tokens";
import { parseUrn } from "../core/urn";
import { hasControl } from "../core/text/controls";
import { shown } from "../core/args/messages";
import { UserError } from "../core/user-error";
import { importIdOf, openedSecrets } from "./import-ids";
import type { PulumiImportFile, PulumiImportResource } from "./pulumi-import";

/** The state cannot be migrated as it is; nothing was done. */
export class StateMigrationError extends UserError {}

/**
 * The native twin's token of a dynamic resource's, every kind (kinds.ts). A workspace default's
 * id is the workspace's id, which the native face imports as is.
 */
const nativeOf = (type: string): string | undefined => {
  const kind = dynamicKindOf(type);
  return kind && KINDS[kind].nativeToken;
};
/** A set's id is `<guardrail id>/<state key>` (`/members`, `/keys`) on both faces. */
const setSuffix = (type: string): string | undefined => {
  const set = dynamicSetOf(type);
  return set && `/${set.stateKey}`;
};

/** One dynamic resource and its native twin. */
export interface Move {
  urn: string;
  /** The URN the twin has: the same but for the type. */
  nativeUrn: string;
  name: string;
  id: string;
  type: string;
  nativeType: string;
  protect: boolean;
  /** The twin is in the state already (an earlier run imported it): only the delete is left. */
  imported: boolean;
  /** The id `pulumi import` is given: a set's names the ids and mode the dynamic state managed (import-ids.ts). */
  importId: string;
}

/** What a migration does, in order: each import file (one per protect flag), then each delete. */
export interface MigrationPlan {
  moves: Move[];
  /** `pulumi import --file` runs, each with `--protect=<protect>`; only moves not yet imported. */
  imports: Array<{ protect: boolean; file: PulumiImportFile }>;
  /** `pulumi state delete` runs: the sets before the guardrails they depend on; `force` for protected ones. */
  deletes: Array<{ urns: string[]; force: boolean }>;
  /** Dynamic resources of this package left as they are, each with why. */
  skipped: string[];
}

/** One resource of a `pulumi stack export` document, as far as the migration reads it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: unknown;
  parent?: unknown;
  provider?: unknown;
  protect?: unknown;
  custom?: unknown;
  inputs?: unknown;
  outputs?: unknown;
  delete?: unknown;
  external?: unknown;
  dependencies?: unknown;
  propertyDependencies?: unknown;
}

/** Longest URN or id read; a longer one is not ours. */
const MAX_TEXT = 4096;
const plainText = (v: unknown): v is string =>
  typeof v === "string" && v.length > 0 && v.length <= MAX_TEXT && !hasControl(v);

/** The resources of a `pulumi stack export` document (or of its `deployment`), each with a URN and type. */
export function stateResources(state: unknown): StateResource[] {
  const doc = state as { deployment?: { resources?: unknown }; resources?: unknown } | null;
  const list = doc && typeof doc === "object" ? (doc.deployment?.resources ?? doc.resources) : undefined;
  if (!doc || typeof doc !== "object" || (doc.deployment === undefined && doc.resources === undefined))
    throw new StateMigrationError("expected the JSON that `pulumi stack export` prints ({version, deployment})");
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new StateMigrationError("deployment.resources is not a list");
  return list.filter(
    (r): r is StateResource => !!r && typeof r === "object" && plainText(r.urn) && typeof r.type === "string",
  );
}

/**
 * The migration of every dynamic resource of this package in `state` (what `pulumi stack
 * export` prints). A resource still to be deleted by the engine (`delete: true`), a read
 * (`external`), or one without a usable id is left dynamic and listed in `skipped`.
 *
 * @throws StateMigrationError when another resource depends on or is parented to one that
 *   would move (the state delete would refuse it), or a twin holds another id.
 */
export function planMigration(state: unknown, revealed?: { state: unknown; sealKey: string }): MigrationPlan {
  const resources = stateResources(state);
  const opened = new Map(revealed ? stateResources(openedSecrets(revealed.state)).map((r) => [r.urn, r]) : []);
  const byUrn = new Map(resources.map((r) => [r.urn, r]));
  const moves: Move[] = [];
  const skipped: string[] = [];
  for (const r of resources) {
    const nativeType = nativeOf(r.type);
    if (!nativeType) continue;
    const why = skipReason(r);
    if (why) {
      skipped.push(`${shown(r.urn)}: ${why}`);
      continue;
    }
    const parts = parseUrn(r.urn)!;
    const qualified = parts.qualifiedType.replace(/[^$]*$/, nativeType);
    const nativeUrn = `${parts.head}::${qualified}::${parts.name}`;
    const twin = byUrn.get(nativeUrn);
    if (twin && twin.id !== r.id)
      throw new StateMigrationError(
        `${shown(nativeUrn)} is in the state already with id ${shown(twin.id)}, not ${shown(r.id)}; remove one of them first`,
      );
    const protect = r.protect === true;
    moves.push({
      urn: r.urn,
      nativeUrn,
      name: parts.name,
      id: r.id as string,
      type: r.type,
      nativeType,
      protect,
      imported: !!twin,
      importId: twin
        ? (r.id as string)
        : importIdOf(
            r,
            (why) => {
              throw new StateMigrationError(why);
            },
            revealed && opened.has(r.urn) ? { resource: opened.get(r.urn)!, sealKey: revealed.sealKey } : undefined,
          ),
    });
  }
  refuseDependents(resources, moves);
  return { moves, imports: importsOf(moves, byUrn), deletes: deletesOf(moves), skipped };
}

function skipReason(r: StateResource): string | undefined {
  if (r.delete === true) return "pending deletion; the next pulumi up deletes it";
  if (r.external === true) return "read, not managed (a get)";
  if (r.custom === false) return "not a custom resource";
  if (!plainText(r.id)) return "no usable id";
  if (!parseUrn(r.urn)) return "not a URN";
  const suffix = setSuffix(r.type);
  if (suffix && !r.id.endsWith(suffix)) return `its id does not end in ${suffix}`;
  return undefined;
}

/** Whether anything that stays in the state would still point at a URN that leaves it. */
function refuseDependents(resources: readonly StateResource[], moves: readonly Move[]): void {
  const leaving = new Set(moves.map((m) => m.urn));
  const problems: string[] = [];
  for (const r of resources) {
    if (leaving.has(r.urn)) {
      if (typeof r.parent === "string" && leaving.has(r.parent))
        problems.push(`${shown(r.urn)} is parented to ${shown(r.parent)}, which moves too`);
      continue;
    }
    const deps = new Set<unknown>([
      r.parent,
      ...(Array.isArray(r.dependencies) ? r.dependencies : []),
      ...Object.values((r.propertyDependencies ?? {}) as Record<string, unknown>).flatMap((v) =>
        Array.isArray(v) ? v : [],
      ),
    ]);
    for (const d of deps)
      if (typeof d === "string" && leaving.has(d)) problems.push(`${shown(r.urn)} depends on ${shown(d)}`);
  }
  if (problems.length > 0)
    throw new StateMigrationError(
      `pulumi state delete would refuse to drop the dynamic resources that other resources depend on: ${problems.join("; ")}. Run pulumi up with those resources depending on the native ones (or on nothing) first`,
    );
}

/**
 * One import file per protect flag (so each resource keeps its own); a parent other than the
 * stack is named in the name table by its own name (`-2`, `-3`... when two share one), the
 * same name in every file.
 */
function importsOf(moves: readonly Move[], byUrn: ReadonlyMap<string, StateResource>) {
  const keyOf = new Map<string, string>();
  const taken = new Set<string>();
  const parentKey = (parent: unknown): string | undefined => {
    const parts = typeof parent === "string" ? parseUrn(parent) : undefined;
    if (!parts || parts.qualifiedType === "pulumi:pulumi:Stack") return undefined;
    let key = keyOf.get(parent as string);
    if (!key) {
      key = parts.name;
      for (let i = 2; taken.has(key); i++) key = `${parts.name}-${i}`;
      taken.add(key);
      keyOf.set(parent as string, key);
    }
    return key;
  };
  const out: MigrationPlan["imports"] = [];
  for (const protect of [false, true]) {
    const nameTable: Record<string, string> = {};
    const resources: PulumiImportResource[] = [];
    for (const m of moves.filter((x) => !x.imported && x.protect === protect)) {
      const parent = byUrn.get(m.urn)!.parent;
      const key = parentKey(parent);
      resources.push({ type: m.nativeType, name: m.name, id: m.importId, ...(key ? { parent: key } : {}) });
      if (key) nameTable[key] = parent as string;
    }
    if (resources.length > 0) out.push({ protect, file: { nameTable, resources } });
  }
  return out;
}

/** The sets first (they depend on their guardrails), each group split by protect. */
function deletesOf(moves: readonly Move[]): MigrationPlan["deletes"] {
  const out: MigrationPlan["deletes"] = [];
  for (const sets of [true, false])
    for (const force of [false, true]) {
      const urns = moves.filter((m) => (m.type !== GUARDRAIL_TYPE) === sets && m.protect === force).map((m) => m.urn);
      if (urns.length > 0) out.push({ urns, force });
    }
  return out;
}
