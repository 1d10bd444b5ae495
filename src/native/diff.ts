/**
 * The core's diff (src/core/results.ts) as a `DiffResponse` with a detailed diff: each change
 * at its key path (`contentFilterBuiltins["email"]`), the replace kinds marked, and the
 * top-level names in `diffs` and `replaces` for engines that read only those.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { ChangeKind, DiffResult } from "../core/results";

const KINDS: Record<ChangeKind, provproto.PropertyDiff.Kind> = {
  add: provproto.PropertyDiff.Kind.ADD,
  delete: provproto.PropertyDiff.Kind.DELETE,
  update: provproto.PropertyDiff.Kind.UPDATE,
  replace: provproto.PropertyDiff.Kind.UPDATE_REPLACE,
};

/** The top-level property a path starts with (`members["x"]` -> `members`). */
const root = (path: string): string => path.split(/[.[]/)[0] ?? path;

export function diffResponse(d: DiffResult): provproto.DiffResponse {
  const resp = new provproto.DiffResponse();
  const detailed = resp.getDetaileddiffMap();
  for (const c of d.changes) {
    const pd = new provproto.PropertyDiff();
    pd.setKind(KINDS[c.kind]);
    pd.setInputdiff(true);
    detailed.set(c.path, pd);
  }
  resp.setHasdetaileddiff(true);
  resp.setChanges(
    d.changes.length > 0 ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
  );
  resp.setDiffsList([...new Set(d.changes.map((c) => root(c.path)))]);
  resp.setReplacesList([...new Set(d.changes.filter((c) => c.kind === "replace").map((c) => root(c.path)))]);
  if (d.deleteBeforeReplace) resp.setDeletebeforereplace(true);
  return resp;
}
