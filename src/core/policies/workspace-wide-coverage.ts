/**
 * A workspace-wide write the service refused (400) over its coverage: a workspace it names may be
 * gone (deleted while the policy covered it, or never there). The service's own text names the
 * wire field; this names the program's arg and the workspace, and says what to change. Asked only
 * after a 400 (one list of the workspaces), so a write that succeeds costs nothing more.
 */
import { ValidationError } from "../client/errors";
import type { Connection } from "../connection";
import { sameUuid } from "../fields/constants";
import { annotateAs } from "../resource/annotate";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";
import { COVERAGE_LISTS, type CoverageList } from "./workspace-wide-model";

/** The coverage a write sent, by wire name. */
type SentCoverage = Record<(typeof COVERAGE_LISTS)[CoverageList], string[]>;

/** The failure to raise for `err`, a write's failure: a clear error when it names workspaces the service does not have. */
export async function coverageRefused(
  conn: Connection,
  what: string,
  sent: SentCoverage,
  err: unknown,
): Promise<never> {
  if (!(err instanceof ValidationError)) throw annotateAs(what, err);
  const held: string[] = [];
  try {
    for await (const w of conn.client().listWorkspaces()) held.push(w.id);
  } catch {
    // The list failing says nothing about the workspaces: the service's own answer stands.
    throw annotateAs(what, err);
  }
  const missing = (Object.keys(COVERAGE_LISTS) as CoverageList[]).flatMap((arg) =>
    sent[COVERAGE_LISTS[arg]]
      .filter((w) => !held.some((h) => sameUuid(h, w)))
      .map((w) => `${arg} names workspace ${idText(w)}`),
  );
  if (missing.length === 0) throw annotateAs(what, err);
  throw new UserError(
    `${what}: ${missing.join("; ")}, which the service does not have (deleted, or never made). Nothing was written. ` +
      `Remove it from the program (the getWorkspaces data source lists the workspaces), then \`pulumi up\`.`,
    { cause: err },
  );
}
