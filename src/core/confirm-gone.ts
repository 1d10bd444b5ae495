/**
 * "Not found" must really mean not found. A 404 is also what a wrong base URL, a proxy
 * prefix or a wrong API version answers, and `read` answering "gone" makes Pulumi drop the
 * resource from state (and the next `up` create a duplicate). So before a read reports a
 * resource gone, the service at the configured URL must answer for the guardrail collection,
 * and, when the workspace is known, must not list the id it just said it does not know.
 */
import type { Connection } from "./connection";
import { UntrustedNotFoundError, ValidationError, type NotFoundError } from "./client/errors";
import { RECORDED_CONFIG } from "./settings/config-problems";
import { shownSetting } from "./client/redaction";

export interface GoneQuestion {
  /** How messages name the resource, e.g. `guardrail "Engineering" (uuid)`. */
  what: string;
  /** The guardrail whose absence is in question. */
  guardrailId: string;
  /** Its workspace, when known: then the workspace's list must not hold the id. */
  workspaceId?: string | undefined;
  /** Another collection than the guardrails (a policy kind's, issue 40; the workspaces): its list, read whole, and its noun for messages. */
  list?: (workspaceId: string | undefined) => AsyncIterable<{ id: string }>;
  noun?: string;
  /** What the refusal says instead of "not reported as deleted" and "The state keeps the resource." (a lookup, not a delete). */
  refusal?: { verdict: string; kept: string };
}

/**
 * Resolves when the 404 is confirmed by a working service; throws naming the URL and the
 * likely fix otherwise. Costs one list call (the workspace's pages when it is known), and
 * only on the rare 404.
 */
export async function confirmGone(conn: Connection, notFound: NotFoundError, q: GoneQuestion): Promise<void> {
  const settings = conn.settings();
  const client = conn.client();
  const fromStack = settings.baseUrlSource.startsWith("stack config");
  const refuse = (why: string, cause: unknown) =>
    new UntrustedNotFoundError(
      `${q.what}: ${q.refusal?.verdict ?? "not reported as deleted"}, because ${why}. ${q.refusal?.kept ?? "The state keeps the resource."} ` +
        `Check ${fromStack ? "guardrails:baseUrl" : "the env var GUARDRAILS_BASE_URL"}, now ${shownSetting(settings.baseUrl, [settings.apiKey])}: it must be the service's address ` +
        `without /api/v1 and without any other path the service does not serve, e.g. https://api.example.com` +
        (fromStack
          ? `. ${RECORDED_CONFIG}: after correcting guardrails:baseUrl, run \`pulumi refresh --run-program\` or \`pulumi up\``
          : ""),
      q.what,
      { cause },
    );
  const seen: string[] = [];
  const list = async (workspaceId: string | undefined) => {
    const rows = q.list ? q.list(workspaceId) : client.listGuardrails(workspaceId ? { workspaceId } : {});
    for await (const g of rows) {
      seen.push(g.id);
      // Without a workspace, one answered page of guardrails proves the URL serves the API.
      if (!workspaceId && !q.list) break;
    }
  };
  try {
    await list(q.workspaceId);
  } catch (err) {
    // A workspace the service no longer knows (400) took its guardrails with it; the
    // default workspace's list still has to prove that the URL serves the API.
    const retried =
      err instanceof ValidationError && q.workspaceId && !q.list
        ? await list(undefined).then(
            () => true,
            () => false,
          )
        : false;
    if (!retried)
      throw refuse(
        `${notFound.method} ${notFound.url} answered 404, and the ${q.noun ?? "guardrail"} list at the same address failed too (${(err as Error).message})`,
        err,
      );
  }
  if (seen.includes(q.guardrailId)) {
    throw refuse(
      `${notFound.method} ${notFound.url} answered 404, yet the service lists ${q.noun ?? "guardrail"} ${q.guardrailId}${q.workspaceId ? ` in workspace ${q.workspaceId}` : ""}`,
      notFound,
    );
  }
}
