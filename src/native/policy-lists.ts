/**
 * The id lists of the Guardrail Policies on the native face (issue 40: "previews name each member
 * and key that joins or leaves"). A program gives each list as a list of strings
 * (`memberUserIds`); `check` adds an id map `{id: true}` beside each one (`members`), as it does
 * for the set resources (sets.ts), so the engine has a path per id to show. The engine looks a
 * detailed diff's paths up in the old and the new inputs, diffs objects key by key but arrays
 * index by index, and a key into a list finds nothing: the core's `memberUserIds["user_bob"]` is
 * shown as `members["user_bob"]` (diff.ts), `- user_bob: true` and `+ user_carol: true`, never
 * one index rewritten (`~ [1]: "user_bob" => "user_carol"`).
 *
 * The maps are the face's bookkeeping: the core never sees them (they are dropped before each of
 * its calls), the program and the SDK read the lists (the schema has no map), an import answers
 * the program's args alone, and a secret list's map is as secret. State written before the maps existed previews as it did
 * (no change when the program is the same; diff.ts finds a leaving id at its old index).
 */
import { toIdMap } from "../core/args/id-map";
import { asSecret, containsUnknown, isSecretEnvelope } from "../core/markers";
import type { Lifecycle } from "../core/results";

type Props = Record<string, unknown>;

/** Each policy id list (workspace policies' and a workspace-wide policy's) and the name of its id map. */
export const ID_MAP_OF: Readonly<Record<string, string>> = {
  memberUserIds: "members",
  keyHashes: "keys",
  optedOutMemberUserIds: "optedOutMembers",
  optedOutKeyHashes: "optedOutKeys",
  workspaceIds: "workspaces",
  optedOutWorkspaceIds: "optedOutWorkspaces",
};

const MAP_NAMES = new Set(Object.values(ID_MAP_OF));

/** The id map of one list as a bag holds it (a secret list's map in the envelope), or undefined when the ids are not all known strings. */
function mapOf(v: unknown, secret: boolean): unknown {
  if (isSecretEnvelope(v)) return mapOf((v as { value: unknown }).value, true);
  if (!Array.isArray(v) || containsUnknown(v) || !v.every((id) => typeof id === "string")) return undefined;
  const map = toIdMap([...v].sort());
  return secret ? asSecret(map) : map;
}

/** `props` with the id map of each list it holds, beside the list. */
function withMaps(props: Props, lists: readonly string[]): Props {
  const secret = new Set(Array.isArray(props.__secretArgs) ? props.__secretArgs : []);
  const maps = lists.flatMap((l) => {
    const m = props[l] === undefined ? undefined : mapOf(props[l], secret.has(l));
    return m === undefined ? [] : [[ID_MAP_OF[l]!, m] as const];
  });
  return { ...props, ...Object.fromEntries(maps) };
}

/**
 * Checked inputs (or state) as the core takes them: the face's id maps dropped, from the secret
 * arg names too (the engine names a secret map among its secret roots; the core knows only the
 * lists, and an import records only their names, so a map's name would read as a change of secrecy).
 */
function withoutMaps(news: Props): Props {
  const out = Object.fromEntries(Object.entries(news).filter(([k]) => !MAP_NAMES.has(k)));
  if (Array.isArray(out.__secretArgs)) out.__secretArgs = out.__secretArgs.filter((n) => !MAP_NAMES.has(n));
  return out;
}

/**
 * A policy kind's core lifecycle on the native face: `check` answers the id map beside each list
 * (only when the inputs pass: a program that writes `members` itself is refused by the core as
 * an unknown arg); the outputs hold them too, and so do a refresh's inputs: a refresh's diff is
 * shown from the old inputs to the new outputs, a preview's from the old inputs to the new
 * inputs, and each side must hold the map for an id to show as its own line. The core gets
 * every bag without them.
 */
export function withIdMaps(core: Lifecycle, lists: readonly string[]): Lifecycle {
  const mapped = <T extends { properties: Props }>(r: T): T => ({ ...r, properties: withMaps(r.properties, lists) });
  return {
    check: async (olds, news) => {
      const r = await core.check(olds, news);
      return r.failures.length > 0 ? r : { ...r, inputs: withMaps(r.inputs, lists) };
    },
    diff: (id, olds, news) => core.diff(id, withoutMaps(olds), withoutMaps(news)),
    create: async (news) => mapped(await core.create(withoutMaps(news))),
    read: async (id, props) => {
      // An import answers the args a program writes (the generated code), so no map in its inputs.
      const importing = props === undefined || Object.keys(props).length === 0;
      const r = await core.read(id, importing ? props : withoutMaps(props));
      if (!r) return r;
      return { ...mapped(r), ...(importing ? {} : { inputs: withMaps(r.inputs, lists) }) };
    },
    update: async (id, olds, news) => mapped(await core.update(id, withoutMaps(olds), withoutMaps(news))),
    delete: (id, props) => core.delete(id, withoutMaps(props)),
  };
}
