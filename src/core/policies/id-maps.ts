/**
 * A policy's id lists as the dynamic face holds them: each one a map `{id: true}` in its inputs,
 * its state and the state's copy of the args, under the program's names
 * (`memberUserIds: {"user_x": true}`; a WorkspaceWidePolicy's `workspaceIds: {"<uuid>": true}`). The engine previews a dynamic resource from its inputs and
 * its outputs alone (the host takes no detailed diff), and it diffs objects key by key but arrays
 * index by index: a map makes the preview name each member and key that joins or leaves
 * (`+ user_x: true` under `memberUserIds`; a workspace joining a workspace-wide policy), as the
 * set resources' `members` map does (core/assignments/id-map.ts). The core's lifecycle works with lists; `idMapFace` converts at
 * its edge. The native face keeps lists: its schema types them so, and its detailed diff
 * already names each id.
 */
import { assignedIds, toIdMap } from "../args/id-map";
import { asSecret, isSecretEnvelope, isUnknown } from "../markers";
import { keyPath, type Lifecycle, type PropertyFailure } from "../results";
import { ID_LISTS } from "./args";

type Props = Record<string, unknown>;

const isIdMap = (v: unknown): v is Props =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !isSecretEnvelope(v);

/** One value as a list: a map's ids (sorted), anything else as it is (a list, unknown, a bad value `check` refuses). */
function asList(v: unknown): unknown {
  if (isSecretEnvelope(v)) return asSecret(asList((v as { value: unknown }).value));
  return isIdMap(v) ? assignedIds(v) : v;
}

/** One value as a map: a list's ids (sorted), anything else as it is; a secret stays in its envelope. */
function asMap(v: unknown): unknown {
  if (isSecretEnvelope(v)) return asSecret(asMap((v as { value: unknown }).value));
  return Array.isArray(v) && v.every((id) => typeof id === "string") ? toIdMap([...v].sort()) : v;
}

/** `props` with each of its id lists (`lists`) converted, at the top and in the state's `args`. */
function converted(props: Props, f: (v: unknown) => unknown, lists: readonly string[]): Props {
  const each = (bag: Props): Props => {
    const out = { ...bag };
    for (const l of lists) if (out[l] !== undefined && out[l] !== null) out[l] = f(out[l]);
    return out;
  };
  const top = each(props);
  const args = props.args;
  if (isIdMap(args)) top.args = each(args);
  else if (isSecretEnvelope(args)) top.args = asSecret(each((args as { value: Props }).value));
  return top;
}

/** The program's inputs (or the state) with each id map of `lists` as the core's list. */
export const asLists = (props: Props, lists: readonly string[] = ID_LISTS): Props => converted(props, asList, lists);
/** The core's properties with each id list of `lists` as the dynamic face's map. */
export const asMaps = (props: Props, lists: readonly string[] = ID_LISTS): Props => converted(props, asMap, lists);

/**
 * A failure at an entry of a list the face gave as a map names the entry by its id
 * (`memberUserIds["x"]`), since the program never saw that index; a secret list's failure keeps
 * the list's name alone.
 */
function byId(failures: readonly PropertyFailure[], lists: Props): PropertyFailure[] {
  return failures.map((f) => {
    const m = /^(\w+)\[(\d+)\]$/.exec(f.property);
    const ids = m ? lists[m[1]!] : undefined;
    if (!m || !Array.isArray(ids) || isUnknown(ids)) return f;
    const id = ids[Number(m[2])];
    return { ...f, property: f.secret || typeof id !== "string" ? m[1]! : keyPath(m[1]!, id) };
  });
}

/**
 * The lists a program gave as an object of its own: the class turns a list into `{id: true}`
 * and passes anything else as it is, so a map with another value (`{id: false}`) is the
 * program's, and read as a map it would silently drop those ids.
 */
function notMaps(news: Props, lists: readonly string[]): PropertyFailure[] {
  const inner = (v: unknown) => (isSecretEnvelope(v) ? (v as { value: unknown }).value : v);
  return lists
    .filter((l) => {
      const v = inner(news[l]);
      return isIdMap(v) && Object.values(v).some((x) => x !== true);
    })
    .map((l) => ({ property: l, reason: `${l} must be a list of ids; got an object` }));
}

/**
 * A policy lifecycle as the dynamic face calls it: id maps in, id maps out, the core in between.
 * `lists` names the kind's id lists (a workspace policy's by default; a workspace-wide policy's
 * are workspace-wide-model.ts's `COVERAGE_LISTS`).
 */
export function idMapFace(core: Lifecycle, lists: readonly string[] = ID_LISTS): Lifecycle {
  const toLists = (p: Props) => asLists(p, lists);
  const toMaps = (p: Props) => asMaps(p, lists);
  return {
    check: async (olds, news) => {
      const given = toLists(news);
      const r = await core.check(toLists(olds), given);
      return { inputs: news, failures: [...notMaps(news, lists), ...byId(r.failures, given)] };
    },
    diff: (id, olds, news) => core.diff(id, toLists(olds), toLists(news)),
    create: async (news) => {
      const r = await core.create(toLists(news));
      return { ...r, properties: toMaps(r.properties) };
    },
    read: async (id, props) => {
      const r = await core.read(id, toLists(props));
      return r && { ...r, properties: toMaps(r.properties), inputs: toMaps(r.inputs) };
    },
    update: async (id, olds, news) => {
      const r = await core.update(id, toLists(olds), toLists(news));
      return { ...r, properties: toMaps(r.properties) };
    },
    delete: (id, props) => core.delete(id, toLists(props)),
  };
}
